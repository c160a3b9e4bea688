import Foundation
import XCTest
import SurveyTestSupport
import SurveyValues
import SurveyForms
import SurveyStorage

/// `survey add` of a registration writes `households.csv` beside the documents, `survey
/// import` too, and `survey entities` shows the lists (a table, CSV formula-escaped, JSON
/// as Python's json reads it); the follow-up document's form offers the household.
final class EntitiesCommandTests: CLITestCase {
    static let registration = EntityForms.registration

    static let followUp = EntityForms.followUp

    private func documentsWithForms() throws {
        for (name, form) in [("Register", Self.registration), ("Visits", Self.followUp)] {
            let file = root.appendingPathComponent("\(name).md")
            try Data(form.utf8).write(to: file)
            XCTAssertEqual(try survey("docs", "new", name, "--form", file.path).status, 0)
        }
    }

    func testAddOfARegistrationThenEntities() throws {
        try documentsWithForms()
        XCTAssertEqual(try survey("entities"), Outcome(status: 0, stdout:
            "No entity list beside the documents yet: a form with an entities sheet makes one when a survey that registers is stored\n", stderr: ""))

        let added = try survey("add", "--doc", "Register", "--set", "head==SUM(A1)", "--set", "phone=555 0101")
        XCTAssertEqual(added, Outcome(status: 0, stdout: "Added survey 1: =SUM(A1)\nhouseholds.csv: 1 created\n", stderr: ""))
        let stored = try XCTUnwrap(try store.load("Register").get().records.first?.instanceID)
        let list = try EntityList(csv: String(contentsOf: documents.appendingPathComponent("households.csv"), encoding: .utf8))
        let id = try XCTUnwrap(list.entities.first?.id)
        XCTAssertEqual(list.entities.map { [$0.label, String($0.version), $0.properties["phone"] ?? ""] }, [["=SUM(A1)", "1", "555 0101"]])
        XCTAssertNotEqual(id, stored, "the entity's own id, derived from the survey's")

        // The list file is ODK's, as it is; the command's CSV is formula-escaped.
        XCTAssertEqual(try survey("entities", "--list", "households", "--format", "csv"),
                       Outcome(status: 0, stdout: "name,label,__version,phone\r\n\(id),'=SUM(A1),1,555 0101\r\n", stderr: ""))
        XCTAssertEqual(try survey("entities", "--format", "csv").stdout,
                       "list,name,label,__version,phone\r\nhouseholds,\(id),'=SUM(A1),1,555 0101\r\n")
        XCTAssertEqual(try survey("entities").stdout, "LIST            ENTITIES  PROPERTIES\nhouseholds.csv  1         phone\n")
        let json = try survey("entities", "--format", "json")
        XCTAssertEqual(json.status, 0, json.stderr)
        let read = try python("""
            import json, sys
            lists = json.loads(sys.argv[1])
            for l in lists:
                for e in l['entities']:
                    print(l['list'], e['name'], e['label'], e['__version'], e['phone'], sep='|')
            """, [json.stdout])
        XCTAssertEqual(read, "households|\(id)|=SUM(A1)|1|555 0101\n")

        // The follow-up document offers the household.
        XCTAssertEqual(try store.questionnaire(for: "Visits").form?.choices["households.csv"]?.map(\.name), [id])

        // An import of a second registration adds it.
        let csv = root.appendingPathComponent("more.csv")
        try Data("head,phone\r\nBo Okafor,555 0202\r\n".utf8).write(to: csv)
        XCTAssertEqual(try survey("import", csv.path, "--doc", "Register"),
                       Outcome(status: 0, stdout: "Imported 1 survey into “Register”\nhouseholds.csv: 1 created\n", stderr: ""))
        XCTAssertEqual(try store.entityList("households").entities.map(\.label), ["=SUM(A1)", "Bo Okafor"])
    }

