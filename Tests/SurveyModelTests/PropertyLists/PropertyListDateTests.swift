import Foundation
import XCTest
@testable import SurveyValues
@testable import SurveyForms
@testable import SurveyStorage

/// Dates are proleptic Gregorian, as plistlib's `datetime` is, over its whole range (years 1
/// to 9999), and -0.0 keeps its sign: a value survey does not change is written back exactly.
/// Foundation's reader counted days before 1582-10-15 in the Julian calendar, so every save
/// moved 1000-06-15 to 1000-06-21 and 0001-01-01 to 0000-12-30, which plistlib refuses.
final class PropertyListDateTests: TemporaryFolderTestCase {
    /// Dates plistlib writes, as it writes them.
    private let texts = [
        "0001-01-01T00:00:00Z", "0004-02-29T12:00:00Z", "0999-12-31T23:59:59Z", "1000-06-15T00:00:00Z",
        "1582-10-04T08:30:00Z", "1582-10-10T00:00:00Z", "1582-10-14T23:59:59Z", "1582-10-15T00:00:00Z",
        "1752-09-08T00:00:00Z", "1899-12-31T23:59:59Z", "1900-01-01T00:00:00Z", "2024-02-29T23:59:59Z",
        "9999-12-31T23:59:59Z",
    ]

