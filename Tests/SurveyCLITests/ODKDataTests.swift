import Foundation
import XCTest
import SurveyValues
import SurveyForms
import SurveyStorage

/// `survey export --format odk-csv|odk-xml` and `survey import` of ODK's CSV set, on a
/// document with the household roster form (nested repeats).
final class ODKDataTests: CLITestCase {
    static var rosterForm: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("SurveyModelTests/Fixtures/forms/roster.csv")
    }

    static let households = """
        [{"hh_id": "H1", "household_size": 2, "visit_time": "09:30",
          "member": [{"name": "Ana", "age": 34, "job": [{"job_title": "Nurse"}, {"job_title": "Farmer"}]}, {"name": "Bo", "age": 7}]},
         {"hh_id": "H2", "household_size": 1}]
        """

    func makeRoster(_ name: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let made = try survey("docs", "new", name, "--form", Self.rosterForm.path)
        XCTAssertEqual(made.status, 0, made.stderr, file: file, line: line)
    }

    func testTheSetExportedImportsIntoAnEmptyDocumentAsTheSameSurveys() throws {
        try makeRoster("Village")
        let input = try scratchFile("households.json", Self.households)
        XCTAssertEqual(try survey("import", input.path, "--doc", "Village").status, 0)
        let folder = root.appendingPathComponent("set")
        let exported = try survey("export", "--doc", "Village", "--format", "odk-csv", "--output", folder.path, "--group-names")
        XCTAssertEqual(exported.stdout, "Exported 2 surveys from “Village” to \(folder.path)\n", exported.stderr)
        XCTAssertEqual(try folderContents(folder), ["roster_hh-job.csv", "roster_hh-member.csv", "roster_hh.csv"])
        try makeRoster("Copy")
        let imported = try survey("import", folder.path, "--doc", "Copy")
        XCTAssertEqual(imported.stdout, "Imported 2 surveys into “Copy”\n", imported.stderr)
        XCTAssertFalse(imported.stderr.contains("note:"), imported.stderr)
        let original = try store.load("Village").get().records
        XCTAssertEqual(try store.load("Copy").get().records, original)
        XCTAssertEqual(Array(original)[0].instances(of: "job", in: [.init(name: "member", index: 0)]).count, 2)
        // The main table alone, named: the repeat tables beside it are taken with --format odk-csv.
        try makeRoster("Third")
        XCTAssertEqual(try survey("import", folder.appendingPathComponent("roster_hh.csv").path, "--doc", "Third",
                                  "--format", "odk-csv").status, 0)
        XCTAssertEqual(try store.load("Third").get().records, original)
    }

    /// A set with a repeat's table left behind is refused, naming the file, and nothing is
    /// imported (it stored the surveys with no roster at all).
    func testASetWithoutARepeatsTableIsRefusedNamingIt() throws {
        try makeRoster("Village")
        let input = try scratchFile("households.json", Self.households)
        XCTAssertEqual(try survey("import", input.path, "--doc", "Village").status, 0)
        let folder = root.appendingPathComponent("set")
        XCTAssertEqual(try survey("export", "--doc", "Village", "--format", "odk-csv", "--output", folder.path).status, 0)
        try FileManager.default.removeItem(at: folder.appendingPathComponent("roster_hh-member.csv"))
        try makeRoster("Copy")
        let refused = try survey("import", folder.path, "--doc", "Copy")
        XCTAssertEqual(refused.status, 1)
        XCTAssertTrue(refused.stderr.hasPrefix("survey: roster_hh-member.csv, the table of the repeat “member”, is not beside roster_hh.csv"),
                      refused.stderr)
        XCTAssertEqual(try store.load("Copy").get().records.count, 0)
    }

    func testSubmissionsAreWrittenInBriefcasesLayoutAndNotOverwritten() throws {
        try makeRoster("Village")
        let input = try scratchFile("households.json", Self.households)
        XCTAssertEqual(try survey("import", input.path, "--doc", "Village").status, 0)
        let ids = try store.load("Village").get().records.compactMap(\.instanceID)
        let folder = root.appendingPathComponent("briefcase")
        XCTAssertEqual(try survey("export", "--doc", "Village", "--format", "odk-xml", "--output", folder.path).status, 0)
        let instances = folder.appendingPathComponent("ODK Briefcase Storage/forms/Household roster/instances")
        XCTAssertEqual(try folderContents(instances), ids.map { $0.replacingOccurrences(of: ":", with: "") }.sorted())
        let xml = try String(contentsOf: instances.appendingPathComponent(ids[0].replacingOccurrences(of: ":", with: ""))
            .appendingPathComponent("submission.xml"), encoding: .utf8)
        XCTAssertTrue(xml.contains("<data id=\"roster_hh\" version=\"2024120101\"><hh_id>H1</hh_id>"), xml)
        XCTAssertTrue(xml.contains("<member><name>Ana</name><age>34</age><job><job_title>Nurse</job_title></job>"), xml)
        let again = try survey("export", "--doc", "Village", "--format", "odk-xml", "--output", folder.path)
        XCTAssertEqual(again.status, 1)
        XCTAssertTrue(again.stderr.contains("already exists (add --force to replace it)"), again.stderr)
        XCTAssertEqual(try survey("export", "--doc", "Village", "--format", "odk-xml", "--output", folder.path, "--force").status, 0)
    }

    func testAFolderFormatNeedsAnOutputFolderAndGroupNamesNeedTheSet() throws {
        try makeRoster("Village")
        let bare = try survey("export", "--doc", "Village", "--format", "odk-csv")
        XCTAssertEqual(bare.status, 2)
        XCTAssertTrue(bare.stderr.hasPrefix("survey: --format odk-csv writes a folder of files: add --output FOLDER\nusage:"), bare.stderr)
        XCTAssertEqual(try survey("export", "--doc", "Village", "--group-names").status, 2)
    }

    /// A CSV from ODK Central or KoboToolbox: its own columns kept quietly, a column that
    /// names no question named on stderr, ODK's time read as the time keyed.
    func testAColumnThatNamesNoQuestionIsNamed() throws {
        try makeRoster("Village")
        let input = try scratchFile("kobo.csv", "hh_id;household_size;visit/visit_time;meta/instanceID;_uuid;hh_sise\r\n"
            + "H7;3;09:30:00.000+03:00;uuid:k7;k7;4\r\n")
        let imported = try survey("import", input.path, "--doc", "Village")
        XCTAssertEqual(imported.status, 0, imported.stderr)
        XCTAssertTrue(imported.stderr.contains("survey: note: 1 column named no question of the form and is kept as text: hh_sise\n"),
                      imported.stderr)
        let record = try XCTUnwrap(try store.load("Village").get().records.first)
        XCTAssertEqual(record["visit_time"], .string("09:30:00"))
        XCTAssertEqual(record.instanceID, "uuid:k7")
    }
}
