import Foundation
import XCTest
import SurveyValues
import SurveyForms
import SurveyStorage

final class ImportCommandTests: CLITestCase {
    private let ageRule = "Age must be a whole number from 0 to 150, or empty"

    func testCSVWithLabelsQuotesLineBreaksBOMAndAnUnknownColumn() throws {
        try installFixture("seed-serialized.xml", as: "Seed")
        let file = try scratchFile("people.csv", "\u{FEFF}Last name,First Name,AGE,Phone,Address,Badge\r\n"
                                   + "\"Núñez, Jr\",José,35,,\"Calle 5\r\nMadrid\",A-1\r\n"
                                   + "山田,美咲,,\"say \"\"hi\"\"\",,\r\n")
        XCTAssertEqual(try survey("import", file.path),
                       Outcome(status: 0, stdout: "Imported 2 surveys into “Seed”\n", stderr: ""))
        let records = try recordsCheckingIDs("Seed")
        XCTAssertEqual(records.count, 4)
        XCTAssertEqual(Array(records.suffix(2)), [
            Record(["lastName": .string("Núñez, Jr"), "firstName": .string("José"), "age": .integer(35),
                    "phone": .string(""), "address": .string("Calle 5\r\nMadrid"), "Badge": .string("A-1")]),
            Record(["lastName": .string("山田"), "firstName": .string("美咲"), "phone": .string("say \"hi\""),
                    "address": .string(""), "Badge": .string("")]),
        ])
    }

    func testExportThenImportGivesTheSameRecordsWithTheirIDs() throws {
        try installFixture("plistlib-unicode.plist", as: "Unicode")
        var withIDs = try store.load("Unicode").get()
        XCTAssertEqual(withIDs.assignMissingInstanceIDs(), 5)
        try store.save(withIDs, as: "Unicode")
        for format in ["csv", "json", "plist"] {
            let file = try scratchFile("unicode.\(format)")
            XCTAssertEqual(try survey("export", "--doc", "Unicode", "--output", file.path).status, 0)
            XCTAssertEqual(try survey("import", file.path, "--doc", "Copy \(format)").stdout,
                           "Imported 5 surveys into “Copy \(format)”\n")
        }
        let original = try store.load("Unicode").get()
        XCTAssertEqual(try store.load("Copy json").get(), original, "JSON keeps notes and tags")
        XCTAssertEqual(try store.load("Copy plist").get(), original)
        let exported = Questionnaire.standard.fields.map(\.key) + [Record.instanceIDKey]
        XCTAssertEqual(try store.load("Copy csv").get().records.map { $0.values.filter { exported.contains($0.key) } },
                       original.records.map { $0.values.filter { exported.contains($0.key) } }, "CSV keeps the ids")
    }

    func testRecordsExportedWithoutAnIDAreGivenFreshOnesOnImport() throws {
        try installFixture("plistlib-unicode.plist", as: "Unicode")
        let file = try scratchFile("unicode.json")
        XCTAssertEqual(try survey("export", "--doc", "Unicode", "--output", file.path).status, 0)
        XCTAssertEqual(try survey("import", file.path, "--doc", "Copy").status, 0)
        XCTAssertEqual(try recordsCheckingIDs("Copy"), Array(try store.load("Unicode").get().records),
                       "the same records, each with a new id")
    }

