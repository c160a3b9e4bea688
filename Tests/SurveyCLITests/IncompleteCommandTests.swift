import Foundation
import XCTest
import SurveyValues
import SurveyForms
import SurveyStorage
import SurveyTestSupport

/// Issue 30 from the shell: incomplete surveys (kept by the app before they passed the form's
/// rules) are marked by `list`, said by every export (an `incomplete` column, key or element)
/// or left out with `--complete-only`, and read back by `import` with the mark.
final class IncompleteCommandTests: CLITestCase {
    /// Households: Ana Lima, complete; Bo Okafor, incomplete (no age, no consent yet).
    private func makeHouseholds() throws {
        XCTAssertEqual(try survey("docs", "new", "Households", "--form", FormDocumentTests.householdForm.path).status, 0)
        var bo = Record(["fname": .string("Bo"), "lname": .string("Okafor"), "formID": .string("household"),
                         Record.instanceIDKey: .string("uuid:00000000-0000-4000-8000-0000000000b0")])
        bo.setIncomplete(true)
        let ana = Record(["fname": .string("Ana"), "lname": .string("Lima"), "age": .integer(30), "consent": .string("no"),
                          "confirm": .string("OK"), "formID": .string("household"),
                          Record.instanceIDKey: .string("uuid:00000000-0000-4000-8000-0000000000a0")])
        _ = try store.save(SurveyDocument(records: [ana, bo]), as: "Households")
    }

    /// Each row of a CSV as plistlib's neighbour, Python's csv module, reads it: `column=value`.
    private func csvColumn(_ text: String, _ column: String) throws -> [String] {
        let script = """
        import csv, io, sys
        rows = list(csv.DictReader(io.StringIO(sys.argv[1])))
        print('\\n'.join(r.get(sys.argv[2], '<none>') for r in rows))
        """
        return try python(script, [text, column]).split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
    }

    /// `survey add --incomplete` keeps a survey the form's rules do not pass yet, marked, as
    /// Ctrl-S keeps a New form: what it lacks waits, what it holds is judged; a form that
    /// has no rules (the original five) takes no incomplete survey.
    func testAddIncompleteKeepsWhatIsMissingForLaterButJudgesWhatIsGiven() throws {
        try makeHouseholds()
        let refused = try survey("add", "--doc", "Households", "--set", "fname=Cy", "--set", "lname=Ng")
        XCTAssertEqual(refused.status, 1, "without the option the form's gate refuses it")
        let kept = try survey("add", "--doc", "Households", "--set", "fname=Cy", "--set", "lname=Ng", "--incomplete")
        XCTAssertEqual(kept.status, 0, kept.stderr)
        XCTAssertEqual(kept.stdout, "Added survey 3: Ng, Cy (incomplete: … in the list; [ Finish ] in the app when it is done)\n")
        let saved = try store.load("Households").get().records
        XCTAssertEqual(saved.count, 3)
        XCTAssertTrue(saved[2].isIncomplete)
        XCTAssertEqual(saved[2]["formID"], .string("household"), "completed as [ Add ] completes a survey")
        XCTAssertTrue(try survey("list", "--doc", "Households").stdout.contains("3  … Ng, Cy"))
        let broken = try survey("add", "--doc", "Households", "--set", "fname=Di", "--set", "lname=Oz", "--set", "age=12", "--incomplete")
        XCTAssertEqual(broken.status, 1)
        XCTAssertTrue(broken.stderr.contains("15 to 120"), "an answer given is judged as always: \(broken.stderr)")
        XCTAssertEqual(try store.load("Households").get().records.count, 3)
        XCTAssertEqual(try survey("docs", "new", "People").status, 0)
        let five = try survey("add", "--doc", "People", "--first", "Ana", "--last", "Lima", "--incomplete")
        XCTAssertEqual(five.status, 1)
        XCTAssertTrue(five.stderr.contains("has no designer's form"), five.stderr)
        XCTAssertEqual(try store.load("People").get().records.count, 0)
    }

