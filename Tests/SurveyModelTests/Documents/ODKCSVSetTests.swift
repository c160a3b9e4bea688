import Foundation
import XCTest
import SurveyTestSupport
@testable import SurveyValues
@testable import SurveyForms
@testable import SurveyStorage

/// ODK's CSV set (Briefcase's documented layout, Central's file names): a main table and one
/// table per repeat joined by KEY / PARENT_KEY, read back into the same surveys; and the
/// CSVs ODK Central and KoboToolbox export.
final class ODKCSVSetTests: XCTestCase {
    static var rosterURL: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/forms/roster.csv")
    }

    static func roster() throws -> Questionnaire {
        try FormTestSupport.questionnaire(String(contentsOf: rosterURL, encoding: .utf8))
    }

    /// Two households as the form stores them: Ana has two jobs, the second household no roster.
    static let records = [
        Record(["hh_id": .string("H1"), "household_size": .integer(2), "visit_time": .string("09:30"),
                "member": .array([
                    .dictionary(["name": .string("Ana"), "age": .integer(34),
                                 "job": .array([.dictionary(["job_title": .string("Nurse")]),
                                                .dictionary(["job_title": .string("Farmer, part time")])])]),
                    .dictionary(["name": .string("Bo"), "age": .integer(7)]),
                ]),
                "instanceID": .string("uuid:h1"), "formID": .string("roster_hh"), "formVersion": .string("2024120101")]),
        Record(["hh_id": .string("H2"), "household_size": .integer(1),
                "instanceID": .string("uuid:h2"), "formID": .string("roster_hh"), "formVersion": .string("2024120101")]),
    ]

    func files(groupNames: Bool) throws -> [String: String] {
        let doc = SurveyDocument(records: Self.records)
        let files = try doc.odkCSVFiles(questionnaire: try Self.roster(), formID: "roster_hh", groupNames: groupNames)
        return Dictionary(uniqueKeysWithValues: files.map { ($0.name, $0.text) })
    }

    /// The layout of Briefcase's `export-format.md`: SubmissionDate, values (SET-OF where a
    /// repeat is), KEY; a repeat's values, PARENT_KEY, KEY, SET-OF-name; keys `uuid:…/member[2]`.
    func testTheSetHasBriefcasesLayoutWithGroupNames() throws {
        let files = try files(groupNames: true)
        XCTAssertEqual(files.keys.sorted(), ["roster_hh-job.csv", "roster_hh-member.csv", "roster_hh.csv"])
        XCTAssertEqual(files["roster_hh.csv"], """
            SubmissionDate,hh_id,household_size,visit-visit_time,SET-OF-member,meta-instanceID,KEY,formID,formVersion\r
            ,H1,2,09:30,uuid:h1/member,uuid:h1,uuid:h1,roster_hh,2024120101\r
            ,H2,1,,uuid:h2/member,uuid:h2,uuid:h2,roster_hh,2024120101\r

            """)
        XCTAssertEqual(files["roster_hh-member.csv"], """
            name,age,SET-OF-job,PARENT_KEY,KEY,SET-OF-member\r
            Ana,34,uuid:h1/member[1]/job,uuid:h1,uuid:h1/member[1],uuid:h1/member\r
            Bo,7,uuid:h1/member[2]/job,uuid:h1,uuid:h1/member[2],uuid:h1/member\r

            """)
        XCTAssertEqual(files["roster_hh-job.csv"], """
            job_title,PARENT_KEY,KEY,SET-OF-job\r
            Nurse,uuid:h1/member[1],uuid:h1/member[1]/job[1],uuid:h1/member[1]/job\r
            "Farmer, part time",uuid:h1/member[1],uuid:h1/member[1]/job[2],uuid:h1/member[1]/job\r

            """)
    }

    /// Without group names (Central's "Remove group names"), a question is its name alone.
    func testWithoutGroupNamesAColumnIsTheQuestionsName() throws {
        let main = try XCTUnwrap(try files(groupNames: false)["roster_hh.csv"])
        XCTAssertTrue(main.hasPrefix("SubmissionDate,hh_id,household_size,visit_time,SET-OF-member,instanceID,KEY,formID,formVersion\r\n"), main)
    }

    func testTheSetJoinsBackIntoTheSameSurveys() throws {
        let q = try Self.roster()
        for groupNames in [true, false] {
            let files = try files(groupNames: groupNames)
            let read = try SurveyDocument.odkSetImport(
                main: ("roster_hh.csv", try XCTUnwrap(files["roster_hh.csv"])),
                repeats: [("roster_hh-job.csv", try XCTUnwrap(files["roster_hh-job.csv"])),
                          ("roster_hh-member.csv", try XCTUnwrap(files["roster_hh-member.csv"]))],
                questionnaire: q)
            XCTAssertEqual(read.unmatched, [])
            XCTAssertEqual(read.rows.map(\.row), [2, 3])
            let check = q.checkImport(read.rows.map(\.record), clock: FormTestSupport.clock)
            XCTAssertEqual(check.problems.map(\.description), [])
            XCTAssertEqual(check.records, Self.records, "group names \(groupNames)")
        }
    }

    /// ODK Central's own export: its metadata columns, keys through groups, ODK's time
    /// format, no SET-OF columns; and a member's wrong age refused by its path.
    func testCentralsExportIsRead() throws {
        let q = try Self.roster()
        let main = """
            SubmissionDate,hh_id,household_size,visit-visit_time,meta-instanceID,KEY,SubmitterID,SubmitterName,FormVersion,hh_idd\r
            2024-12-01T10:00:00.000Z,H9,2,09:30:00.000+03:00,uuid:c9,uuid:c9,5,Ana,2024120101,\r

            """
        let members = """
            name,age,PARENT_KEY,KEY\r
            Cy,41,uuid:c9,uuid:c9/member[1]\r
            Di,old,uuid:c9,uuid:c9/member[2]\r

            """
        // Central writes a table for every repeat, with no rows when nobody has a job.
        let jobs = "job_title,PARENT_KEY,KEY\r\n"
        let read = try SurveyDocument.odkSetImport(main: ("roster_hh.csv", main),
                                                   repeats: [("roster_hh-member.csv", members), ("roster_hh-job.csv", jobs)],
                                                   questionnaire: q)
        XCTAssertEqual(read.unmatched, ["roster_hh.csv: hh_idd"], "Central's own columns are kept quietly")
        XCTAssertEqual(read.rows.first?.record["SubmitterName"], .string("Ana"))
        let record = try XCTUnwrap(read.rows.first?.record)
        XCTAssertEqual(record["visit_time"], .string("09:30:00"), "the time of day keyed")
        XCTAssertEqual(record["formVersion"], .string("2024120101"))
        XCTAssertEqual(record.instanceID, "uuid:c9")
        XCTAssertEqual(record.instances(of: "member").map { $0["name"] }, [.string("Cy"), .string("Di")])
        XCTAssertEqual(q.checkImport([record], places: [.row(2)], clock: FormTestSupport.clock).problems.map(\.description),
                       ["row 2: member[2]/age \"old\": Age must be a whole number"])
    }

    /// KoboToolbox's CSV: semicolons, `group/question` headers, `meta/instanceID`, its own columns.
    func testKoboToolboxsCSVIsRead() throws {
        let q = try Self.roster()
        let text = "start;hh_id;household_size;visit/visit_time;meta/instanceID;_id;_uuid;__version__\r\n"
            + ";H5;3;14:05:00.000-05:00;uuid:k5;17;k5;vAbc\r\n"
        let read = try SurveyDocument.csvImport(text, questionnaire: q)
        XCTAssertEqual(read.unmatched, ["start"], "a column of no question of this form; Kobo's own are known")
        let record = try XCTUnwrap(read.rows.first?.record)
        XCTAssertEqual(record["visit_time"], .string("14:05:00"))
        XCTAssertEqual(record.instanceID, "uuid:k5")
        XCTAssertEqual(record["__version__"], .string("vAbc"), "kept, not lost")
        XCTAssertEqual(q.checkImport([record], clock: FormTestSupport.clock).problems.map(\.description), [])
    }

    func testARowWhoseParentIsMissingIsRefusedNamingIt() throws {
        let q = try Self.roster()
        let main = "hh_id,household_size,KEY\r\nH1,1,uuid:a\r\n"
        let members = "name,PARENT_KEY,KEY\r\nAna,uuid:a,uuid:a/member[1]\r\nBo,uuid:zz,uuid:zz/member[1]\r\n"
        let jobs = "job_title,PARENT_KEY,KEY\r\n"
        XCTAssertThrowsError(try SurveyDocument.odkSetImport(main: ("m.csv", main), repeats: [("m-member.csv", members), ("m-job.csv", jobs)],
                                                             questionnaire: q)) { error in
            XCTAssertEqual((error as? DocumentError)?.message,
                           "m-member.csv: row 3: its PARENT_KEY “uuid:zz” is the KEY of no row of m.csv")
        }
    }

    /// A table of a roster the form does not have (an older version's, as survey's export
    /// writes it) is that roster, its cells kept as text under their headers and named, as
    /// a main-table column that names no question is.
    func testATableOfARosterTheFormLacksIsKeptAsText() throws {
        let q = try Self.roster()
        let main = "hh_id,household_size,KEY\r\nH1,1,uuid:a\r\n"
        let pets = "kind,legs,PARENT_KEY,KEY,SET-OF-pets\r\ndog,4,uuid:a,uuid:a/pets[1],uuid:a/pets\r\n"
            + "hen,2,uuid:a,uuid:a/pets[2],uuid:a/pets\r\n"
        // The form's own roster has its (empty) table, as every ODK export writes one.
        let read = try SurveyDocument.odkSetImport(main: ("m.csv", main), repeats: [("m-pets.csv", pets), ("m-member.csv", "PARENT_KEY,KEY\r\n"), ("m-job.csv", "PARENT_KEY,KEY\r\n")],
                                                   questionnaire: q)
        XCTAssertEqual(read.rows.first?.record["pets"], .array([.dictionary(["kind": .string("dog"), "legs": .string("4")]),
                                                                 .dictionary(["kind": .string("hen"), "legs": .string("2")])]))
        XCTAssertEqual(read.unmatched, ["m-pets.csv: kind", "m-pets.csv: legs"])
    }

    private func imported(_ main: String, _ repeats: [(String, String)]) throws -> [Record] {
        try SurveyDocument.odkSetImport(main: ("m.csv", main), repeats: repeats, questionnaire: try Self.roster()).rows.map(\.record)
    }

    private func refusal(_ main: String, _ repeats: [(String, String)], file: StaticString = #filePath, line: UInt = #line) -> String? {
        do {
            _ = try imported(main, repeats)
            XCTFail("imported", file: file, line: line)
            return nil
        } catch {
            return (error as? DocumentError)?.message ?? "\(error)"
        }
    }

    /// A repeat's table left out of the set is refused, naming the file: the surveys were
    /// imported with no roster at all. A table with no rows is a table.
    func testARepeatWithoutItsTableIsRefusedNamingTheFile() throws {
        let main = "hh_id,household_size,SET-OF-member,KEY\r\nH1,1,uuid:a/member,uuid:a\r\n"
        let members = "name,PARENT_KEY,KEY\r\nAna,uuid:a,uuid:a/member[1]\r\n"
        XCTAssertEqual(refusal(main, []), "m-member.csv, the table of the repeat “member”, is not beside m.csv: ODK's exports have "
                       + "a file for every repeat, so the surveys would be imported without their member rows (import the whole folder of the export)")
        XCTAssertEqual(refusal(main, [("m-member.csv", members)])?.hasPrefix("m-job.csv, the table of the repeat “job”, is not beside m.csv"), true)
        let records = try imported(main, [("m-member.csv", members), ("m-job.csv", "job_title,PARENT_KEY,KEY\r\n")])
        XCTAssertEqual(records.first?.instances(of: "member").map { $0["name"] }, [.string("Ana")])
    }

    /// Instances take the place their KEY's `[n]` gives, whatever the rows' order (a sorted
    /// spreadsheet), nested ones too.
    func testInstancesFollowThePlaceInTheirKey() throws {
        let main = "hh_id,household_size,KEY\r\nH1,3,uuid:a\r\nH2,1,uuid:b\r\n"
        let members = "name,PARENT_KEY,KEY\r\nCy,uuid:a,uuid:a/member[3]\r\nDi,uuid:b,uuid:b/member[1]\r\n"
            + "Ana,uuid:a,uuid:a/member[1]\r\nBo,uuid:a,uuid:a/grp/member[2]\r\n"
        let jobs = "job_title,PARENT_KEY,KEY\r\nFarmer,uuid:a/member[1],uuid:a/member[1]/job[2]\r\nNurse,uuid:a/member[1],uuid:a/member[1]/job[1]\r\n"
        let records = try imported(main, [("m-job.csv", jobs), ("m-member.csv", members)])
        XCTAssertEqual(records[0].instances(of: "member").map { $0["name"] }, [.string("Ana"), .string("Bo"), .string("Cy")])
        XCTAssertEqual(records[1].instances(of: "member").map { $0["name"] }, [.string("Di")])
        guard case .array(let anasJobs)? = records[0].instances(of: "member").first?["job"] else { return XCTFail("no jobs") }
        XCTAssertEqual(anasJobs, [.dictionary(["job_title": .string("Nurse")]), .dictionary(["job_title": .string("Farmer")])])
    }

    /// A KEY whose place is not a whole number from 1, a place given twice, a KEY outside its
    /// PARENT_KEY (another survey's), a PARENT_KEY that is no row of the parent's own table:
    /// each refused with the file and the row.
    func testABadPlaceOrAParentOfAnotherSurveyIsRefusedWithTheRow() throws {
        let main = "hh_id,household_size,KEY\r\nH1,1,uuid:a\r\nH2,1,uuid:b\r\n"
        let noJobs = ("m-job.csv", "job_title,PARENT_KEY,KEY\r\n")
        func members(_ rows: String) -> (String, String) { ("m-member.csv", "name,PARENT_KEY,KEY\r\n" + rows) }
        XCTAssertEqual(refusal(main, [members("Ana,uuid:a,uuid:a/member[1]\r\nBo,uuid:a,uuid:a/member[x]\r\n"), noJobs]),
                       "m-member.csv: row 3: its KEY “uuid:a/member[x]” does not end in member[n], n the instance's place: a whole number from 1")
        for bad in ["0", "-1", "01", "1.5", "", " 2"] {
            XCTAssertEqual(refusal(main, [members("Ana,uuid:a,uuid:a/member[\(bad)]\r\n"), noJobs])?.hasPrefix("m-member.csv: row 2: its KEY"), true, bad)
        }
        XCTAssertEqual(refusal(main, [members("Ana,uuid:a,uuid:a\r\n"), noJobs])?.hasPrefix("m-member.csv: row 2: its KEY “uuid:a” is not inside"), true)
        XCTAssertEqual(refusal(main, [members("Ana,uuid:a,uuid:a/member[2]\r\nBo,uuid:a,uuid:a/g/member[2]\r\n"), noJobs]),
                       "m-member.csv: row 3: its KEY “uuid:a/g/member[2]” puts it at place 2 of “uuid:a”, as row 2's KEY does")
        XCTAssertEqual(refusal(main, [members("Ana,uuid:b,uuid:a/member[1]\r\n"), noJobs]),
                       "m-member.csv: row 2: its KEY “uuid:a/member[1]” is not inside its PARENT_KEY “uuid:b” "
                       + "(an instance's KEY is its PARENT_KEY, then /member[n])")
        // A job's parent is a member: a survey's KEY is no row of the members' table.
        XCTAssertEqual(refusal(main, [members("Ana,uuid:a,uuid:a/member[1]\r\n"),
                                      ("m-job.csv", "job_title,PARENT_KEY,KEY\r\nNurse,uuid:a,uuid:a/job[1]\r\n")]),
                       "m-job.csv: row 2: its PARENT_KEY “uuid:a” is the KEY of no row of m-member.csv")
    }

    /// JSON keeps a roster whole, nested repeats included, and reads it back as it was.
    func testJSONKeepsRostersWhole() throws {
        let q = try Self.roster()
        let text = SurveyDocument(records: Self.records).jsonText(questionnaire: q)
        XCTAssertTrue(text.contains("\"job_title\": \"Farmer, part time\""), text)
        XCTAssertEqual(try SurveyDocument.records(json: Data(text.utf8)), Self.records)
    }
}
