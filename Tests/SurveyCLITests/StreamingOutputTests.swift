import Foundation
import XCTest
import SurveyValues
import SurveyForms
import SurveyStorage

/// `survey list` and `survey export` write a document as they read it: the first lines
/// leave before the rest of the file is read, a reader that stops early ends survey
/// quietly (exit 0: the status it would have had), and the bytes are those the whole
/// document gave before. Timings are `make bench`'s and docs/speed.md's, not these tests'.
final class StreamingOutputTests: CLITestCase {
    /// More surveys than the first batch (1,000), with odd values (written by plistlib).
    private func installOddDocument(_ name: String, count: Int = 2_500) throws {
        _ = try python(#"""
            import datetime, plistlib, sys
            records = []
            for i in range(int(sys.argv[2])):
                r = {"firstName": f"Ana {i}", "lastName": "Lima", "phone": f"555-{i:04d}"}
                if i % 7 == 0: r["address"] = 'Rua 1, "Porto"\r\nsecond line'
                if i % 11 == 0: r["phone"] = "555\t01 \u2028 x"
                if i % 5 == 0: r["age"] = i
                elif i % 5 == 1: r["age"] = "thirty"
                elif i % 5 == 2: r["age"] = 41.5
                if i % 13 == 0: r["tags"] = ["a", {"b": [1, 2.5, True]}, [], {}]
                if i % 17 == 0: r["when"] = datetime.datetime(2024, 3, 5, 9, 7, 0)
                if i % 19 == 0: r["blob"] = b"\x00\x01binary"
                if i % 29 == 0: r["zo\u00eb \u540d"] = "\u00fc & <b>"
                if i % 31 == 0: r["instanceID"] = f"uuid:{i:032x}"
                if i % 41 == 0: r["firstName"] = "\u00c9mile \u592a\u90ce \U0001F600"
                if i % 43 == 0: r["lastName"] = "del\x7f c1\x85\x9f \\ end"
                if i % 37 == 0: r = {}
                records.append(r)
            with open(sys.argv[1], "wb") as f:
                plistlib.dump(records, f, fmt=plistlib.FMT_XML, sort_keys=True)
            """#, [store.url(for: name).path, String(count)])
    }

    func testEveryFormatIsWhatTheWholeDocumentGave() throws {
        try installOddDocument("Odd")
        let whole = try store.load("Odd").get()
        let csv = whole.csvText(), json = whole.jsonText()
        let plist = String(decoding: try whole.propertyListData(), as: UTF8.self)
        for (arguments, expected) in [(["list", "--format", "csv"], csv), (["export"], csv),
                                      (["list", "--format", "json"], json), (["export", "--format", "json"], json),
                                      (["export", "--format", "plist"], plist)] {
            XCTAssertEqual(try survey(["--doc", "Odd"] + arguments), Outcome(status: 0, stdout: expected, stderr: ""),
                           arguments.joined(separator: " "))
        }
        for format in ["csv", "json", "plist"] {
            let output = root.appendingPathComponent("odd.\(format)")
            XCTAssertEqual(try survey("export", "--doc", "Odd", "--output", output.path).status, 0)
            XCTAssertEqual(String(decoding: try fileBytes(output), as: UTF8.self),
                           ["csv": csv, "json": json, "plist": plist][format], format)
        }
    }

    /// Column widths come from the first 1,000 rows: a wider name later pushes only its own
    /// row, and the rows after it line up again.
    func testTheTableSizesItsColumnsByItsFirstRows() throws {
        var records = (0..<1_500).map { Record(["firstName": .string("Person \($0)"), "phone": .string("555-0000")]) }
        records[1_200]["firstName"] = .string("A much longer name than the first thousand")
        try store.save(SurveyDocument(records: records), as: "Wide")
        let lines = try survey("list", "--doc", "Wide").stdout.split(separator: "\n", omittingEmptySubsequences: false)
        func row(_ number: String, _ name: String, _ phone: String) -> String {
            String(repeating: " ", count: max(0, 4 - number.count)) + number + "  "
                + name + String(repeating: " ", count: max(0, 10 - name.count)) + "  " + phone
        }
        var expected = [row("#", "NAME", "PHONE     AGE")]
        expected += records.indices.map { row(String($0 + 1), records[$0].text(forKey: "firstName"), "555-0000") }
        XCTAssertEqual(lines.count, 1_502)
        XCTAssertEqual(lines.last, "")
        XCTAssertEqual(Array(lines.dropLast()), expected.map { Substring($0) })
        XCTAssertEqual(lines[1_201], "1201  A much longer name than the first thousand  555-0000")
        XCTAssertEqual(lines[1_202], "1202  Person 1201  555-0000")
    }

    /// The file is damaged after its first surveys: the rows before the damage are already
    /// out when it is read (a whole read would have written nothing), then the error, exit 1.
    /// An export to a file writes nothing there: the streamed temporary file is removed.
    func testTheFirstRowsLeaveBeforeTheRestOfTheFileIsRead() throws {
        try store.save(records(5_000), as: "Torn")
        let url = store.url(for: "Torn")
        let bytes = try fileBytes(url)
        try (bytes.prefix(bytes.count * 3 / 4) + Data("<dict><key>oops".utf8)).write(to: url)
        guard case .failure(let error) = store.load("Torn") else { return XCTFail("the damage is found") }

        for format in ["table", "csv", "json"] {
            let outcome = try survey("list", "--doc", "Torn", "--format", format)
            XCTAssertEqual(outcome.status, 1, format)
            XCTAssertEqual(outcome.stderr, "survey: \(error.message)\n", format)
            XCTAssertTrue(outcome.stdout.contains("Person 0") && outcome.stdout.contains("Person 999"),
                          "\(format): the first rows were written")
            XCTAssertFalse(outcome.stdout.contains("Person 4999"), format)
        }
        let output = root.appendingPathComponent("out.csv")
        XCTAssertEqual(try survey("export", "--doc", "Torn", "--output", output.path),
                       Outcome(status: 1, stdout: "", stderr: "survey: \(error.message)\n"))
        try Data("kept".utf8).write(to: output)
        XCTAssertEqual(try survey("export", "--doc", "Torn", "--output", output.path, "--force").status, 1)
        XCTAssertEqual(try fileBytes(output), Data("kept".utf8), "nothing replaced")
        XCTAssertEqual(try folderContents(root).filter { $0.contains(".tmp-") }, [], "no temporary file left")
    }

    /// `| head -2` under `set -o pipefail`: survey stops reading and ends quietly, exit 0,
    /// in every format; it leaves nothing behind in the document folder.
    func testAReaderThatStopsEarlyEndsSurveyQuietly() throws {
        try installOddDocument("Odd", count: 20_000)
        let before = try folderContents()
        for command in ["list", "list --format csv", "list --format json",
                        "export", "export --format json", "export --format plist", "export --output -"] {
            let outcome = try shell("""
                set -o pipefail
                "$SURVEY" --dir "$DOCS" --doc Odd \(command) | head -2
                echo "pipeline $?" >&2
                """, shell: "/bin/bash")
            XCTAssertEqual(outcome.stdout.utf8.filter { $0 == 0x0A }.count, 2, command)
            XCTAssertEqual(outcome.stderr, "pipeline 0\n", command)
        }
        XCTAssertEqual(try folderContents(), before)
    }
}