    /// plistlib writes a record of those dates and -0.0; survey reads it and saves it with a
    /// change elsewhere (the new survey's id); every `<date>` and `<real>` line is byte for byte
    /// what plistlib wrote, and plistlib reads the same values back. Also through the reader
    /// behind the scanner (a comment in the file sends it there).
    func testDatesOfEveryYearAndNegativeZeroFromPlistlibAreWrittenBackExactly() throws {
        let writer = #"""
            import datetime, plistlib, sys
            texts = sys.argv[2].split(",")
            record = {"firstName": "Ana", "z": -0.0, "reals": [-0.0, 0.0, 1.5, -2.0, 1e300, 5e-324]}
            for i, t in enumerate(texts):
                record["d%02d" % i] = datetime.datetime.strptime(t, "%Y-%m-%dT%H:%M:%SZ")
            data = plistlib.dumps([record])
            if sys.argv[3] == "comment":
                data = data.replace(b"<array>", b"<array><!-- a note -->", 1)
            open(sys.argv[1], "wb").write(data)
            """#
        let reader = #"""
            import plistlib, sys
            record = plistlib.load(open(sys.argv[1], "rb"))[0]
            print(",".join(record[k].isoformat() + "Z" for k in sorted(record) if k.startswith("d")))
            print(",".join(repr(x) for x in [record["z"]] + record["reals"]))
            """#
        let store = DocumentStore(folder: folder)
        for layout in ["plain", "comment"] {
            let path = store.url(for: "FromPython").path
            _ = try TestSupport.python(writer, [path, texts.joined(separator: ","), layout])
            let original = try String(contentsOfFile: path, encoding: .utf8)
            var document = try store.load("FromPython").get()
            document.records[0].values["lastName"] = .string("Lima")
            try store.save(document, as: "Saved")
            let saved = try String(contentsOfFile: store.url(for: "Saved").path, encoding: .utf8)

            func values(_ text: String) -> [String] {
                text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
                    .filter { $0.hasPrefix("<date>") || $0 == "<real>-0.0</real>" }
            }
            XCTAssertEqual(values(original).count, texts.count + 2, layout)
            XCTAssertEqual(values(saved), values(original), layout)
            XCTAssertEqual(try TestSupport.python(reader, [store.url(for: "Saved").path]),
                           texts.joined(separator: ",") + "\n-0.0,-0.0,0.0,1.5,-2.0,1e+300,5e-324\n", layout)
        }
    }

    /// Dates survey makes and writes are the days plistlib reads, at both ends of its range.
    func testDatesSurveyWritesArePlistlibsDays() throws {
        let dates = texts.map { text -> PropertyValue in
            var text = text
            guard case .date(let date) = text.withUTF8({ PropertyListDate.reading($0) }) else { return .string("unread \(text)") }
            return .date(date)
        }
        let store = DocumentStore(folder: folder)
        try store.save(SurveyDocument(records: [Record(["dates": .array(dates), "z": .real(-0.0)])]), as: "Dates")
        let printed = try TestSupport.python(#"""
            import plistlib, sys
            record = plistlib.load(open(sys.argv[1], "rb"))[0]
            print(",".join(d.isoformat() + "Z" for d in record["dates"]), repr(record["z"]))
            """#, [store.url(for: "Dates").path])
        XCTAssertEqual(printed, texts.joined(separator: ",") + " -0.0\n")
        // And the instants are plistlib's: seconds since 1970 as calendar.timegm counts them.
        let seconds = try TestSupport.python(#"""
            import calendar, datetime, sys
            print(",".join(str(calendar.timegm(datetime.datetime.strptime(t, "%Y-%m-%dT%H:%M:%SZ").timetuple()))
                           for t in sys.argv[1].split(",")))
            """#, [texts.joined(separator: ",")])
        XCTAssertEqual(dates.map { value -> String in
            guard case .date(let date) = value else { return "?" }
            return String(Int64(date.timeIntervalSince1970))
        }.joined(separator: ","), seconds.trimmingCharacters(in: .newlines))
    }

    /// A date plistlib cannot hold (year 0, before it, after 9999) is refused when read, with
    /// its text, by both readers and the binary one: it is never written back silently.
    func testADateOutsideTheYearsOneTo9999IsRefusedWithItsText() throws {
        let refusedByPlistlib = try TestSupport.python(#"""
            import plistlib
            try:
                plistlib.loads(b'<plist version="1.0"><date>0000-12-30T00:00:00Z</date></plist>')
                print("read")
            except ValueError:
                print("refused")
            """#)
        XCTAssertEqual(refusedByPlistlib, "refused\n")
        for text in ["0000-12-30T00:00:00Z", "-0001-01-01T00:00:00Z", "10000-01-01T00:00:00Z"] {
            for wrapped in ["<array><dict><key>d</key><date>\(text)</date></dict></array>",
                            "<array><!-- c --><dict><key>d</key><date>\(text)</date></dict></array>"] {
                let data = Data("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<plist version=\"1.0\">\(wrapped)</plist>\n".utf8)
                XCTAssertThrowsError(try SurveyDocument(propertyListData: data), wrapped) { error in
                    XCTAssertTrue("\(error)".contains("a date outside the years 1 to 9999 (\(text))"), "\(error)")
                }
            }
        }
        // A binary file's date is seconds from 2001: the year 0 and the year 10000.
        for seconds in [-63_145_526_400.0, 252_460_800_000.0, .infinity] {
            let data = try PropertyListSerialization.data(fromPropertyList: [["d": Date(timeIntervalSinceReferenceDate: seconds)]],
                                                          format: .binary, options: 0)
            XCTAssertThrowsError(try SurveyDocument(propertyListData: data), "\(seconds)") { error in
                XCTAssertTrue("\(error)".contains("a date outside the years 1 to 9999"), "\(error)")
            }
        }
        // Days that do not exist are refused, not moved to the next month.
        let badDay = Data("<plist version=\"1.0\"><array><!-- c --><dict><key>d</key><date>2023-02-29T00:00:00Z</date></dict></array></plist>".utf8)
        XCTAssertThrowsError(try SurveyDocument(propertyListData: badDay)) { error in
            XCTAssertTrue("\(error)".contains("a date that is not YYYY-MM-DDTHH:MM:SSZ with a real day and time (2023-02-29T00:00:00Z)"), "\(error)")
        }
    }

    func testNegativeZeroIsWrittenWithItsSign() {
        XCTAssertEqual(PropertyListWriter.realText(-0.0), "-0.0")
        XCTAssertEqual(PropertyListWriter.realText(0.0), "0")
        XCTAssertEqual(PropertyListWriter.realText(-2), "-2")
    }
}