    func testJSONFromStdinWithAnExplicitFormat() throws {
        try store.save(SurveyDocument(), as: "Field")
        let file = try scratchFile("in.data", #"[{"firstName": "Ana", "lastName": "Lima", "age": "42", "tags": ["x"]}]"#)
        XCTAssertEqual(try survey(["import", "-", "--format", "json"], stdin: file),
                       Outcome(status: 0, stdout: "Imported 1 survey into “Field”\n", stderr: ""))
        XCTAssertEqual(try recordsCheckingIDs("Field"), [Record([
            "firstName": .string("Ana"), "lastName": .string("Lima"), "age": .integer(42), "tags": .array([.string("x")]),
            "address": .string(""), "phone": .string(""),   // every text answer, as the form's Add writes
        ])])
    }

    func testCSVWrittenByPythonIsImported() throws {
        try store.save(SurveyDocument(), as: "Field")
        let file = try scratchFile("python.csv")
        _ = try python("""
            import csv, sys
            with open(sys.argv[1], "w", newline="", encoding="utf-8") as f:
                w = csv.writer(f)
                w.writerow(["firstName", "lastName", "address", "phone", "age"])
                w.writerow(["Zoë", "O'Brien", 'a "quoted", address\\nsecond line', "", "61"])
                w.writerow(["👩‍👩‍👧", "", "", "+1", ""])
            """, [file.path])
        XCTAssertEqual(try survey("import", file.path).stdout, "Imported 2 surveys into “Field”\n")
        XCTAssertEqual(try recordsCheckingIDs("Field"), [
            Record(["firstName": .string("Zoë"), "lastName": .string("O'Brien"),
                    "address": .string("a \"quoted\", address\nsecond line"), "phone": .string(""), "age": .integer(61)]),
            Record(["firstName": .string("👩‍👩‍👧"), "lastName": .string(""), "address": .string(""), "phone": .string("+1")]),
        ])
    }

    func testOneBadRowAndNothingIsImported() throws {
        try installFixture("seed-serialized.xml", as: "Seed")
        let before = try fileBytes(store.url(for: "Seed"))
        let file = try scratchFile("bad.csv", "firstName,lastName,age,notes\n"
                                   + "Ana,Lima,30,\nBo,Ng,151,\n,,,\nCy,\"Ray\u{1}\",abc,\"bell\u{7}\"\n")
        XCTAssertEqual(try survey("import", file.path), Outcome(status: 1, stdout: "", stderr: """
            survey: nothing imported: \(file.path) has 5 problems
            survey: row 3: age "151": \(ageRule)
            survey: row 4: every answer is empty
            survey: row 5: lastName "Ray\u{FFFD}": Last name cannot hold control characters
            survey: row 5: age "abc": \(ageRule)
            survey: row 5: notes "bell\u{FFFD}": notes cannot hold control characters

            """))
        XCTAssertEqual(try fileBytes(store.url(for: "Seed")), before)
        XCTAssertEqual(try folderContents(), ["Seed.plist"])
    }

    func testAtMostTwentyProblemsAreListed() throws {
        try store.save(SurveyDocument(), as: "Field")
        let rows = (1...23).map { "P\($0),\($0 + 150)" }.joined(separator: "\n")
        let file = try scratchFile("many.csv", "firstName,age\n" + rows + "\n")
        let outcome = try survey("import", file.path)
        XCTAssertEqual(outcome.status, 1)
        let lines = outcome.stderr.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.count, 22)
        XCTAssertEqual(lines.first, "survey: nothing imported: \(file.path) has 23 problems")
        XCTAssertEqual(lines[1], "survey: row 2: age \"151\": \(ageRule)")
        XCTAssertEqual(lines[20], "survey: row 21: age \"170\": \(ageRule)")
        XCTAssertEqual(lines.last, "survey: …and 3 more")
        XCTAssertEqual(try store.load("Field").get().records, [])
    }

