import Foundation
import XCTest
import SurveyValues
import SurveyForms
import SurveyStorage
import SurveyTestSupport

/// `survey diff A B`: independent double entry through the real binary: the exit status
/// (diff(1)'s), the table, CSV and JSON, a copy on a stick named by its path, and nothing
/// written.
final class DiffCommandTests: CLITestCase {
    private func person(_ id: String, _ first: String, _ last: String, age: Int?) -> Record {
        var answers: [String: PropertyValue] = ["firstName": .string(first), "lastName": .string(last), "instanceID": .string(id)]
        if let age { answers["age"] = .integer(age) }
        return Record(answers)
    }

    /// Two keyers, the same three papers (their own instanceIDs): one typo each way, and a
    /// paper only the second keyed.
    private func twoKeyers() throws {
        try store.save(SurveyDocument(records: [person("uuid:a-1", "Ana", "Lee", age: 30), person("uuid:a-2", "Bo", "Kim", age: 41)]),
                       as: "First")
        try store.save(SurveyDocument(records: [person("uuid:b-1", "Bo", "Kim", age: 14), person("uuid:b-2", "Ana", "Lea", age: 30),
                                                person("uuid:b-3", "Cy", "Oz", age: nil)]), as: "Second")
    }

    func testTwoKeyersDocumentsPairedByAnAnswer() throws {
        try twoKeyers()
        let before = try folderContents().map { try Data(contentsOf: documents.appendingPathComponent($0)) }
        let run = try survey("diff", "First", "Second", "--by", "firstName")
        XCTAssertEqual(run.status, 1, run.stderr)
        XCTAssertEqual(run.stdout.split(separator: "\n").map(String.init), [
            "SURVEY         FIELD     First  Second",
            "firstName=Ana  lastName  Lee    Lea",
            "firstName=Bo   age       41     14",
            "firstName=Cy   (survey)  -      present",
            "2 answers differ in 2 of 2 surveys paired; 1 only in Second",
        ])
        XCTAssertEqual(run.stderr, "")
        XCTAssertEqual(try folderContents().map { try Data(contentsOf: documents.appendingPathComponent($0)) }, before, "only read")

        let same = try survey("diff", "First", "First")
        XCTAssertEqual(same.status, 0)
        XCTAssertEqual(same.stdout, "no answer differs in 2 surveys paired\n")
    }

    func testJSONAndCSVAndACopyNamedByItsPath() throws {
        try twoKeyers()
        let stick = root.appendingPathComponent("stick")
        try FileManager.default.createDirectory(at: stick, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: store.url(for: "Second"), to: stick.appendingPathComponent("Second.plist"))
        let path = stick.appendingPathComponent("Second.plist").path

        let json = try survey("diff", "First", path, "--by", "firstName,lastName", "--format", "json")
        XCTAssertEqual(json.status, 1, json.stderr)
        let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        XCTAssertEqual(object["paired"] as? Int, 1)
        let differences = try XCTUnwrap(object["differences"] as? [[String: Any]])
        XCTAssertEqual(differences.count, 1)
        XCTAssertEqual(differences.first?["survey"] as? String, "firstName=Bo lastName=Kim")
        XCTAssertEqual(differences.first?["a"] as? String, "41")
        XCTAssertEqual(differences.first?["b"] as? String, "14")
        XCTAssertEqual((object["a"] as? [String: Any])?["only"] as? [String], ["firstName=Ana lastName=Lee"])
        XCTAssertEqual((object["b"] as? [String: Any])?["only"] as? [String], ["firstName=Ana lastName=Lea", "firstName=Cy lastName=Oz"])

        let csv = try survey("diff", "First", path, "--by", "firstName", "--format", "csv")
        XCTAssertEqual(csv.status, 1, csv.stderr)
        XCTAssertEqual(csv.stdout, "survey,field,First,\(path)\r\nfirstName=Ana,lastName,Lee,Lea\r\nfirstName=Bo,age,41,14\r\n"
            + "firstName=Cy,(survey),,present\r\n")
    }

    /// The answers an app kept in its journal (it stopped before rewriting the document)
    /// are compared too, as `list` and `export` read them.
    func testAnswersStillInTheJournalAreCompared() throws {
        try twoKeyers()
        let journal = try XCTUnwrap(try DocumentJournal.open(at: store.journalURL(for: "Second"), in: .live))
        let before = try store.load("Second").get()
        var document = before
        document.records[0]["age"] = .integer(41)
        try journal.append(document.journalEntries(since: before))
        let run = try survey("diff", "First", "Second", "--by", "firstName")
        XCTAssertTrue(run.stdout.contains("Ana  lastName  Lee    Lea"), run.stdout)
        XCTAssertFalse(run.stdout.contains("age       41     14"), "Bo's age as the journal holds it: 41 on both sides\n" + run.stdout)
    }

