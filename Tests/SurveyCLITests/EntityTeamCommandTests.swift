import Foundation
import XCTest
import SurveyTestSupport
import SurveyValues
import SurveyForms
import SurveyStorage

/// Issue 32, "Team", from the shell against the tests' throwaway PostgreSQL, as the README's
/// walkthrough runs it: three households registered on Ana's laptop reach Bruno's; both visit
/// the same household and change its phone; after their syncs each sees the conflict
/// (`survey entities`, `survey conflicts`) and settles it (`survey entities resolve`); Sofia,
/// their supervisor, edits one household and retires another, which every laptop takes at its
/// next sync, while an enumerator's edit is refused in words; `--rebuild` derives a lost list
/// again from the surveys, the retirement and the edit kept.
final class EntityTeamCommandTests: TeamCLITestCase {
    static let visit = """
        | survey |
        | | type | name | label | save_to |
        | | select_one_from_file households.csv | hh | Household | |
        | | text | phone | Phone | phone |
        | entities |
        | | list_name | entity_id |
        | | households | ${hh} |
        """

    private func login(_ name: String, in group: String) throws -> [String: String] {
        ["SURVEY_DB": connection(as: try loginRole(name, in: group)), "SURVEY_DEVICE": "laptop-\(name)"]
    }

    /// `survey --dir FOLDER …` as the laptop of `environment`.
    private func on(_ folder: URL, _ environment: [String: String], _ arguments: String...) throws -> Outcome {
        try survey(["--dir", folder.path] + arguments, dir: false, environment: environment)
    }

    private func newLaptop(_ folder: URL, _ environment: [String: String]) throws {
        for (name, file) in [("Register", "register.md"), ("Visit", "visit.md")] {
            XCTAssertEqual(try on(folder, environment, "docs", "new", name, "--form", root.appendingPathComponent(file).path).status, 0)
        }
    }

