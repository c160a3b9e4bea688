import Foundation
import XCTest
import SurveyValues
import SurveyForms
import SurveyStorage

/// What an export writes cannot hurt whoever receives it (issue 27): a name from a form or a
/// survey is never a path (every file lands inside the folder asked for), and a CSV cell a
/// spreadsheet would run as a formula is written as text, coming back from `survey import`
/// as it was keyed.
final class ExportSafetyTests: CLITestCase {
    /// A form whose id and title climb out of any folder, and whose repeat's name holds the
    /// one character beyond letters, digits, `_-.` an XLSForm name may (a prefix's colon).
    static let climbingForm = """
        survey,,,,
        ,type,name,label,required
        ,text,hh_id,Household ID,yes
        ,begin repeat,h:member,Member,
        ,text,name,Name,
        ,end repeat,,,
        settings,,,,
        ,form_title,form_id,version,
        ,../../../victim,../../../victim,1,

        """

    func testNamesFromTheFormAndTheSurveysStayInsideTheOutputFolder() throws {
        let form = try scratchFile("climbing.csv", Self.climbingForm)
        XCTAssertEqual(try survey("docs", "new", "Evil", "--form", form.path).status, 0)
        let input = try scratchFile("evil.json", #"""
            [{"hh_id": "H1", "h:member": [{"name": "Ana"}]},
             {"hh_id": "H2", "instanceID": "uuid:a/b"}, {"hh_id": "H3", "instanceID": "uuid:ab"},
             {"hh_id": "H4", "instanceID": "uuid:../../../../../escaped"}]
            """#)
        XCTAssertEqual(try survey("import", input.path, "--doc", "Evil").status, 0)
        let above = root.appendingPathComponent("a")
        let out = above.appendingPathComponent("b/c")
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        // What a form id of ../../../victim reached before, from a/b/c/set.
        let victim = above.appendingPathComponent("victim.csv")
        try Data("keep".utf8).write(to: victim)

        let set = out.appendingPathComponent("set")
        for force in [false, true] {
            let exported = try survey(["export", "--doc", "Evil", "--format", "odk-csv", "--output", set.path] + (force ? ["--force"] : []))
            XCTAssertEqual(exported.status, 0, exported.stderr)
        }
        XCTAssertEqual(try folderContents(set), ["___.._.._victim-h_member.csv", "___.._.._victim.csv"])
        XCTAssertEqual(try String(contentsOf: victim, encoding: .utf8), "keep")

        let briefcase = out.appendingPathComponent("briefcase")
        XCTAssertEqual(try survey("export", "--doc", "Evil", "--format", "odk-xml", "--output", briefcase.path).status, 0)
        let instances = briefcase.appendingPathComponent("ODK Briefcase Storage/forms/______victim/instances")
        let ids = try store.load("Evil").get().records.compactMap(\.instanceID)
        XCTAssertEqual(try folderContents(instances), [ids[0].replacingOccurrences(of: ":", with: ""), "uuid..........escaped",
                                                        "uuidab", "uuidab-2"].sorted(), "two ids that make one name keep a folder each")
        // Nothing anywhere but inside the two output folders, the victim and the input.
        let everything = try FileManager.default.subpathsOfDirectory(atPath: above.path).filter {
            var folder: ObjCBool = false
            return FileManager.default.fileExists(atPath: above.appendingPathComponent($0).path, isDirectory: &folder) && !folder.boolValue
        }
        XCTAssertTrue(everything.allSatisfy { $0 == "victim.csv" || $0.hasPrefix("b/c/set/") || $0.hasPrefix("b/c/briefcase/") },
                      "\(everything)")
    }

    /// A link inside the output folder is never followed out of it, even with --force.
    func testALinkInsideTheOutputFolderIsNotFollowed() throws {
        XCTAssertEqual(try survey("docs", "new", "Village", "--form", ODKDataTests.rosterForm.path).status, 0)
        let input = try scratchFile("households.json", ODKDataTests.households)
        XCTAssertEqual(try survey("import", input.path, "--doc", "Village").status, 0)
        let outside = root.appendingPathComponent("outside.txt")
        try Data("keep".utf8).write(to: outside)
        let set = root.appendingPathComponent("set")
        try FileManager.default.createDirectory(at: set, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: set.appendingPathComponent("roster_hh.csv").path, withDestinationPath: outside.path)
        let refused = try survey("export", "--doc", "Village", "--format", "odk-csv", "--output", set.path, "--force")
        XCTAssertEqual(refused.status, 1)
        XCTAssertEqual(refused.stderr, "survey: \(set.path)/roster_hh.csv is a link: survey replaces only files inside \(set.path); nothing was written\n")
        XCTAssertEqual(try String(contentsOf: outside, encoding: .utf8), "keep")
        XCTAssertEqual(try folderContents(set), ["roster_hh.csv"], "no table written beside it")

        let briefcase = root.appendingPathComponent("briefcase")
        try FileManager.default.createDirectory(at: briefcase, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: briefcase.appendingPathComponent("ODK Briefcase Storage").path,
                                                   withDestinationPath: root.appendingPathComponent("elsewhere").path)
        let linked = try survey("export", "--doc", "Village", "--format", "odk-xml", "--output", briefcase.path, "--force")
        XCTAssertEqual(linked.status, 1)
        XCTAssertTrue(linked.stderr.contains("ODK Briefcase Storage is a link: survey writes only inside"), linked.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: root.appendingPathComponent("elsewhere").path))
    }

    /// Answers a spreadsheet would run (`=`, `+`, `-`, `@`, a tab or CR first) are written
    /// with `'` first in both CSVs (Python's csv reads the cells as written), numbers are not,
    /// and `survey import` brings every answer back as keyed; `--raw` writes them as they are.
    func testFormulasAreWrittenAsTextAndImportBackAsKeyed() throws {
        let form = try scratchFile("formulas.csv", """
            survey,,,
            ,type,name,label
            ,text,note_text,Note
            ,decimal,change,Change
            ,integer,count,Count
            ,begin repeat,member,Member
            ,text,name,Name
            ,end repeat,,
            settings,,,
            ,form_id,version,
            ,formulas,1,

            """)
        XCTAssertEqual(try survey("docs", "new", "Sheet", "--form", form.path).status, 0)
        // (A tab or CR first cannot be keyed: text answers are stored trimmed. `SpreadsheetFormulaTests`.)
        let notes = ["=HYPERLINK(\"http://x\",\"y\")", "+1+1", "-2-2", "@SUM(A1)", "'=kept quote", "plain", "- a list"]
        let objects: [[String: Any]] = notes.enumerated().map { i, note in ["note_text": note, "change": -3.5, "count": -(i + 1)] }
        let input = root.appendingPathComponent("notes.json")
        try JSONSerialization.data(withJSONObject: objects).write(to: input)
        let imported = try survey("import", input.path, "--doc", "Sheet")
        XCTAssertEqual(imported.status, 0, imported.stderr)
        let original = Array(try store.load("Sheet").get().records)

        let csv = root.appendingPathComponent("sheet.csv")
        XCTAssertEqual(try survey("export", "--doc", "Sheet", "--output", csv.path).status, 0)
        let cells = try python("import csv, sys, json; print(json.dumps([r[:3] for r in csv.reader(open(sys.argv[1], newline=''))]))",
                               [csv.path])
        let rows = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(cells.utf8)) as? [[String]])
        XCTAssertEqual(rows.dropFirst().map { $0[0] }, notes.map { $0 == "plain" ? $0 : "'" + $0 })
        XCTAssertEqual(rows[1][1], "-3.5", "a number stays a number")
        XCTAssertEqual(rows[1][2], "-1")
        XCTAssertEqual(try survey("docs", "new", "Back", "--form", form.path).status, 0)
        let back = try survey("import", csv.path, "--doc", "Back")
        XCTAssertEqual(back.status, 0, back.stderr)
        XCTAssertEqual(Array(try store.load("Back").get().records), original)

        // The CSV set too, a member's answer and the main table's.
        let member = try scratchFile("member.json", #"[{"note_text": "ok", "member": [{"name": "=cmd|' /C calc'!A0"}]}]"#)
        XCTAssertEqual(try survey("import", member.path, "--doc", "Sheet").status, 0)
        let all = Array(try store.load("Sheet").get().records)
        let set = root.appendingPathComponent("set")
        XCTAssertEqual(try survey("export", "--doc", "Sheet", "--format", "odk-csv", "--output", set.path).status, 0)
        let members = try String(contentsOf: set.appendingPathComponent("formulas-member.csv"), encoding: .utf8)
        XCTAssertTrue(members.contains("\r\n'=cmd|' /C calc'!A0,"), members)
        XCTAssertEqual(try survey("docs", "new", "Set", "--form", form.path).status, 0)
        let setBack = try survey("import", set.path, "--doc", "Set")
        XCTAssertEqual(setBack.status, 0, setBack.stderr)
        XCTAssertEqual(Array(try store.load("Set").get().records), all)

        // --raw: as keyed, for a script.
        let raw = try survey("export", "--doc", "Sheet", "--format", "csv", "--raw")
        XCTAssertEqual(raw.status, 1, "the roster has no place in the plain CSV, raw or not")
        let rawList = try survey("export", "--doc", "Back", "--raw")
        XCTAssertEqual(rawList.status, 0, rawList.stderr)
        XCTAssertTrue(rawList.stdout.contains("\r\n\"=HYPERLINK(\"\"http://x\"\",\"\"y\"\")\",-3.5,-1,"), rawList.stdout)
        XCTAssertEqual(try survey("export", "--doc", "Back", "--format", "json", "--raw").status, 2, "--raw is for CSV")
    }
}