    func testJSONRefusalsNameTheRecord() throws {
        try store.save(SurveyDocument(), as: "Field")
        let file = try scratchFile("bad.json", #"[{"firstName": "A", "age": 35.5}, {"firstName": "B", "phone": 5551234}]"#)
        XCTAssertEqual(try survey("import", file.path).stderr, """
            survey: nothing imported: \(file.path) has 2 problems
            survey: record 1: age 35.5: \(ageRule)
            survey: record 2: phone 5551234: Phone must be text, not an integer

            """)
        let broken = try scratchFile("broken.json", #"{"firstName": "A"}"#)
        XCTAssertEqual(try survey("import", broken.path), Outcome(status: 1, stdout: "", stderr:
            "survey: \(broken.path): the JSON must be an array of records (objects), not an object\n"))
        XCTAssertEqual(try store.load("Field").get().records, [])
    }

    func testWholeFileRefusals() throws {
        try store.save(SurveyDocument(), as: "Field")
        let latin1 = root.appendingPathComponent("latin1.csv")
        try Data([0x66, 0x69, 0x72, 0x73, 0x74, 0x4E, 0x61, 0x6D, 0x65, 0x0A, 0x4A, 0x6F, 0x73, 0xE9, 0x0A]).write(to: latin1)
        XCTAssertEqual(try survey("import", latin1.path).stderr,
                       "survey: \(latin1.path): not UTF-8 text (save the spreadsheet as “CSV UTF-8”)\n")
        let missing = root.appendingPathComponent("missing.csv")
        XCTAssertEqual(try survey("import", missing.path).stderr, "survey: \(missing.path) does not exist\n")
        let garbage = try scratchFile("garbage.plist", "garbage")
        XCTAssertTrue(try survey("import", garbage.path).stderr.hasPrefix("survey: \(garbage.path): not a property list"))
        XCTAssertEqual(try store.load("Field").get().records, [])
    }

    func testANewDocIsCreatedOnlyWhenTheImportSucceeds() throws {
        let bad = try scratchFile("bad.csv", "firstName,age\nAna,999\n")
        XCTAssertEqual(try survey("import", bad.path, "--doc", "Fresh").status, 1)
        XCTAssertEqual(try folderContents(), [])
        let good = try scratchFile("good.csv", "firstName,age\nAna,9\n")
        XCTAssertEqual(try survey("import", good.path, "--doc", "Fresh").stdout, "Imported 1 survey into “Fresh”\n")
        XCTAssertEqual(try recordsCheckingIDs("Fresh"), [Record(["firstName": .string("Ana"), "age": .integer(9),
                                                                      "lastName": .string(""), "address": .string(""),
                                                                      "phone": .string("")])])
        XCTAssertEqual(try survey("import", good.path).stderr, "", "without --doc: the only document")
        XCTAssertEqual(try store.load("Fresh").get().records.count, 2)
    }

    func testAnEmptyImportLeavesAnExistingDocumentUntouched() throws {
        try installFixture("plistlib-unicode.plist", as: "Unicode")
        let past = Date(timeIntervalSince1970: 1_714_572_202)
        try FileManager.default.setAttributes([.modificationDate: past], ofItemAtPath: store.url(for: "Unicode").path)
        let headerOnly = try scratchFile("header.csv", "firstName,lastName\r\n")
        XCTAssertEqual(try survey("import", headerOnly.path),
                       Outcome(status: 0, stdout: "Imported 0 surveys into “Unicode”\n", stderr: ""))
        let attributes = try FileManager.default.attributesOfItem(atPath: store.url(for: "Unicode").path)
        XCTAssertEqual(attributes[.modificationDate] as? Date, past)
        let emptyJSON = try scratchFile("empty.json", "[]")
        XCTAssertEqual(try survey("import", emptyJSON.path, "--doc", "Asked For").stdout,
                       "Imported 0 surveys into “Asked For”\n")
        XCTAssertEqual(try store.documentNames(), ["Asked For", "Unicode"])
    }

    func testUsageErrors() throws {
        let cases: [([String], String)] = [
            (["import"], "survey: missing file: survey import FILE|FOLDER [--doc NAME] [--format csv|json|plist|odk-csv]"),
            (["import", "a.csv", "b.csv"], "survey: unexpected argument “b.csv”: survey import FILE|FOLDER [--doc NAME] [--format csv|json|plist|odk-csv]"),
            (["import", "people.txt"], "survey: cannot tell the format of “people.txt” from its name: add --format csv, json or plist"),
            (["import", "-"], "survey: cannot tell the format of “-” from its name: add --format csv, json or plist"),
            (["import", "a.csv", "--format", "table"], "survey: unknown format “table” for survey import (use csv, json, plist, odk-csv)"),
        ]
        for (arguments, message) in cases {
            let outcome = try survey(arguments)
            XCTAssertEqual(outcome.status, 2, "\(arguments)")
            XCTAssertEqual(outcome.stderr.split(separator: "\n").first.map(String.init), message, "\(arguments)")
        }
    }
}
