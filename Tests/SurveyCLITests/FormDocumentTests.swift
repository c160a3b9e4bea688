import Foundation
import XCTest
import SurveyValues
import SurveyForms
import SurveyStorage
import SurveyTestSupport

/// The record commands on a document with a designer's questionnaire (Examples/household.csv
/// attached as Household.form.csv): `add --set`, `import`, `export`, `list`, `deleted` and
/// `undelete` follow its questions, its rules and its columns.
final class FormDocumentTests: CLITestCase {
    static var householdForm: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Examples/household.csv")
    }

    static let householdQuestions = "fname, lname, age, sex, consent, region, district, village, members, children, "
        + "water, water_other, distance, has_phone, phone, location, visit_date, visit_time, rating, notes, confirm"

    /// A complete survey of the household form, as `--set` answers.
    static let ana = ["fname=Ana", "lname=Lima", "age=30", "sex=female", "consent=yes", "region=north", "district=hill",
                      "members=5", "children=2", "water=tap well", "distance=1.5", "has_phone=yes", "phone=+254 700 000",
                      "visit_date=2024-03-05", "visit_time=09:30", "confirm=ok"]
    /// A short one: no consent, so the household group is skipped.
    static let bo = ["fname=Bo", "lname=Ng", "age=40", "consent=no", "confirm=OK"]

    func makeHousehold(_ name: String = "Household", file: StaticString = #filePath, line: UInt = #line) throws {
        let made = try survey("docs", "new", name, "--form", Self.householdForm.path)
        XCTAssertEqual(made.status, 0, made.stderr, file: file, line: line)
    }

    func add(_ answers: [String], doc: String = "Household") throws -> Outcome {
        try survey(["add", "--doc", doc] + answers.flatMap { ["--set", $0] })
    }

    /// The stored records without `instanceID` (checked fresh) and without the `start` and
    /// `today` metadata (checked present), which depend on the clock.
    func storedAnswers(_ name: String = "Household", file: StaticString = #filePath, line: UInt = #line) throws -> [Record] {
        try recordsCheckingIDs(name, file: file, line: line).map { record in
            var values = record.values
            guard case .string(let start)? = values.removeValue(forKey: "start"),
                  case .string(let today)? = values.removeValue(forKey: "today") else {
                XCTFail("no start or today in \(record)", file: file, line: line)
                return record
            }
            XCTAssertNotNil(ISO8601DateFormatter().date(from: start), start, file: file, line: line)
            XCTAssertTrue(today.range(of: #"^\d{4}-\d{2}-\d{2}$"#, options: .regularExpression) != nil, today, file: file, line: line)
            return Record(values)
        }
    }

    // MARK: - add --set

    func testAddStoresEachAnswerAsODKDoesWithTheFormsIDAndVersion() throws {
        try makeHousehold()
        XCTAssertEqual(try add(Self.ana), Outcome(status: 0, stdout: "Added survey 1: Lima, Ana\n", stderr: ""))
        XCTAssertEqual(try storedAnswers(), [Record([
            "fname": .string("Ana"), "lname": .string("Lima"), "age": .integer(30), "sex": .string("female"),
            "consent": .string("yes"), "region": .string("north"), "district": .string("hill"), "members": .integer(5),
            "children": .integer(2), "adults": .string("3"), "water": .string("tap well"), "distance": .real(1.5),
            "has_phone": .string("yes"), "phone": .string("+254 700 000"), "visit_date": .string("2024-03-05"),
            "visit_time": .string("09:30"), "confirm": .string("OK"),
            "formID": .string("household"), "formVersion": .string("2026113001"),
        ])], "integer as integer, decimal as real, the rest as text; the calculation and metadata filled in")
        XCTAssertEqual(try add(Self.bo).stdout, "Added survey 2: Ng, Bo\n")
    }

    func testAddRefusesWithTheFormsOwnWordsAndWritesNothing() throws {
        try makeHousehold()
        let before = try fileBytes(store.url(for: "Household"))
        func replacing(_ name: String, with answer: String?) -> [String] {
            Self.ana.compactMap { $0.hasPrefix(name + "=") ? answer : $0 }
        }
        let cases: [([String], [String])] = [
            (replacing("age", with: "age=thirty"), ["age \"thirty\": Age must be a whole number"]),
            (replacing("age", with: "age=12"), ["age \"12\": Respondents are 15 to 120 years old"]),
            (replacing("lname", with: nil), ["lname: Ask for the respondent's last name"]),
            (replacing("region", with: nil).filter { !$0.hasPrefix("district=") }, ["region: Region is required"]),
            (replacing("has_phone", with: "has_phone=no"),
             ["phone \"+254 700 000\": Phone number is not asked in this survey (the form's relevant rule skips it): leave it empty"]),
            (replacing("district", with: "district=coast"),
             ["district \"coast\": “coast” is not one of the choices of District"]),
            (replacing("children", with: "children=9") + ["village=\u{1B}[2J"],
             ["village \"\u{FFFD}[2J\": Village cannot hold control characters",   // shown, not obeyed
              "children \"9\": Cannot be more than the people living here"]),
        ]
        for (answers, messages) in cases {
            XCTAssertEqual(try add(answers),
                           Outcome(status: 1, stdout: "", stderr: messages.map { "survey: \($0)\n" }.joined()), "\(answers)")
        }
        XCTAssertEqual(try fileBytes(store.url(for: "Household")), before, "nothing written")
    }

    func testAddRefusesANameTheFormDoesNotAskAsAUsageError() throws {
        try makeHousehold()
        let asks = "survey: “Household” asks: \(Self.householdQuestions) (survey form show lists them)\n"
        XCTAssertEqual(try add(Self.ana + ["agee=30"]), Outcome(status: 2, stdout: "", stderr:
            "survey: --set agee in “Household”: there is no question named “agee”\n" + asks))
        XCTAssertEqual(try add(Self.ana + ["adults=3"]), Outcome(status: 2, stdout: "", stderr:
            "survey: --set adults in “Household”: “adults” is a calculate row, not a question a person answers\n" + asks))
        XCTAssertEqual(try survey("add", "--doc", "Household", "--first", "Ana", "--last", "Lima"), Outcome(status: 2, stdout: "", stderr:
            "survey: --first answers firstName, which “Household” does not ask: use --set NAME=VALUE\n"
            + "survey: --last answers lastName, which “Household” does not ask: use --set NAME=VALUE\n" + asks))
        XCTAssertEqual(try store.load("Household").get().records, [])
    }

    func testSetAnswersTheOriginalFiveToo() throws {
        try store.save(SurveyDocument(), as: "Field")
        XCTAssertEqual(try add(["firstName=Ana", "lastName=Lima", "age= 42 "], doc: "Field"),
                       Outcome(status: 0, stdout: "Added survey 1: Lima, Ana\n", stderr: ""))
        XCTAssertEqual(try survey("add", "--doc", "Field", "--first", "Bo", "--set", "phone=555").stdout, "Added survey 2: Bo\n")
        XCTAssertEqual(try recordsCheckingIDs("Field"), [
            Record(["firstName": .string("Ana"), "lastName": .string("Lima"), "address": .string(""), "phone": .string(""),
                    "age": .integer(42)]),
            Record(["firstName": .string("Bo"), "lastName": .string(""), "address": .string(""), "phone": .string("555")]),
        ], "the same records as the flags give")
        XCTAssertEqual(try add(["age=abc"], doc: "Field"), Outcome(status: 1, stdout: "", stderr:
            "survey: Age must be a whole number from 0 to 150, or empty\n"))
        XCTAssertEqual(try add(["agee=3"], doc: "Field"), Outcome(status: 2, stdout: "", stderr:
            "survey: --set agee in “Field”: there is no question named “agee”\n"
            + "survey: “Field” asks: firstName, lastName, address, phone, age (survey form show lists them)\n"))
    }

    // MARK: - import

    func testImportRefusesARowWithItsSpreadsheetRowAndTheFormsMessage() throws {
        try makeHousehold()
        XCTAssertEqual(try add(Self.bo).status, 0)
        let before = try fileBytes(store.url(for: "Household"))
        let csv = try scratchFile("in.csv", "First name,lname,age,consent,confirm\r\nAna,Lima,30,no,OK\r\n\r\nCy,Ng,12,no,OK\r\n")
        XCTAssertEqual(try survey("import", csv.path, "--doc", "Household"), Outcome(status: 1, stdout: "", stderr:
            "survey: nothing imported: \(csv.path) has 1 problem\n"
            + "survey: row 4: age \"12\": Respondents are 15 to 120 years old\n"))
        let json = try scratchFile("in.json", """
            [{"fname": "Ana", "lname": "Lima", "age": 30, "consent": "yes", "region": "north", "confirm": "OK"},
             {"fname": "Di", "lname": "Ek", "age": 50.0, "consent": "yes", "confirm": "OK", "has_phone": "no", "phone": "555 555"}]
            """)
        XCTAssertEqual(try survey("import", json.path, "--doc", "Household"), Outcome(status: 1, stdout: "", stderr:
            "survey: nothing imported: \(json.path) has 2 problems\n"
            + "survey: record 2: region: Region is required\n"
            + "survey: record 2: phone \"555 555\": Phone number is not asked in this survey (the form's relevant rule skips it): leave it empty\n"))
        XCTAssertEqual(try fileBytes(store.url(for: "Household")), before, "nothing written")
    }

    func testImportStampsTheFormsIDAndVersionOnlyOnRowsWithout() throws {
        try makeHousehold()
        let csv = try scratchFile("in.csv", "fname,lname,age,consent,confirm,formVersion,old_question\n"
                                  + "Ana,Lima,30,no,OK,,\nBo,Ng,40,no,OK,2025010101,kept\n")
        XCTAssertEqual(try survey("import", csv.path, "--doc", "Household"),
                       Outcome(status: 0, stdout: "Imported 2 surveys into “Household”\n",
                               stderr: "survey: note: 1 column named no question of the form and is kept as text: old_question\n"))
        XCTAssertEqual(try recordsCheckingIDs("Household"), [
            Record(["fname": .string("Ana"), "lname": .string("Lima"), "age": .integer(30), "consent": .string("no"),
                    "confirm": .string("OK"), "formID": .string("household"), "formVersion": .string("2026113001")]),
            Record(["fname": .string("Bo"), "lname": .string("Ng"), "age": .integer(40), "consent": .string("no"),
                    "confirm": .string("OK"), "formID": .string("household"), "formVersion": .string("2025010101"),
                    "old_question": .string("kept")]),
        ], "empty cells are no answer; an older version's answer is kept")
    }

    // MARK: - export and list

    func testExportColumnsAreTheFormsThenIdentityThenUnknownKeys() throws {
        try makeHousehold()
        XCTAssertEqual(try add(Self.ana).status, 0)
        var document = try store.load("Household").get()
        guard !document.records.isEmpty else { return XCTFail("nothing added") }
        document.records[0].values["zz_old"] = .integer(7)
        document.records[0].values["aa_old"] = .string("from version 1")
        try store.save(document, as: "Household")
        let known = ["start", "today", "fname", "lname", "age", "sex", "consent", "region", "district", "village",
                     "members", "children", "adults", "water", "water_other", "distance", "has_phone", "phone",
                     "location", "visit_date", "visit_time", "rating", "notes", "confirm",
                     "instanceID", "formID", "formVersion"]
        let csv = try survey("export", "--doc", "Household")
        XCTAssertEqual(csv.status, 0)
        XCTAssertEqual(csv.stdout.components(separatedBy: "\r\n").first, (known + ["aa_old", "zz_old"]).joined(separator: ","))
        let row = try python("""
            import csv, io, json, sys
            print(json.dumps(list(csv.DictReader(io.StringIO(sys.argv[1], newline="")))[0]))
            """, [csv.stdout])
        let cells = try JSONSerialization.jsonObject(with: Data(row.utf8)) as? [String: String]
        XCTAssertEqual(cells?["age"], "30")
        XCTAssertEqual(cells?["distance"], "1.5")
        XCTAssertEqual(cells?["water"], "tap well")
        XCTAssertEqual(cells?["location"], "")
        XCTAssertEqual(cells?["zz_old"], "7")
        let keys = try python("""
            import json, sys
            print(" ".join(json.loads(sys.argv[1])[0].keys()))
            """, [try survey("export", "--doc", "Household", "--format", "json").stdout])
        XCTAssertEqual(keys, (known + ["aa_old", "zz_old"]).joined(separator: " ") + "\n")
        XCTAssertEqual(try survey("list", "--doc", "Household", "--format", "csv").stdout, csv.stdout, "list writes what export writes")
    }

    func testListNamesEachSurveyByTheFormsInstanceName() throws {
        try makeHousehold()
        XCTAssertEqual(try add(Self.ana).status, 0)
        XCTAssertEqual(try add(Self.bo).status, 0)
        XCTAssertEqual(try survey("list", "--doc", "Household"), Outcome(status: 0, stdout: """
            #  NAME       PHONE         AGE
            1  Lima, Ana  +254 700 000   30
            2  Ng, Bo                    40

            """, stderr: ""))
    }

    func testExportThenImportGivesTheSameRecords() throws {
        try makeHousehold()
        XCTAssertEqual(try add(Self.ana).status, 0)
        XCTAssertEqual(try add(Self.bo).status, 0)
        let original = try store.load("Household").get().records
        for format in ["csv", "json", "plist"] {
            let file = try scratchFile("household.\(format)")
            XCTAssertEqual(try survey("export", "--doc", "Household", "--output", file.path).status, 0)
            try makeHousehold("Copy \(format)")
            XCTAssertEqual(try survey("import", file.path, "--doc", "Copy \(format)"),
                           Outcome(status: 0, stdout: "Imported 2 surveys into “Copy \(format)”\n", stderr: ""))
            XCTAssertEqual(try store.load("Copy \(format)").get().records, original, format)
        }
    }

    func testPythonsPlistlibReadsEachAnswersType() throws {
        try makeHousehold()
        XCTAssertEqual(try add(Self.ana).status, 0)
        let types = try python("""
            import plistlib, sys
            with open(sys.argv[1], "rb") as f:
                record = plistlib.load(f)[0]
            print(" ".join(f"{k}={type(record[k]).__name__}" for k in
                  ["age", "members", "distance", "adults", "water", "visit_date", "visit_time", "start", "formID", "formVersion", "instanceID"]))
            """, [store.url(for: "Household").path])
        XCTAssertEqual(types, "age=int members=int distance=float adults=str water=str visit_date=str visit_time=str "
                       + "start=str formID=str formVersion=str instanceID=str\n")
    }

    // MARK: - deleted and undelete

    func testDeletedAndUndeleteNameSurveysAsTheFormDoes() throws {
        try makeHousehold()
        XCTAssertEqual(try add(Self.ana).status, 0)
        let record = try XCTUnwrap(try store.load("Household").get().records.first)
        try store.save(SurveyDocument(), as: "Household")
        try store.appendDeleted([record], for: "Household", at: Date())
        let id = try XCTUnwrap(record.instanceID)
        XCTAssertTrue(try survey("deleted", "--doc", "Household").stdout.hasSuffix("\(id)  Lima, Ana\n"))
        XCTAssertTrue(try survey("deleted", "--doc", "Household", "--format", "csv").stdout
            .hasPrefix("deletedAt,start,today,fname,lname,age,"))
        XCTAssertEqual(try survey("undelete", id, "--doc", "Household").stdout,
                       "Brought back Lima, Ana into “Household” as survey 1\n")
    }

    func testAnUndeleteRefusedNamesTheSurveyAsTheFormDoes() throws {
        try makeHousehold()
        XCTAssertEqual(try add(Self.ana).status, 0)
        let record = try XCTUnwrap(try store.load("Household").get().records.first)
        try store.appendDeleted([record], for: "Household", at: Date())
        let id = try XCTUnwrap(record.instanceID)
        XCTAssertEqual(try survey("undelete", id, "--doc", "Household"), Outcome(status: 1, stdout: "",
            stderr: "survey: \(id) is already in “Household” (record 1, Lima, Ana): nothing brought back\n"))
    }

    // MARK: - A form that cannot be used

    /// Household with Ana and Bo, one deleted survey (Cy), and its form then lost.
    private func householdWithoutItsForm() throws -> String {
        try makeHousehold()
        XCTAssertEqual(try add(Self.ana).status, 0)
        XCTAssertEqual(try add(Self.bo).status, 0)
        try store.appendDeleted([Record(["fname": .string("Cy"), "lname": .string("Oduya"), "formID": .string("household"),
                                         "instanceID": .string("uuid:cccccccc-0000-4000-8000-000000000003")])],
                                for: "Household", at: Date())
        try FileManager.default.removeItem(at: documents.appendingPathComponent("Household.form.csv"))
        return "survey: The form (formID household) is missing: attach it with survey form attach FILE --doc Household"
    }

    func testAMissingFormStopsEveryCommandThatWouldChangeTheDocument() throws {
        let missing = try householdWithoutItsForm()
        let before = try fileBytes(store.url(for: "Household"))
        let input = try scratchFile("in.csv", "firstName\nBo\n")
        for arguments in [["add", "--set", "firstName=Bo"], ["add", "--first", "Bo", "--last", "Ng"], ["add", "--set", "fname=Bo"],
                          ["import", input.path], ["undelete", "uuid:cccccccc-0000-4000-8000-000000000003"]] {
            XCTAssertEqual(try survey(arguments + ["--doc", "Household"]),
                           Outcome(status: 1, stdout: "", stderr: missing + "; nothing was done\n"), "\(arguments)")
        }
        XCTAssertEqual(try fileBytes(store.url(for: "Household")), before, "never keyed under the original five")
        XCTAssertEqual(store.deletedRecords(for: "Household").count, 1)
    }

    func testAMissingFormListsTheSurveysByTheirAnswersAndSaysWhy() throws {
        let missing = try householdWithoutItsForm()
        let note = missing + "; surveys are shown as stored\n"
        XCTAssertEqual(try survey("list", "--doc", "Household"), Outcome(status: 0, stdout: """
            #  NAME       PHONE         AGE
            1  Ana, Lima  +254 700 000   30
            2  Bo, Ng                    40

            """, stderr: note))
        let deleted = try survey("deleted", "--doc", "Household")
        XCTAssertEqual(deleted.status, 0)
        XCTAssertTrue(deleted.stdout.hasSuffix("uuid:cccccccc-0000-4000-8000-000000000003  Cy, Oduya\n"), deleted.stdout)
        XCTAssertEqual(deleted.stderr, note)
        let csv = try survey("export", "--doc", "Household", "--format", "csv")
        XCTAssertEqual(csv.status, 0)
        XCTAssertTrue(csv.stdout.hasPrefix("adults,age,children,confirm,consent,distance,district,fname,has_phone,lname,"
                                           + "members,phone,region,sex,start,today,visit_date,visit_time,water,"
                                           + "instanceID,formID,formVersion\r\n"), "the answers as stored, by name: \(csv.stdout)")
        XCTAssertFalse(csv.stdout.contains("firstName"))
    }

    func testAFormWithErrorsStopsEveryRecordCommandBeforeAnythingIsWritten() throws {
        try store.save(SurveyDocument(records: [Record(["firstName": .string("Ana"), "instanceID": .string("uuid:1")])]), as: "Site")
        try Data("survey,,,\n,type,name,label\n,select_one none,x,X\n".utf8).write(to: documents.appendingPathComponent("Site.form.csv"))
        let before = try fileBytes(store.url(for: "Site"))
        let input = try scratchFile("in.csv", "firstName\nBo\n")
        let output = root.appendingPathComponent("out.csv")
        let expected = """
            survey: The questionnaire Site.form.csv cannot be used (1 error):
            survey: survey row 3, type: no choice list named none
            survey: nothing was done: fix the form (survey form check FILE) and attach it again (survey form attach FILE)

            """
        for arguments in [["list"], ["list", "--format", "json"], ["export", "--output", output.path],
                          ["add", "--set", "firstName=Bo"], ["add", "--first", "Bo", "--last", "Ng"],
                          ["import", input.path], ["deleted"], ["undelete", "uuid:1"]] {
            XCTAssertEqual(try survey(arguments + ["--doc", "Site"]), Outcome(status: 1, stdout: "", stderr: expected), "\(arguments)")
        }
        XCTAssertEqual(try fileBytes(store.url(for: "Site")), before)
        XCTAssertFalse(FileManager.default.fileExists(atPath: output.path))
    }
}
