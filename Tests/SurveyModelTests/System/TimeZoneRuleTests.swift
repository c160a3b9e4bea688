import Foundation
import XCTest
import SurveyTestSupport
@testable import SurveyValues
@testable import SurveyForms
@testable import SurveyStorage

/// `TimeZoneRule` (TZif files and POSIX rules, read without ICU) against Python's `zoneinfo`,
/// and the texts `CivilTime` writes against Foundation's ICU calendar and ISO 8601 formatter.
final class TimeZoneRuleTests: XCTestCase {
    static let zones = ["Europe/Paris", "America/New_York", "Australia/Lord_Howe", "Asia/Kolkata", "America/St_Johns",
                        "Pacific/Chatham", "Europe/Dublin", "America/Sao_Paulo", "Africa/Casablanca", "Pacific/Apia", "UTC"]

    /// Every 5 hours 13 minutes over 2023-2025, each 2024 change in Paris and New York and the
    /// seconds either side, and instants far before and after (the POSIX footer's years).
    static let instants: [Int64] = {
        var list: [Int64] = stride(from: Int64(1_672_531_200), to: 1_767_225_600, by: 5 * 3600 + 13 * 60).map { $0 }
        for edge: Int64 in [1_711_846_800, 1_729_990_800, 1_710_054_000, 1_730_613_600] { list += [edge - 1, edge, edge + 1] }
        list += [-1_000_000_000, 0, 946_684_800, 2_147_483_647, 2_147_483_648, 2_208_988_800, 4_102_444_800, 4_118_083_200]
        return list
    }()

    private func zoneFile(_ name: String) throws -> TimeZoneRule {
        let path = "/usr/share/zoneinfo/" + name
        guard let data = FileManager.default.contents(atPath: path) else { throw XCTSkip("\(path) is missing (Debian's tzdata)") }
        return try XCTUnwrap(TimeZoneRule(tzif: data), name)
    }

    func testOffsetsMatchPythonZoneinfo() throws {
        try XCTSkipIf(!FileManager.default.fileExists(atPath: "/usr/share/zoneinfo/Europe/Paris"), "no tzdata")
        let script = """
        import sys, zoneinfo, datetime
        zones = sys.argv[1].split(","); instants = [int(x) for x in sys.argv[2].split(",")]
        for z in zones:
            tz = zoneinfo.ZoneInfo(z)
            print(",".join(str(int(datetime.datetime.fromtimestamp(t, tz).utcoffset().total_seconds())) for t in instants))
        """
        let run = try ChildProcess.run(["python3", "-c", script, Self.zones.joined(separator: ","),
                                        Self.instants.map(String.init).joined(separator: ",")])
        XCTAssertEqual(run.status, 0, run.errors)
        let rows = run.output.split(separator: "\n")
        XCTAssertEqual(rows.count, Self.zones.count)
        for (zone, row) in zip(Self.zones, rows) {
            let rule = try zoneFile(zone)
            let expected = row.split(separator: ",").map { Int($0)! }
            for (instant, offset) in zip(Self.instants, expected) {
                XCTAssertEqual(rule.secondsFromGMT(at: instant), offset, "\(zone) at \(instant)")
            }
        }
    }

    func testPosixRulesMatchTheirZones() throws {
        let cases = [("CET-1CEST,M3.5.0,M10.5.0/3", "Europe/Paris"), ("EST5EDT,M3.2.0,M11.1.0", "America/New_York"),
                     ("<+1030>-10:30<+11>-11,M10.1.0,M4.1.0", "Australia/Lord_Howe"), ("IST-5:30", "Asia/Kolkata"),
                     ("NST3:30NDT,M3.2.0,M11.1.0", "America/St_Johns")]
        for (posix, zone) in cases {
            let rule = try XCTUnwrap(TimeZoneRule(posix: posix), posix)
            let file = try zoneFile(zone)
            for instant in Self.instants where instant >= 1_672_531_200 {
                XCTAssertEqual(rule.secondsFromGMT(at: instant), file.secondsFromGMT(at: instant), "\(posix) at \(instant)")
            }
        }
        XCTAssertNil(TimeZoneRule(posix: "not a zone"))
    }

