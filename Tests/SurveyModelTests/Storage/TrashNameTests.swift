import Foundation
import XCTest
@testable import SurveyValues
@testable import SurveyForms
@testable import SurveyStorage

final class TrashNameTests: XCTestCase {
    private let date: Date = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = .current
        return calendar.date(from: DateComponents(year: 2031, month: 12, day: 24, hour: 23, minute: 59, second: 58))!
    }()

    func testStemFormat() {
        XCTAssertEqual(TrashName.stem(for: "A (b)", deletedAt: date), "A (b) (deleted 2031-12-24 23.59.58)")
        XCTAssertEqual(TrashName.stem(for: "A", deletedAt: date, number: 3), "A (deleted 2031-12-24 23.59.58) 3")
    }

    func testParseReadsBackWhatStemWrote() throws {
        for (name, number) in [("Market Street", 1), ("A (deleted x)", 1), ("Numbers 2", 7), ("山田", 12)] {
            let fileName = TrashName.stem(for: name, deletedAt: date, number: number) + ".plist"
            let parsed = try XCTUnwrap(TrashName.parse(fileName), fileName)
            XCTAssertEqual(parsed.name, name)
            XCTAssertEqual(parsed.deletedAt, date)
            XCTAssertEqual(parsed.number, number)
        }
    }

    func testParseRefusesOtherNames() {
        for fileName in ["Plain.plist", "A (deleted 2031-12-24 23.59.58).txt", "A (deleted 2031-12-24 23:59:58).plist",
                         "A (deleted 2031-13-24 23.59.58).plist", " (deleted 2031-12-24 23.59.58).plist",
                         "A (deleted 2031-12-24 23.59.58) x.plist", "A (deleted 2031-12-24 23.59.58) 1.plist",
                         "A (deleted 2031.12.24-23-59-58).plist"] {
            XCTAssertNil(TrashName.parse(fileName), fileName)
        }
    }
}
