import Foundation
import XCTest
import SurveyValues
import SurveyForms
import SurveyStorage

/// Records are found by `instanceID` when a save merges an outside change, so an import may
/// not bring an id the document already has: the same export imported twice is refused.
final class ImportIDTests: CLITestCase {
    func testAnExportImportedBackIntoItsDocumentIsRefusedNamingTheId() throws {
        var doc = SurveyDocument(records: [Record(["firstName": .string("Ana")]), Record(["firstName": .string("Bo")])])
        doc.assignMissingInstanceIDs()
        try store.save(doc, as: "Field")
        let export = try survey("export", "--doc", "Field", "--format", "json")
        XCTAssertEqual(export.status, 0)
        let file = try scratchFile("again.json", export.stdout)
        let outcome = try survey("import", file.path, "--doc", "Field")
        XCTAssertEqual(outcome.status, 1)
        XCTAssertEqual(outcome.stderr, """
            survey: nothing imported: \(file.path) has 2 problems
            survey: record 1: instanceID: \(doc.records[0].instanceID!) is already in record 1 of “Field” (this survey was imported before)
            survey: record 2: instanceID: \(doc.records[1].instanceID!) is already in record 2 of “Field” (this survey was imported before)

            """)
        XCTAssertEqual(try store.load("Field").get().records.count, 2)
        // Into another document it is welcome, once; a file repeating an id is refused.
        XCTAssertEqual(try survey("import", file.path, "--doc", "Copy").status, 0)
        let twice = try scratchFile("twice.json", #"[{"firstName": "A", "instanceID": "uuid:x"}, {"firstName": "B", "instanceID": "uuid:x"}]"#)
        XCTAssertEqual(try survey("import", twice.path, "--doc", "Other").stderr, """
            survey: nothing imported: \(twice.path) has 1 problem
            survey: record 2: instanceID: uuid:x is already in record 1 of this file (this survey was imported before)

            """)
    }
}

/// The CSV export carries the id too, so the same refusal holds for a spreadsheet round trip.
final class ImportCSVIDTests: CLITestCase {
    func testACSVExportImportedBackIsRefusedAndIntoAnotherDocumentKeepsItsIDs() throws {
        XCTAssertEqual(try survey("add", "--doc", "Field", "--first", "Ana", "--last", "Lima").status, 0)
        XCTAssertEqual(try survey("add", "--doc", "Field", "--first", "Bo", "--last", "Ng").status, 0)
        let ids = try store.load("Field").get().records.map(\.instanceID)
        let file = try scratchFile("field.csv")
        XCTAssertEqual(try survey("export", "--doc", "Field", "--output", file.path).status, 0)
        let outcome = try survey("import", file.path, "--doc", "Field")
        XCTAssertEqual(outcome.status, 1)
        XCTAssertEqual(outcome.stderr, """
            survey: nothing imported: \(file.path) has 2 problems
            survey: row 2: instanceID: \(ids[0]!) is already in record 1 of “Field” (this survey was imported before)
            survey: row 3: instanceID: \(ids[1]!) is already in record 2 of “Field” (this survey was imported before)

            """)
        XCTAssertEqual(try survey("import", file.path, "--doc", "Copy").status, 0)
        XCTAssertEqual(try store.load("Copy").get(), try store.load("Field").get())
    }
}

final class ImportIDShapeTests: CLITestCase {
    func testAnIDThatIsNotTextIsRefusedAndAnEmptyOneMeansNone() throws {
        let numeric = try scratchFile("numeric.json", #"[{"firstName": "A", "instanceID": 5}]"#)
        let outcome = try survey("import", numeric.path, "--doc", "Field")
        XCTAssertEqual(outcome.status, 1)
        XCTAssertEqual(outcome.stderr.split(separator: "\n").last.map(String.init),
                       "survey: record 1: instanceID 5: instanceID must be text (such as uuid:…), or left out")
        XCTAssertEqual(try folderContents(), [])
        let empty = try scratchFile("empty.json", #"[{"firstName": "A", "instanceID": ""}]"#)
        XCTAssertEqual(try survey("import", empty.path, "--doc", "Field").status, 0)
        XCTAssertEqual(try recordsCheckingIDs("Field").map(\.listTitle), ["A"])
    }
}