    func testRefusals() throws {
        try documentsWithForms()
        XCTAssertEqual(try survey("entities", "--list", "../x"),
                       Outcome(status: 1, stdout: "", stderr: "survey: --list ../x: “../x.csv” is a path, not a file name\n"))
        XCTAssertEqual(try survey("entities", "--list", "households"),
                       Outcome(status: 1, stdout: "", stderr: "survey: There is no entity list households.csv beside the documents\n"))
        XCTAssertEqual(try survey("entities", "--format", "plist").status, 2)
        // The hand's commands: each word checked before any file or server is touched.
        for (arguments, message) in [
            (["entities", "resolve", "h1", "--mine"],
             "--list NAME says which list: survey entities resolve --list NAME ID [PROPERTY] --mine|--theirs|--value TEXT"),
            (["entities", "resolve", "--list", "households", "h1", "--value", "7"],
             "--value needs the PROPERTY it is for: survey entities resolve --list NAME ID [PROPERTY] --mine|--theirs|--value TEXT"),
            (["entities", "edit", "--list", "households", "h1", "phone"],
             "“phone” is not PROPERTY=VALUE: survey entities edit --list NAME ID PROPERTY=VALUE... [--db URL]"),
            (["entities", "edit", "--list", "households", "h1", "__version=3"],
             "“__version” is ODK's own column, not a property: label=TEXT changes the label"),
            (["entities", "retire", "--list", "households"], "missing id: survey entities retire --list NAME ID [--db URL]"),
            (["entities", "frob"], "unknown entities command “frob” (use resolve, edit or retire): survey entities [--list NAME] [--format table|csv|json]"),
            (["entities", "--db", "x"], "--db goes with entities edit and retire: survey entities edit --list NAME ID PROPERTY=VALUE... [--db URL]"),
            (["entities", "--theirs"],
             "--mine, --theirs and --value go with entities resolve: survey entities resolve --list NAME ID [PROPERTY] --mine|--theirs|--value TEXT"),
        ] {
            let outcome = try survey(arguments)
            XCTAssertEqual(outcome.status, 2, "\(arguments)")
            XCTAssertEqual(outcome.stderr.split(separator: "\n").first.map(String.init), "survey: " + message, "\(arguments)")
        }
        XCTAssertEqual(try survey("entities", "resolve", "--list", "households", "h1", "--mine"),
                       Outcome(status: 1, stdout: "", stderr: "survey: There is no entity list households.csv beside the documents\n"))

        // A file of that name that is no entity list: the survey is added, the file kept, status 1.
        let plain = "name,label\r\nv1,Vila\r\n"
        try Data(plain.utf8).write(to: documents.appendingPathComponent("households.csv"))
        let added = try survey("add", "--doc", "Register", "--set", "head=Ana", "--set", "phone=1")
        XCTAssertEqual(added.status, 1)
        XCTAssertEqual(added.stdout, "Added survey 1: Ana\n")
        XCTAssertEqual(added.stderr, "survey: The survey was added, but the entity list was not updated: households.csv beside the documents "
                       + "is not an entity list (its first line has no name and __version columns): it was left as it is, and no entity list was changed"
                       + "; once that is fixed, survey entities --rebuild writes it again\n")
        XCTAssertEqual(try store.load("Register").get().records.count, 1)
        XCTAssertEqual(try String(contentsOf: documents.appendingPathComponent("households.csv"), encoding: .utf8), plain)
        // While it is in the way a rebuild refuses too; moved away, the rebuild writes the list.
        let rebuildRefused = try survey("entities", "--rebuild")
        XCTAssertEqual(rebuildRefused.status, 1)
        XCTAssertTrue(rebuildRefused.stderr.hasSuffix("it was left as it is, and no entity list was rebuilt\n"), rebuildRefused.stderr)
        XCTAssertEqual(try String(contentsOf: documents.appendingPathComponent("households.csv"), encoding: .utf8), plain)
        try FileManager.default.moveItem(at: documents.appendingPathComponent("households.csv"), to: root.appendingPathComponent("villages.csv"))
        XCTAssertEqual(try survey("entities", "--rebuild", "--list", "households"),
                       Outcome(status: 0, stdout: "households.csv: rebuilt from the surveys, 1 entity\n", stderr: ""))
        XCTAssertEqual(try store.entityList("households").entities.map(\.label), ["Ana"])
    }