    func testListMarksThemAndCompleteOnlyLeavesThemOut() throws {
        try makeHouseholds()
        let list = try survey("list", "--doc", "Households")
        XCTAssertEqual(list.status, 0, list.stderr)
        XCTAssertEqual(list.stdout, "#  NAME          PHONE  AGE\n1  Lima, Ana             30\n2  … Okafor, Bo\n")
        let complete = try survey("list", "--doc", "Households", "--complete-only")
        XCTAssertEqual(complete.stdout, "#  NAME       PHONE  AGE\n1  Lima, Ana          30\n")
        let json = try survey("list", "--doc", "Households", "--format", "json", "--complete-only")
        XCTAssertFalse(json.stdout.contains("Okafor"), json.stdout)
        let both = try survey("list", "--doc", "Households", "--duplicates", "--complete-only")
        XCTAssertEqual(both.status, 2)
        XCTAssertTrue(both.stderr.hasPrefix("survey: --duplicates lists a table of every survey: leave out --complete-only"), both.stderr)
    }

    func testCSVHasAnIncompleteColumnAndTheOptionLeavesThemOut() throws {
        try makeHouseholds()
        let csv = try survey("export", "--doc", "Households", "--format", "csv")
        XCTAssertEqual(csv.status, 0, csv.stderr)
        XCTAssertEqual(try csvColumn(csv.stdout, "fname"), ["Ana", "Bo"])
        XCTAssertEqual(try csvColumn(csv.stdout, "incomplete"), ["", "true"])
        let complete = try survey("export", "--doc", "Households", "--format", "csv", "--complete-only")
        XCTAssertEqual(try csvColumn(complete.stdout, "fname"), ["Ana"])
        XCTAssertEqual(try csvColumn(complete.stdout, "incomplete"), ["<none>"], "no incomplete survey, no column")
        let json = try survey("export", "--doc", "Households", "--format", "json")
        let marks = try python("import json, sys\nprint([r.get('incomplete') for r in json.loads(sys.argv[1])])", [json.stdout])
        XCTAssertEqual(marks, "[None, True]\n", "JSON's true")
        // To a file, the line says what became of them.
        let file = root.appendingPathComponent("households.csv")
        let written = try survey("export", "--doc", "Households", "--output", file.path)
        XCTAssertEqual(written.stdout, "Exported 2 surveys from “Households” to \(file.path) (1 incomplete, marked by their incomplete column; --complete-only leaves them out)\n")
        let other = root.appendingPathComponent("complete.csv")
        let left = try survey("export", "--doc", "Households", "--output", other.path, "--complete-only")
        XCTAssertEqual(left.stdout, "Exported 1 survey from “Households” to \(other.path) (1 incomplete left out)\n")
    }

    func testODKShapesSayItToo() throws {
        try makeHouseholds()
        let set = root.appendingPathComponent("set")
        let exported = try survey("export", "--doc", "Households", "--format", "odk-csv", "--output", set.path)
        XCTAssertEqual(exported.status, 0, exported.stderr)
        let main = try String(contentsOf: set.appendingPathComponent("household.csv"), encoding: .utf8)
        XCTAssertEqual(try csvColumn(main, "KEY"), ["uuid:00000000-0000-4000-8000-0000000000a0", "uuid:00000000-0000-4000-8000-0000000000b0"])
        XCTAssertEqual(try csvColumn(main, "incomplete"), ["", "true"], "a column after ODK's own, as any other key")
        let onlyComplete = root.appendingPathComponent("set2")
        XCTAssertEqual(try survey("export", "--doc", "Households", "--format", "odk-csv", "--output", onlyComplete.path,
                                  "--complete-only").status, 0)
        let completeMain = try String(contentsOf: onlyComplete.appendingPathComponent("household.csv"), encoding: .utf8)
        XCTAssertEqual(try csvColumn(completeMain, "fname"), ["Ana"])
        let xml = root.appendingPathComponent("xml")
        let submissions = try survey("export", "--doc", "Households", "--format", "odk-xml", "--output", xml.path)
        XCTAssertTrue(submissions.stdout.hasSuffix("(1 incomplete, marked by an <incomplete> element; --complete-only leaves them out)\n"),
                      submissions.stdout)
        let bo = xml.appendingPathComponent("ODK Briefcase Storage/forms/Household survey/instances/uuid00000000-0000-4000-8000-0000000000b0/submission.xml")
        XCTAssertTrue(try String(contentsOf: bo, encoding: .utf8).contains("<incomplete>true</incomplete>"))
    }

