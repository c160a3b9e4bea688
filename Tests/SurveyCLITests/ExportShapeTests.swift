import Foundation
import XCTest
import SurveyValues
import SurveyForms
import SurveyStorage

/// Every export keeps every answer in a shape its reader takes back (issue 27): a roster the
/// current form version no longer has is its own table in ODK's CSV set and its own
/// elements in a submission; the plain CSV, which has no place for a roster, refuses and
/// says which format has one.
final class ExportShapeTests: CLITestCase {
    /// The household roster form without its repeats: version 2, which dropped the members.
    static let withoutRoster = """
        survey,,,,,,
        ,type,name,label,required,constraint,hint
        ,text,hh_id,Household ID,yes,,
        ,integer,household_size,People living here,yes,. > 0,
        ,begin group,visit,Visit,,,
        ,time,visit_time,Time of visit,,,
        ,end group,,,,,
        ,note,thanks,Thank you,,,
        settings,,,,,,
        ,form_title,form_id,version,,,
        ,Household roster,roster_hh,2024120102,,,

        """

    /// "Village": two households keyed with version 1 (members, one with jobs), then
    /// version 2 attached, which has no roster.
    func makeVillageWithAnOldRoster() throws -> [Record] {
        XCTAssertEqual(try survey("docs", "new", "Village", "--form", ODKDataTests.rosterForm.path).status, 0)
        let input = try scratchFile("households.json", ODKDataTests.households)
        XCTAssertEqual(try survey("import", input.path, "--doc", "Village").status, 0)
        let v2 = try scratchFile("v2.csv", Self.withoutRoster)
        let attached = try survey("form", "attach", v2.path, "--doc", "Village")
        XCTAssertEqual(attached.status, 0, attached.stderr)
        let records = Array(try store.load("Village").get().records)
        XCTAssertEqual(try store.questionnaire(for: "Village").answersNotAsked(in: records[0], clock: .wall), ["member"],
                       "the roster is an answer this version does not ask")
        return records
    }

    /// Each value as text, rosters kept: what a CSV carries of answers no question types.
    static func asText(_ value: PropertyValue) -> PropertyValue {
        switch value {
        case .array(let items): return .array(items.map(asText))
        case .dictionary(let entries): return .dictionary(entries.mapValues(asText))
        default: return .string(FieldSpec.describe(value))
        }
    }

    func testARosterTheFormNoLongerHasLeavesInEveryFormatThatCanHoldIt() throws {
        let original = try makeVillageWithAnOldRoster()
        let v2 = try scratchFile("v2.csv", Self.withoutRoster)

        // The plain CSV has no place for it: refused, naming it and the formats that have one.
        let csvFile = root.appendingPathComponent("village.csv")
        for arguments in [["export", "--doc", "Village", "--output", csvFile.path], ["export", "--doc", "Village"],
                          ["list", "--doc", "Village", "--format", "csv"]] {
            let csv = try survey(arguments)
            XCTAssertEqual(csv.status, 1, arguments.joined(separator: " "))
            XCTAssertEqual(csv.stdout, "")
            XCTAssertEqual(csv.stderr, "survey: The plain CSV has no place for the roster “member” (1 survey holds members): "
                + "export it with --format odk-csv --output FOLDER (a table per roster, joined by KEY and PARENT_KEY) "
                + "or --format json; nothing was written\n")
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: csvFile.path))

        // JSON and the property list carry it whole.
        for format in ["json", "plist"] {
            let file = root.appendingPathComponent("village.\(format)")
            XCTAssertEqual(try survey("export", "--doc", "Village", "--format", format, "--output", file.path).status, 0)
            XCTAssertEqual(try survey("docs", "new", "Back-\(format)", "--form", v2.path).status, 0)
            let back = try survey("import", file.path, "--doc", "Back-\(format)")
            XCTAssertEqual(back.status, 0, back.stderr)
            XCTAssertEqual(Array(try store.load("Back-\(format)").get().records), original, format)
        }

        // ODK's CSV set: its own tables, named as ODK names a repeat's, joined by the keys.
        let set = root.appendingPathComponent("set")
        XCTAssertEqual(try survey("export", "--doc", "Village", "--format", "odk-csv", "--output", set.path).status, 0)
        XCTAssertEqual(try folderContents(set), ["roster_hh-job.csv", "roster_hh-member.csv", "roster_hh.csv"])
        let id = try XCTUnwrap(original[0].instanceID)
        let members = try CSV.rows(String(contentsOf: set.appendingPathComponent("roster_hh-member.csv"), encoding: .utf8))
        XCTAssertEqual(members[0], ["age", "SET-OF-job", "name", "PARENT_KEY", "KEY", "SET-OF-member"])
        XCTAssertEqual(members[1], ["34", "\(id)/member[1]/job", "Ana", id, "\(id)/member[1]", "\(id)/member"])
        let main = try CSV.rows(String(contentsOf: set.appendingPathComponent("roster_hh.csv"), encoding: .utf8))
        XCTAssertEqual(main[0].last, "SET-OF-member")
        XCTAssertEqual(try survey("docs", "new", "Back-set", "--form", v2.path).status, 0)
        let back = try survey("import", set.path, "--doc", "Back-set")
        XCTAssertEqual(back.status, 0, back.stderr)
        XCTAssertTrue(back.stderr.contains("roster_hh-member.csv: age"), "named as kept text: \(back.stderr)")
        // No question types them now: the answers come back as the text they were written as.
        let expected = original.map { record in
            Record(record.values.mapValues { $0 == record["member"] ? Self.asText($0) : $0 })
        }
        XCTAssertEqual(Array(try store.load("Back-set").get().records), expected)