    func testTZVariableIsResolvedAsTheCLibraryDoes() throws {
        let folder = "/usr/share/zoneinfo"
        try XCTSkipIf(!FileManager.default.fileExists(atPath: folder + "/Europe/Paris"), "no tzdata")
        let july: Int64 = 1_720_000_000
        XCTAssertEqual(TimeZoneRule(environment: ["TZ": "Europe/Paris"]).secondsFromGMT(at: july), 7200)
        XCTAssertEqual(TimeZoneRule(environment: ["TZ": ":America/New_York"]).secondsFromGMT(at: july), -4 * 3600)
        XCTAssertEqual(TimeZoneRule(environment: ["TZ": folder + "/Asia/Kolkata"]).secondsFromGMT(at: july), 19800)
        XCTAssertEqual(TimeZoneRule(environment: ["TZ": "EST5EDT"]).secondsFromGMT(at: july), -4 * 3600)
        XCTAssertEqual(TimeZoneRule(environment: ["TZ": "<+03>-3"]).secondsFromGMT(at: july), 3 * 3600)
        XCTAssertEqual(TimeZoneRule(environment: ["TZ": ""]).secondsFromGMT(at: july), 0)
        XCTAssertEqual(TimeZoneRule(environment: ["TZ": "../../etc/passwd"]).secondsFromGMT(at: july), 0)
        XCTAssertEqual(TimeZoneRule(environment: [:], localtime: folder + "/Europe/Paris").secondsFromGMT(at: july), 7200)
        XCTAssertEqual(TimeZoneRule(environment: [:], localtime: "/nonexistent").secondsFromGMT(at: july), 0)
    }

    /// The texts survey shows and writes, byte for byte as Foundation's calendar and
    /// `ISO8601DateFormatter` made them in the same zones.
    func testTextsMatchFoundationsInNamedAndFixedZones() throws {
        for name in ["Europe/Paris", "America/New_York", "Asia/Kolkata", "Pacific/Chatham", "UTC"] {
            let ours = try zoneFile(name)
            let theirs = try XCTUnwrap(TimeZone(identifier: name))
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = theirs
            let formatter = ISO8601DateFormatter()
            formatter.timeZone = theirs
            for instant in Self.instants.prefix(600) + Self.instants.suffix(20) {
                let date = Date(timeIntervalSince1970: Double(instant) + 0.75)
                let c = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
                let expected = String(format: "%04d-%02d-%02d %02d:%02d:%02d", c.year!, c.month!, c.day!, c.hour!, c.minute!, c.second!)
                let t = CivilTime(date, in: ours)
                XCTAssertEqual(t.dayText + " " + t.secondText, expected, "\(name) \(instant)")
                XCTAssertEqual(CivilTime.iso8601(date, in: ours), formatter.string(from: date), "\(name) \(instant)")
                // Back from the wall-clock time: this instant, or the first of a repeated hour.
                let back = t.date(in: ours)
                XCTAssertEqual(CivilTime(back, in: ours), t, "\(name) \(instant)")
                XCTAssertEqual(back.timeIntervalSince1970, Double(instant) - (calendar.date(from: c).map { Double(instant) - $0.timeIntervalSince1970 } ?? 0),
                               "\(name) \(instant): as Foundation's calendar reads it back")
            }
        }
        for offset in [0, 3600, -18000, 19800] {
            let formatter = ISO8601DateFormatter()
            formatter.timeZone = TimeZone(secondsFromGMT: offset)!
            let date = Date(timeIntervalSince1970: 1_720_000_000.25)
            XCTAssertEqual(CivilTime.iso8601(date, in: TimeZoneRule(secondsFromGMT: offset)), formatter.string(from: date))
        }
        XCTAssertEqual(CivilTime.iso8601(Date(timeIntervalSince1970: -1)), ISO8601DateFormatter().string(from: Date(timeIntervalSince1970: -1)))
    }
}
