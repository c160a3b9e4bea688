import Foundation
import XCTest
import SurveyValues
import SurveyForms
import SurveyStorage
import SurveyTestSupport

final class ListCommandTests: CLITestCase {
    /// The seed, saved once so its records carry ids as any save gives them; the ids.
    private func installSeedWithIDs() throws -> [String] {
        try installFixture("seed-serialized.xml", as: "Seed")
        var seed = try store.load("Seed").get()
        seed.assignMissingInstanceIDs()
        try store.save(seed, as: "Seed")
        let ids = seed.records.compactMap(\.instanceID)
        XCTAssertEqual(ids.count, 2)
        XCTAssertTrue(ids.allSatisfy(InstanceIDCheck.isFresh), "\(ids)")
        return ids
    }

    func testTheSeedAsATable() throws {
        try installFixture("seed-serialized.xml", as: "Seed")
        XCTAssertEqual(try survey("list"), Outcome(status: 0, stdout: """
            #  NAME          PHONE     AGE
            1  Smith, John   555-1234   20
            2  Jones, Doris  555-1234   40

            """, stderr: ""))
    }

    func testTheSeedAsCSVAndJSONIsWhatExportWrites() throws {
        let ids = try installSeedWithIDs()
        let csv = try survey("list", "--format", "csv")
        XCTAssertEqual(csv, Outcome(status: 0, stdout: "firstName,lastName,address,phone,age,instanceID\r\n"
            + "John,Smith,123 Any St.,555-1234,20,\(ids[0])\r\nDoris,Jones,789 Town St.,555-1234,40,\(ids[1])\r\n",
            stderr: ""))
        XCTAssertEqual(try survey("export").stdout, csv.stdout)

        let json = try survey("list", "--format=json")
        XCTAssertEqual(json.status, 0)
        XCTAssertEqual(json.stdout, try survey("export", "--format", "json").stdout)
        XCTAssertEqual(json.stdout, """
            [
              {
                "firstName": "John",
                "lastName": "Smith",
                "address": "123 Any St.",
                "phone": "555-1234",
                "age": 20,
                "instanceID": "\(ids[0])"
              },
              {
                "firstName": "Doris",
                "lastName": "Jones",
                "address": "789 Town St.",
                "phone": "555-1234",
                "age": 40,
                "instanceID": "\(ids[1])"
              }
            ]

            """)
    }

    func testWideCharactersEmptyAnswersAndLineBreaksKeepTheColumns() throws {
        try store.save(SurveyDocument(records: [
            Record(["firstName": .string("美咲"), "lastName": .string("山田"), "phone": .string("03\n1234"),
                    "age": .integer(28)]),
            Record(["firstName": .string("Ana"), "age": .string("thirty")]),
            Record(["phone": .string("\u{1B}[2J")]),
        ]), as: "Mixed")
        XCTAssertEqual(try survey("list").stdout.split(separator: "\n").map(String.init), [
            "#  NAME        PHONE       AGE",
            "1  山田, 美咲  03 1234      28",
            "2  Ana                  thirty",
            "3  (no name)   \u{FFFD}[2J",
        ])
    }

    func testAnEmptyDocumentPrintsTheHeaderOnly() throws {
        try store.save(SurveyDocument(), as: "Empty")
        XCTAssertEqual(try survey("list"), Outcome(status: 0, stdout: "#  NAME  PHONE  AGE\n", stderr: ""))
        XCTAssertEqual(try survey("list", "--format", "csv").stdout, "firstName,lastName,address,phone,age,instanceID\r\n")
        XCTAssertEqual(try survey("list", "--format", "json").stdout, "[]\n")
    }

    func testWithoutDocTheRememberedDocumentElseTheFirst() throws {
        try store.save(SurveyDocument(records: [Record(["lastName": .string("A-doc")])]), as: "A")
        try store.save(SurveyDocument(records: [Record(["lastName": .string("B-doc")])]), as: "B")
        XCTAssertTrue(try survey("list").stdout.contains("A-doc"))
        var memory = SessionMemory(url: stateFile)
        memory.remember(document: "B", record: 0, in: documents)
        try memory.save()
        XCTAssertTrue(try survey("list").stdout.contains("B-doc"))
        XCTAssertTrue(try survey("list", "--doc", "a").stdout.contains("A-doc"))
        XCTAssertEqual(SessionMemory(url: stateFile).lastDocument(in: documents), "B", "list changes nothing remembered")
    }

    func testNothingIsCreatedForAMissingDocumentOrFolder() throws {
        XCTAssertEqual(try survey("list", "--doc", "Nope"),
                       Outcome(status: 1, stdout: "", stderr: "survey: “Nope” does not exist\n"))
        XCTAssertEqual(try survey("list"),
                       Outcome(status: 1, stdout: "", stderr: "survey: There are no documents in \(documents.path)\n"))
        XCTAssertEqual(try folderContents(), [])
        let missing = root.appendingPathComponent("missing")
        XCTAssertEqual(try survey(["list", "--dir", missing.path], dir: false).status, 1)
        XCTAssertFalse(FileManager.default.fileExists(atPath: missing.path))
    }

    func testAnUnreadableDocumentIsRefused() throws {
        try Data("garbage".utf8).write(to: store.url(for: "Broken"))
        let outcome = try survey("list", "--doc", "Broken")
        XCTAssertEqual(outcome.status, 1)
        XCTAssertTrue(outcome.stderr.hasPrefix("survey: Broken.plist: not a property list"), outcome.stderr)
    }

    func testUsageErrors() throws {
        let cases: [([String], String)] = [
            (["list", "--format", "plist"], "survey: unknown format “plist” for survey list (use table, csv, json)"),
            (["list", "extra"], "survey: unexpected argument “extra”: survey list [--doc NAME] [--format table|csv|json] [--raw] [--duplicates] [--complete-only]"),
            (["list", "--output", "x.csv"], "survey: --output only works with survey export and decrypt"),
            (["docs", "--format", "csv"], "survey: --format only works with survey list, export, import, deleted, diff, stats, entities, conflicts and history"),
            (["--first", "Ana"], "survey: --first only works with survey add"),
        ]
        for (arguments, message) in cases {
            let outcome = try survey(arguments)
            XCTAssertEqual(outcome.status, 2, "\(arguments)")
            XCTAssertEqual(outcome.stderr.split(separator: "\n").first.map(String.init), message, "\(arguments)")
        }
    }
}