    func testTheWalkthroughTwoLaptopsAConflictAndASupervisorsEditAndRetirement() throws {
        try Data(EntityForms.registration.utf8).write(to: root.appendingPathComponent("register.md"))
        try Data(Self.visit.utf8).write(to: root.appendingPathComponent("visit.md"))
        let ana = try login("ana", in: "survey_enumerator")
        let bruno = try login("bruno", in: "survey_enumerator")
        let sofia = try login("sofia", in: "survey_supervisor")
        let a = documents, b = root.appendingPathComponent("bruno"), c = root.appendingPathComponent("sofia")

        // Ana registers three households and syncs; Bruno's first sync brings them.
        try newLaptop(a, ana)
        for (head, phone) in [("Ana Lima", "555 0101"), ("Bo Okafor", "555 0102"), ("Cy Silva", "555 0103")] {
            XCTAssertEqual(try on(a, ana, "add", "--doc", "Register", "--set", "head=\(head)", "--set", "phone=\(phone)").status, 0)
        }
        XCTAssertEqual(try on(a, ana, "sync", "--doc", "Register").status, 0)
        try newLaptop(b, bruno)
        XCTAssertEqual(try on(b, bruno, "sync", "--doc", "Register").status, 0)
        let households = try store.entityList("households").entities
        XCTAssertEqual(households.map(\.label), ["Ana Lima", "Bo Okafor", "Cy Silva"])
        XCTAssertEqual(try DocumentStore(folder: b).entityList("households").entities, households)
        let (lima, okafor, silva) = (households[0].id, households[1].id, households[2].id)

        // Both visit Ana Lima's household and change its phone, each from version 1.
        XCTAssertEqual(try on(a, ana, "add", "--doc", "Visit", "--set", "hh=\(lima)", "--set", "phone=555 0199").status, 0)
        XCTAssertEqual(try on(b, bruno, "add", "--doc", "Visit", "--set", "hh=\(lima)", "--set", "phone=555 0200").status, 0)
        for (folder, who) in [(a, ana), (b, bruno), (a, ana)] {
            XCTAssertEqual(try on(folder, who, "sync", "--doc", "Visit").status, 0)
        }
        let shown = try on(a, ana, "entities", "--list", "households")
        XCTAssertEqual(shown.status, 0, shown.stderr)
        XCTAssertTrue(shown.stdout.contains("1 conflict (survey entities resolve --list households NAME [PROPERTY] --mine|--theirs|--value TEXT):\n"), shown.stdout)
        XCTAssertTrue(shown.stdout.contains("\(lima)  phone     555 0101  555 0199  555 0200\n"), shown.stdout)
        XCTAssertTrue(try on(a, ana, "conflicts", "--doc", "Visit").stdout.hasSuffix("households.csv: 1 entity conflict (survey entities --list households)\n"))
        let json = try on(b, bruno, "entities", "--list", "households", "--format", "json").stdout
        XCTAssertEqual(try python("import json, sys; c = json.loads(sys.argv[1])[0]['conflicts'][0]; print(c['property'], c['mine'], c['theirs'], sep='|')", [json]),
                       "phone|555 0200|555 0199\n")
        // The CSV a form reads stays ODK's, this laptop's value in it.
        XCTAssertEqual(try on(a, ana, "entities", "--list", "households", "--format", "csv").stdout.split(separator: "\r\n").first,
                       "name,label,__version,phone")
        XCTAssertEqual(try store.entityList("households").entity(lima)?.properties["phone"], "555 0199")

        // Ana takes Bruno's number.
        XCTAssertEqual(try on(a, ana, "entities", "resolve", "--list", "households", lima, "phone", "--theirs"),
                       Outcome(status: 0, stdout: "Resolved 1 conflict of \(lima) in households.csv\n", stderr: ""))
        XCTAssertEqual(try store.entityList("households").entity(lima)?.properties["phone"], "555 0200")
        XCTAssertEqual(try store.entityList("households").conflicts, [])

        // Sofia edits Bruno's conflict away and retires Cy Silva's household; an enumerator may not.
        try FileManager.default.createDirectory(at: c, withIntermediateDirectories: true)
        XCTAssertEqual(try on(c, sofia, "entities", "edit", "--list", "households", lima, "phone=555 0300", "label=Ana Lima Souza"),
                       Outcome(status: 0, stdout: "\(lima) of households: edited (this laptop's list does not have it yet); every laptop takes it at its next sync\n",
                               stderr: ""))
        XCTAssertEqual(try on(c, sofia, "entities", "retire", "--list", "households", silva).status, 0)
        let refused = try on(a, ana, "entities", "edit", "--list", "households", okafor, "phone=1")
        XCTAssertEqual(refused.status, 1)
        XCTAssertTrue(refused.stderr.contains("is an enumerator: a supervisor (survey_supervisor) edits and retires entities"), refused.stderr)
        XCTAssertFalse(refused.stderr.contains("permission denied"), refused.stderr)
        XCTAssertEqual(try store.entityList("households").entity(okafor)?.properties["phone"], "555 0102", "nothing changed here")

        for (folder, who) in [(a, ana), (b, bruno)] {
            XCTAssertEqual(try on(folder, who, "sync", "--doc", "Visit").status, 0)
            let list = try DocumentStore(folder: folder).entityList("households")
            XCTAssertEqual(list.entities.map(\.id), [lima, okafor], "the retired household leaves the list")
            XCTAssertEqual(list.entity(lima)?.properties["phone"], "555 0300")
            XCTAssertEqual(list.entity(lima)?.label, "Ana Lima Souza")
            XCTAssertEqual(list.conflicts, [], "the supervisor's edit settles Bruno's conflict too")
        }
        // The follow-up form no longer offers it.
        XCTAssertEqual(try DocumentStore(folder: b).questionnaire(for: "Visit").form?.choices["households.csv"]?.map(\.name), [lima, okafor])

        // A lost list derived again from the surveys: the retirement and the edit stand.
        try FileManager.default.removeItem(at: documents.appendingPathComponent("households.csv"))
        XCTAssertEqual(try on(a, ana, "entities", "--rebuild"),
                       Outcome(status: 0, stdout: "households.csv: rebuilt from the surveys, 2 entities\n", stderr: ""))
        let rebuilt = try store.entityList("households")
        XCTAssertEqual(rebuilt.entities.map(\.id), [lima, okafor])
        XCTAssertEqual(rebuilt.entity(lima)?.properties["phone"], "555 0300")
    }
}