    /// Exported and imported again, an incomplete survey stays incomplete; without its mark
    /// the same row is refused for what it lacks, and with it a wrong answer is still refused.
    func testImportReadsTheMarkBackAndWaivesOnlyCompleteness() throws {
        try makeHouseholds()
        let file = root.appendingPathComponent("households.csv")
        XCTAssertEqual(try survey("export", "--doc", "Households", "--output", file.path).status, 0)
        XCTAssertEqual(try survey("docs", "new", "Copy", "--form", FormDocumentTests.householdForm.path).status, 0)
        let imported = try survey("import", file.path, "--doc", "Copy")
        XCTAssertEqual(imported.status, 0, imported.stderr)
        let copy = try store.load("Copy").get().records
        XCTAssertEqual(copy.map(\.isIncomplete), [false, true])
        XCTAssertEqual(copy[1][Record.incompleteKey], .bool(true), "stored as the app stores it, <true/>")
        XCTAssertNil(copy[0][Record.incompleteKey], "an empty cell is no mark")

        let text = try String(contentsOf: file, encoding: .utf8)
        let header = try XCTUnwrap(text.split(separator: "\r\n").first).split(separator: ",").map(String.init)
        XCTAssertTrue(header.contains("incomplete"), "\(header)")
        func row(_ cells: [String: String]) -> String {
            header.map { cells[$0] ?? "" }.joined(separator: ",")
        }
        // The same survey without its mark: refused for what a complete survey must have.
        let unmarked = try scratchFile("unmarked.csv", header.joined(separator: ",") + "\r\n"
                                       + row(["fname": "Cy", "lname": "Ode", "formID": "household"]) + "\r\n")
        let refused = try survey("import", unmarked.path, "--doc", "Copy")
        XCTAssertEqual(refused.status, 1)
        XCTAssertTrue(refused.stderr.contains("Age is required"), refused.stderr)
        // Marked, but an answer its rule refuses: refused all the same.
        let wrong = try scratchFile("wrong.csv", header.joined(separator: ",") + "\r\n"
                                    + row(["fname": "Cy", "lname": "Ode", "age": "12", "incomplete": "TRUE"]) + "\r\n")
        let stillRefused = try survey("import", wrong.path, "--doc", "Copy")
        XCTAssertEqual(stillRefused.status, 1)
        XCTAssertTrue(stillRefused.stderr.contains("Respondents are 15 to 120 years old"), stillRefused.stderr)
        XCTAssertFalse(stillRefused.stderr.contains("required"), "what it lacks is waived: \(stillRefused.stderr)")
        // A mark that is neither true nor empty is named.
        let odd = try scratchFile("odd.csv", header.joined(separator: ",") + "\r\n"
                                  + row(["fname": "Cy", "incomplete": "maybe"]) + "\r\n")
        let oddRefused = try survey("import", odd.path, "--doc", "Copy")
        XCTAssertEqual(oddRefused.status, 1)
        XCTAssertTrue(oddRefused.stderr.contains("incomplete is true (a survey kept before it passed the form's rules) or empty"),
                      oddRefused.stderr)
        XCTAssertEqual(try store.load("Copy").get().records.count, 2, "nothing refused was written")
    }

    func testHelpNamesTheOption() throws {
        let export = try survey("export", "--help").stdout
        XCTAssertTrue(export.contains("--complete-only"), export)
        XCTAssertTrue(export.contains("leave out incomplete surveys"), export)
        XCTAssertTrue(try survey("list", "--help").stdout.contains("[--complete-only]"))
        XCTAssertEqual(try survey("docs", "--complete-only").status, 2, "only export and list take it")
    }
}