        // A submission: the survey's version is version 1's, whose form has the roster.
        let briefcase = root.appendingPathComponent("briefcase")
        XCTAssertEqual(try survey("export", "--doc", "Village", "--format", "odk-xml", "--output", briefcase.path).status, 0)
        let xml = try String(contentsOf: briefcase.appendingPathComponent(
            "ODK Briefcase Storage/forms/Household roster/instances/\(id.replacingOccurrences(of: ":", with: ""))/submission.xml"),
            encoding: .utf8)
        XCTAssertTrue(xml.contains("<data id=\"roster_hh\" version=\"2024120101\">"), xml)
        XCTAssertTrue(xml.contains("<thanks/><member><age>34</age><job><job_title>Nurse</job_title></job>"
            + "<job><job_title>Farmer</job_title></job><name>Ana</name></member><member><age>7</age><name>Bo</name></member>"
            + "<meta>"), xml)
    }

    /// A roster the form has is refused by the plain CSV too: its `(list of 2 items)` came
    /// back from import as that text, into the roster's key.
    func testTheFormsOwnRosterIsRefusedByThePlainCSVNotWrittenAsText() throws {
        XCTAssertEqual(try survey("docs", "new", "Village", "--form", ODKDataTests.rosterForm.path).status, 0)
        let input = try scratchFile("households.json", ODKDataTests.households)
        XCTAssertEqual(try survey("import", input.path, "--doc", "Village").status, 0)
        let csv = try survey("export", "--doc", "Village", "--format", "csv")
        XCTAssertEqual(csv.status, 1)
        XCTAssertTrue(csv.stderr.contains("has no place for the roster “member”"), csv.stderr)
        XCTAssertFalse(csv.stdout.contains("(list of"), csv.stdout)
        // Deleted surveys in CSV too.
        let id = try XCTUnwrap(try store.load("Village").get().records.first?.instanceID)
        XCTAssertEqual(try survey("delete", id, "--doc", "Village").status, 0)
        let deleted = try survey("deleted", "--doc", "Village", "--format", "csv")
        XCTAssertEqual(deleted.status, 1)
        XCTAssertTrue(deleted.stderr.contains("has no place for the roster “member”"), deleted.stderr)
        // A document whose surveys hold no members exports as before.
        XCTAssertEqual(try survey("docs", "new", "Empty", "--form", ODKDataTests.rosterForm.path).status, 0)
        let flat = try scratchFile("flat.json", #"[{"hh_id": "H9", "household_size": 1}]"#)
        XCTAssertEqual(try survey("import", flat.path, "--doc", "Empty").status, 0)
        let empty = try survey("export", "--doc", "Empty", "--format", "csv")
        XCTAssertEqual(empty.status, 0, empty.stderr)
        XCTAssertTrue(empty.stdout.hasPrefix("hh_id,household_size,visit_time,member,instanceID"), empty.stdout)
    }

    /// A list that is no roster (a plist's `tags`) has no place in any CSV cell, nor in an
    /// element: refused by the CSV set and the submission, pointing to json.
    func testAListThatIsNoRosterIsRefusedByTheCSVSetAndTheSubmission() throws {
        XCTAssertEqual(try survey("docs", "new", "Village", "--form", ODKDataTests.rosterForm.path).status, 0)
        let input = try scratchFile("tagged.json", #"[{"hh_id": "H1", "household_size": 1, "tags": ["a", "b"]}]"#)
        XCTAssertEqual(try survey("import", input.path, "--doc", "Village").status, 0)
        for format in ["odk-csv", "odk-xml"] {
            let out = root.appendingPathComponent(format)
            let refused = try survey("export", "--doc", "Village", "--format", format, "--output", out.path)
            XCTAssertEqual(refused.status, 1, format)
            XCTAssertTrue(refused.stderr.contains("has no place for “tags”, a list or dictionary"), refused.stderr)
            XCTAssertTrue(refused.stderr.contains("--format json"), refused.stderr)
            XCTAssertFalse(FileManager.default.fileExists(atPath: out.path), "nothing written")
        }
    }
}