    /// A list ODK Central handed over: its rows are kept by a rebuild, which says so; a CSV
    /// whose companion names another is said by survey entities, refused by a write (the
    /// survey kept), and mended by a rebuild.
    func testARebuildKeepsRowsNoSurveyRegistersAndMendsAPairOutOfStep() throws {
        try documentsWithForms()
        let csv = documents.appendingPathComponent("households.csv")
        try Data("name,label,__version,phone\r\nc1,From Central,2,555\r\n".utf8).write(to: csv)
        XCTAssertEqual(try survey("add", "--doc", "Register", "--set", "head=Ana", "--set", "phone=1").status, 0)
        XCTAssertEqual(try survey("entities", "--rebuild"), Outcome(status: 0, stdout:
            "households.csv: rebuilt from the surveys, 2 entities, 1 kept as the list held it (no survey registers it)\n", stderr: ""))
        XCTAssertEqual(try store.entityList("households").entities.map(\.label), ["From Central", "Ana"])

        // A companion written with another CSV (a write cut off between the two).
        try Data(#"{"csv": "0000", "retired": ["gone"]}"#.utf8).write(to: store.entityCompanionURL("households"))
        let shown = try survey("entities")
        XCTAssertEqual(shown.status, 0)
        XCTAssertTrue(shown.stderr.contains("households.csv and .households.entities.json beside it were not written together"), shown.stderr)
        let added = try survey("add", "--doc", "Register", "--set", "head=Bo", "--set", "phone=2")
        XCTAssertEqual(added.status, 1)
        XCTAssertTrue(added.stderr.contains("survey entities --rebuild --list households derives it again"), added.stderr)
        XCTAssertEqual(try store.load("Register").get().records.count, 2, "the survey is kept")
        XCTAssertEqual(try survey("entities", "--rebuild", "--list", "households"), Outcome(status: 0, stdout:
            "households.csv: rebuilt from the surveys, 3 entities, 1 kept as the list held it (no survey registers it)\n", stderr: ""))
        let mended = try survey("entities")
        XCTAssertEqual(mended.stderr, "")
        // Bo's registration, refused then, is not in the log: it comes before those it names.
        XCTAssertEqual(try store.entityList("households").entities.map(\.label), ["From Central", "Bo", "Ana"])
        XCTAssertEqual(try store.entityList("households").retired, ["gone"], "what the companion kept stays")
    }

    /// Two laptops by USB stick: the registration merged to the other, a visit of the same
    /// household on each, and the merge says the conflict it brought.
    func testAUSBMergeSaysTheEntityConflictItBrought() throws {
        let other = root.appendingPathComponent("laptop-b")
        let visit = root.appendingPathComponent("visit.md"), register = root.appendingPathComponent("register.md")
        try Data(EntityForms.visit.utf8).write(to: visit)
        try Data(Self.registration.utf8).write(to: register)
        func on(_ folder: URL, _ arguments: String...) throws -> Outcome { try survey(["--dir", folder.path] + arguments, dir: false) }
        for folder in [documents, other] {
            XCTAssertEqual(try on(folder, "docs", "new", "Register", "--form", register.path).status, 0)
            XCTAssertEqual(try on(folder, "docs", "new", "Visit", "--form", visit.path).status, 0)
        }
        XCTAssertEqual(try on(documents, "add", "--doc", "Register", "--set", "head=Ana", "--set", "phone=1").status, 0)
        XCTAssertEqual(try on(other, "merge", documents.appendingPathComponent("Register.plist").path, "--doc", "Register").status, 0)
        let id = try XCTUnwrap(try DocumentStore(folder: other).entityList("households").entities.first?.id)
        XCTAssertEqual(try on(documents, "add", "--doc", "Visit", "--set", "hh=\(id)", "--set", "phone=2").status, 0)
        XCTAssertEqual(try on(other, "add", "--doc", "Visit", "--set", "hh=\(id)", "--set", "phone=3").status, 0)
        let merged = try on(documents, "merge", other.appendingPathComponent("Visit.plist").path, "--doc", "Visit")
        XCTAssertEqual(merged.status, 0, merged.stderr)
        XCTAssertTrue(merged.stdout.hasSuffix("households.csv: 1 new entity conflict (survey entities --list households)\n"), merged.stdout)
        XCTAssertEqual(try store.entityList("households").conflicts.map { [$0.base, $0.mine, $0.theirs] }, [["1", "2", "3"]])
    }
}