    /// Output that cannot be written is trouble (2), never "they differ" (1).
    func testAnOutputFailureIsTrouble() throws {
        try twoKeyers()
        let run = try ChildProcess.run(["/bin/sh", "-c", "\"$0\" --dir \"$1\" diff First First > /dev/full", Self.binary.path, documents.path],
                                       environment: childEnvironment)
        XCTAssertEqual(run.status, 2, run.errors)
        XCTAssertTrue(run.errors.contains("could not write to standard output"), run.errors)
    }

    /// Trouble is 2, with the reason: never confused with "they differ".
    func testTroubleIsExitTwoWithTheReason() throws {
        try twoKeyers()
        let missing = try survey("diff", "First", "Nope")
        XCTAssertEqual(missing.status, 2)
        XCTAssertTrue(missing.stderr.contains("no document “Nope”"), missing.stderr)
        let unknown = try survey("diff", "First", "Second", "--by", "plot_id")
        XCTAssertEqual(unknown.status, 2)
        XCTAssertTrue(unknown.stderr.contains("no question or answer “plot_id”"), unknown.stderr)
        let broken = root.appendingPathComponent("broken.plist")
        try Data("<plist><array><dict>".utf8).write(to: broken)
        let unreadable = try survey("diff", "First", broken.path)
        XCTAssertEqual(unreadable.status, 2)
        XCTAssertTrue(unreadable.stderr.hasPrefix("survey: broken.plist"), unreadable.stderr)
        let one = try survey("diff", "First")
        XCTAssertEqual(one.status, 2)
        XCTAssertTrue(one.stderr.contains("two documents to compare"), one.stderr)
        XCTAssertEqual(try survey("diff", "First", "Second", "--by", "a,,b").status, 2)
    }
}

/// `survey list --duplicates` and `diff` pairing by a form's ID items (issue 30).
final class IDItemsCommandTests: CLITestCase {
    private func plots(_ name: String, _ surveys: [(String, String, Int)]) throws {
        let form = root.appendingPathComponent("plots.csv")
        try Data("""
        survey,,,
        ,type,name,label
        ,text,plot_id,Plot id
        ,integer,trees,Trees
        settings,,,
        ,form_id,id_items,
        ,plots,plot_id,
        """.utf8).write(to: form)
        XCTAssertEqual(try survey("docs", "new", name, "--form", form.path).status, 0)
        try store.save(SurveyDocument(records: surveys.map { id, plot, trees in
            Record(["instanceID": .string(id), "plot_id": .string(plot), "trees": .integer(trees), "formID": .string("plots")])
        }), as: name)
    }

    func testListDuplicatesAndDiffPairByTheFormsIDItems() throws {
        try plots("Keyer1", [("uuid:a1", "12", 3), ("uuid:a2", "13", 5), ("uuid:a3", "12", 4)])
        let duplicates = try survey("list", "--doc", "Keyer1", "--duplicates")
        XCTAssertEqual(duplicates.status, 0, duplicates.stderr)
        XCTAssertEqual(duplicates.stdout.split(separator: "\n").map(String.init), [
            "plot_id 12: surveys 1 (12), 3 (12)",
            "1 set of surveys share their ID items: each is one paper keyed twice, or papers the ID items do not tell apart",
        ])

        try plots("Keyer2", [("uuid:b1", "13", 5), ("uuid:b2", "14", 1)])
        let diff = try survey("diff", "Keyer1", "Keyer2")
        XCTAssertEqual(diff.status, 1, diff.stderr)
        XCTAssertTrue(diff.stdout.contains("plot_id=14  (survey)  -"), "paired by plot_id, not instanceID:\n" + diff.stdout)
        XCTAssertTrue(diff.stdout.hasSuffix("no answer differs in 1 survey paired; 1 only in Keyer2; 1 key on more than one survey in Keyer1 (not compared: plot_id=12)\n"), diff.stdout)

        XCTAssertEqual(try survey("docs", "new", "Plain").status, 0)
        let none = try survey("list", "--doc", "Plain", "--duplicates")
        XCTAssertEqual(none.status, 1)
        XCTAssertTrue(none.stderr.contains("names no ID items"), none.stderr)
    }
}
