import Foundation
import XCTest
@testable import SurveyValues
@testable import SurveyForms

/// CSPro's operator statistics from a verification record: a survey's keys, time, fields
/// verified and keyer errors go to whoever keyed it, a verifier error to the verifier; per
/// login and local day, and in totals.
final class KeyerStatisticsTests: XCTestCase {
    private let day1 = Date(timeIntervalSince1970: 1_796_032_800)          // 2026-11-30 10:00 UTC
    private var day2: Date { day1.addingTimeInterval(86_400) }
    private var lateDay1: Date { day1.addingTimeInterval(13 * 3600 + 30 * 60) }  // 23:30 UTC: 1 December at +1

    private var log: VerificationLog {
        VerificationLog([
            VerificationEntry(kind: .keyed, survey: "s1", login: "ana", date: day1, keys: 100, seconds: 300),
            VerificationEntry(kind: .keyed, survey: "s2", login: "ana", date: day1, keys: 140, seconds: 420),
            VerificationEntry(kind: .keyed, survey: "s3", login: "bo", date: lateDay1, keys: 90, seconds: 200),
            VerificationEntry(kind: .chosen, survey: "s1", login: "boss", date: day1),
            VerificationEntry(kind: .same, survey: "s1", path: "a", login: "vera", date: day2),
            VerificationEntry(kind: .keyerError, survey: "s1", path: "b", login: "vera", date: day2),
            VerificationEntry(kind: .verifierError, survey: "s1", path: "c", login: "vera", date: day2),
            VerificationEntry(kind: .same, survey: "s1", path: "d", login: "vera", date: day2),
            VerificationEntry(kind: .finished, survey: "s1", login: "vera", date: day2),
            VerificationEntry(kind: .keyerError, survey: "old", path: "a", login: "vera", date: day2),
        ])
    }

    func testCountsPerKeyerAndDay() {
        let stats = KeyerStatistics(log, timeZone: .utc)
        XCTAssertEqual(stats.rows.map { "\($0.login) \($0.day)" },
                       ["(not recorded) 2026-12-01", "ana 2026-11-30", "ana 2026-12-01", "bo 2026-11-30", "vera 2026-12-01"])
        let anaKeying = stats.rows[1]
        XCTAssertEqual(anaKeying.surveysKeyed, 2)
        XCTAssertEqual(anaKeying.keys, 240)
        XCTAssertEqual(anaKeying.keysPerSurvey, 120)
        XCTAssertEqual(anaKeying.secondsPerSurvey, 360)
        let anaVerified = stats.rows[2]
        XCTAssertEqual(anaVerified.fieldsVerified, 4, "her survey's four fields verified on the 1st")
        XCTAssertEqual(anaVerified.keyerErrors, 1)
        XCTAssertEqual(anaVerified.keyerErrorRate, 0.25)
        XCTAssertEqual(anaVerified.verifierErrors, 0)
        let vera = stats.rows[4]
        XCTAssertEqual(vera.fieldsVerifiedAsVerifier, 5)
        XCTAssertEqual(vera.verifierErrors, 1)
        XCTAssertEqual(vera.verifierErrorRate, 0.2)
        XCTAssertEqual(vera.surveysKeyed, 0)
        XCTAssertEqual(stats.rows[0].keyerErrors, 1, "a survey keyed before the app recorded who")
    }

    func testTheDayIsLocal() {
        let stats = KeyerStatistics(log, timeZone: TimeZoneRule(secondsFromGMT: 3600))
        XCTAssertTrue(stats.rows.contains { $0.login == "bo" && $0.day == "2026-12-01" }, "23:30 UTC is the 1st at UTC+1")
    }

    func testTotalsPerKeyer() {
        let totals = KeyerStatistics(log, timeZone: .utc).totals
        XCTAssertEqual(totals.map(\.login), ["(not recorded)", "ana", "bo", "vera"])
        XCTAssertEqual(totals[1].surveysKeyed, 2)
        XCTAssertEqual(totals[1].fieldsVerified, 4)
        XCTAssertEqual(totals[1].day, "")
    }
}
