import Foundation
import XCTest
import SurveyValues
import SurveyForms
import SurveyStorage

/// `survey merge` between two laptops simulated as two folders (laptop A is the test's
/// document folder, laptop B another), a USB stick as a third; with `delete`, `conflicts`
/// and `resolve` around it.
final class MergeCommandTests: CLITestCase {
    private var laptopB: URL { root.appendingPathComponent("laptop-b", isDirectory: true) }
    private var usb: URL { root.appendingPathComponent("usb", isDirectory: true) }
    private var storeB: DocumentStore { DocumentStore(folder: laptopB) }
    private let ana = "uuid:aaaaaaaa-0000-4000-8000-000000000001"
    private let bo = "uuid:bbbbbbbb-0000-4000-8000-000000000002"
    private let cy = "uuid:cccccccc-0000-4000-8000-000000000003"

    private func person(_ first: String, age: Int, id: String, phone: String = "") -> Record {
        Record(["firstName": .string(first), "lastName": .string("Lima"), "address": .string(""), "phone": .string(phone),
                "age": .integer(age), "instanceID": .string(id)])
    }

    override func setUpWithError() throws {
        try super.setUpWithError()
        try FileManager.default.createDirectory(at: laptopB, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: usb, withIntermediateDirectories: true)
    }

    /// `survey` on laptop B's folder, as device B.
    private func onB(_ arguments: String...) throws -> Outcome {
        try survey(["--dir", laptopB.path] + arguments, dir: false, environment: ["SURVEY_DEVICE": "laptop-b"])
    }

    /// Copies a laptop's document and whichever companions it has onto the stick (emptied first).
    private func copyToStick(from laptop: URL) throws {
        for name in try FileManager.default.contentsOfDirectory(atPath: usb.path) {
            try FileManager.default.removeItem(at: usb.appendingPathComponent(name))
        }
        for name in ["Field.plist", ".Field.sync.plist", ".Field.deleted.plist"]
        where FileManager.default.fileExists(atPath: laptop.appendingPathComponent(name).path) {
            try FileManager.default.copyItem(at: laptop.appendingPathComponent(name), to: usb.appendingPathComponent(name))
        }
    }

    private var stickFile: String { usb.appendingPathComponent("Field.plist").path }

    private func edit(_ store: DocumentStore, _ id: String, _ change: (inout Record) -> Void) throws {
        var document = try store.load("Field").get()
        let place = try XCTUnwrap(document.records.firstIndex { $0.instanceID == id })
        change(&document.records[place])
        try store.save(document, as: "Field")
    }

    private func folderBytes(_ folder: URL) throws -> [String: Data] {
        var result: [String: Data] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) where name.hasSuffix(".plist") {
            result[name] = try Data(contentsOf: folder.appendingPathComponent(name))
        }
        return result
    }

    /// Both laptops start from one copy and swap it once, so each has the other's bases.
    private func twoLaptopsThatMetOnce() throws {
        try store.save(SurveyDocument(records: [person("Ana", age: 30, id: ana), person("Bo", age: 40, id: bo)]), as: "Field")
        try FileManager.default.copyItem(at: store.url(for: "Field"), to: storeB.url(for: "Field"))
        try copyToStick(from: documents)
        XCTAssertEqual(try onB("merge", stickFile).stdout, """
            same      \(ana)
            same      \(bo)
            Merged \(stickFile) into “Field”: the common versions recorded

            """)
        try copyToStick(from: laptopB)
        XCTAssertEqual(try survey("merge", stickFile).status, 0)
        XCTAssertEqual(try folderContents(), [".Field.sync.plist", "Field.plist"])
    }

    func testTwoLaptopsMergeBothWaysThenAgainAndNothingChanges() throws {
        try twoLaptopsThatMetOnce()
        // A: Ana's age, and Bo deleted. B: Ana's phone, and Cy added.
        try edit(store, ana) { $0["age"] = .integer(31) }
        XCTAssertEqual(try survey("delete", bo).stdout,
                       "Deleted Lima, Bo from “Field”: kept in its deleted surveys (survey undelete \(bo))\n")
        try edit(storeB, ana) { $0["phone"] = .string("555") }
        var documentB = try storeB.load("Field").get()
        documentB.records.append(person("Cy", age: 5, id: cy))
        try storeB.save(documentB, as: "Field")

        // A takes B's copy: the edits merge, Cy arrives, Bo stays deleted.
        try copyToStick(from: laptopB)
        XCTAssertEqual(try survey("merge", stickFile), Outcome(status: 0, stdout: """
            merge     \(ana)
            add       \(cy)
            Merged \(stickFile) into “Field”: 1 added, 1 merged

            """, stderr: ""))
        let expected = [person("Ana", age: 31, id: ana, phone: "555"), person("Cy", age: 5, id: cy)]
        XCTAssertEqual(Array(try store.load("Field").get().records), expected)

        // B takes A's: Ana fast-forwards, Bo's delete arrives and stays recoverable on B.
        try copyToStick(from: documents)
        XCTAssertEqual(try onB("merge", stickFile), Outcome(status: 0, stdout: """
            update    \(ana)
            delete    \(bo)
            Merged \(stickFile) into “Field”: 1 updated, 1 deleted

            """, stderr: ""))
        XCTAssertEqual(Array(try storeB.load("Field").get().records), expected)
        XCTAssertEqual(storeB.deletedRecords(for: "Field").map(\.record.instanceID), [bo])

        // Again both ways: the documents do not change; a second time, no file does.
        try copyToStick(from: laptopB)
        XCTAssertEqual(try survey("merge", stickFile).status, 0)
        try copyToStick(from: documents)
        XCTAssertEqual(try onB("merge", stickFile).status, 0)
        XCTAssertEqual(Array(try store.load("Field").get().records), expected)
        XCTAssertEqual(Array(try storeB.load("Field").get().records), expected)
        let (a, b) = (try folderBytes(documents), try folderBytes(laptopB))
        try copyToStick(from: laptopB)
        XCTAssertEqual(try survey("merge", stickFile).stdout, "“Field” already has everything in \(stickFile): nothing changed\n")
        try copyToStick(from: documents)
        XCTAssertEqual(try onB("merge", stickFile).stdout, "“Field” already has everything in \(stickFile): nothing changed\n")
        XCTAssertEqual(try folderBytes(documents), a)
        XCTAssertEqual(try folderBytes(laptopB), b)
    }

    /// A survey merged from both sides holds answers neither side stored together: the form
    /// computes its calculations again, a clash on a calculation is settled by the form, and
    /// a survey taken whole from one side is that side's exactly.
    func testASurveyMergedFromBothSidesGetsTheFormsCalculations() throws {
        let form = try scratchFile("sums.csv", """
            survey
            ,type,name,label,calculation
            ,integer,a,A
            ,integer,b,B
            ,calculate,total,,${a} + ${b}
            ,calculate,twice,,${a} * 2
            settings
            ,form_title,form_id,version
            ,Sums,sums,1
            """)
        XCTAssertEqual(try survey("docs", "new", "Field", "--form", form.path).status, 0)
        let input = try scratchFile("sums.json", """
            [{"instanceID": "\(ana)", "a": 1, "b": 1}, {"instanceID": "\(bo)", "a": 5, "b": 5}, {"instanceID": "\(cy)", "a": 1, "b": 1}]
            """)
        XCTAssertEqual(try survey("import", input.path, "--doc", "Field").status, 0)
        for name in ["Field.plist", "Field.form.csv"] {
            try FileManager.default.copyItem(at: documents.appendingPathComponent(name), to: laptopB.appendingPathComponent(name))
        }
        try copyToStick(from: documents)
        XCTAssertEqual(try onB("merge", stickFile).status, 0)
        try copyToStick(from: laptopB)
        XCTAssertEqual(try survey("merge", stickFile).status, 0)
        // Each side edits as the app does, its calculations with it.
        func set(_ a: Int, _ b: Int) -> (inout Record) -> Void {
            { $0["a"] = .integer(a); $0["b"] = .integer(b); $0["total"] = .string("\(a + b)"); $0["twice"] = .string("\(a * 2)") }
        }
        try edit(store, ana, set(2, 1))
        try edit(storeB, ana, set(1, 5))
        try edit(storeB, bo, set(5, 7))
        try edit(store, cy, set(2, 1))
        try edit(storeB, cy, set(3, 1))
        let theirBo = try XCTUnwrap(try storeB.load("Field").get().records.first { $0.instanceID == bo })
        try copyToStick(from: laptopB)
        XCTAssertEqual(try survey("merge", stickFile), Outcome(status: 0, stdout: """
            merge     \(ana)
            update    \(bo)
            conflict  \(cy)  a
            Merged \(stickFile) into “Field”: 1 updated, 1 merged, 1 in conflict (survey conflicts lists them)

            """, stderr: ""), "total and twice clashed on Cy too: the form decides them")
        let merged = Array(try store.load("Field").get().records)
        XCTAssertEqual(merged.map { [$0["a"], $0["b"], $0["total"], $0["twice"]] }, [
            [.integer(2), .integer(5), .string("7"), .string("4")],
            [.integer(5), .integer(7), .string("12"), .string("10")],
            [.integer(2), .integer(1), .string("3"), .string("4")],
        ], "Ana's total is the form's for the answers merged, neither side's")
        XCTAssertEqual(merged[1], theirBo, "taken whole from B: B's survey exactly")
        XCTAssertEqual(try survey("conflicts").stdout, """
            ID                                         FIELD  BASE  MINE  THEIRS
            \(cy)  a      1     2     3

            """)
    }

    func testAClashIsListedAndResolvedNeverLastWriterWins() throws {
        try twoLaptopsThatMetOnce()
        try edit(store, ana) { $0["age"] = .integer(31) }
        try edit(storeB, ana) { $0["age"] = .integer(32); $0["phone"] = .string("555") }
        try copyToStick(from: laptopB)
        XCTAssertEqual(try survey("merge", stickFile, "--dry-run").stdout, """
            conflict  \(ana)  age
            Dry run: merging \(stickFile) into “Field”: would be 1 in conflict; nothing was written

            """)
        XCTAssertEqual(try survey("merge", stickFile).status, 0)
        XCTAssertEqual(try store.load("Field").get().records.first?["age"], .integer(31), "mine stays until resolved")
        XCTAssertEqual(try store.load("Field").get().records.first?["phone"], .string("555"), "the other change landed")
        XCTAssertEqual(try survey("conflicts"), Outcome(status: 0, stdout: """
            ID                                         FIELD  BASE  MINE  THEIRS
            \(ana)  age    30    31    32

            """, stderr: ""))
        XCTAssertEqual(try survey("conflicts", "--format", "json").stdout, """
            [
              {
                "base": 30,
                "field": "age",
                "id": "\(ana)",
                "mine": 31,
                "theirs": 32
              }
            ]

            """)
        XCTAssertEqual(try survey("resolve", ana, "age").status, 2, "a choice is required")
        XCTAssertEqual(try survey("resolve", ana, "phone", "--mine"),
                       Outcome(status: 1, stdout: "", stderr: "survey: \(ana) has no conflict at phone (its conflicts: age)\n"))
        XCTAssertEqual(try survey("resolve", ana, "age", "--value", "33"), Outcome(
            status: 0, stdout: "Resolved 1 conflict of \(ana) in “Field”: it goes out at the next sync\n", stderr: ""))
        XCTAssertEqual(try store.load("Field").get().records.first?["age"], .integer(33))
        XCTAssertEqual(try survey("conflicts").stdout, "ID  FIELD  BASE  MINE  THEIRS\n")
        // The resolution reaches B as a fast-forward: B had not changed Ana since.
        try copyToStick(from: documents)
        XCTAssertEqual(try onB("merge", stickFile).stdout.split(separator: "\n").first, "update    \(ana)")
        XCTAssertEqual(try storeB.load("Field").get().records.first?["age"], .integer(33))
    }

    /// Issue 28: a roster merges member by member. A member added on A and another edited
    /// on B both land; a member deleted on A and edited on B is a conflict on that member,
    /// listed by its place and settled by it.
    func testARosterMergesMemberByMemberAndAMemberConflictIsListedAndResolvedByItsPlace() throws {
        try twoLaptopsThatMetOnce()
        func member(_ name: String, _ age: Int) -> PropertyValue { .dictionary(["name": .string(name), "age": .integer(age)]) }
        func roster(_ store: DocumentStore) throws -> PropertyValue? { try store.load("Field").get().records.first?["member"] }
        try edit(store, ana) { $0["member"] = .array([member("Ana", 30), member("Tom", 8)]) }
        try copyToStick(from: documents)
        XCTAssertEqual(try onB("merge", stickFile).status, 0)
        try copyToStick(from: laptopB)
        XCTAssertEqual(try survey("merge", stickFile).status, 0)

        // A adds Kim; B corrects Tom's age.
        try edit(store, ana) { $0["member"] = .array([member("Ana", 30), member("Tom", 8), member("Kim", 1)]) }
        try edit(storeB, ana) { $0["member"] = .array([member("Ana", 30), member("Tom", 9)]) }
        try copyToStick(from: laptopB)
        XCTAssertEqual(try survey("merge", stickFile).stdout, """
            merge     \(ana)
            Merged \(stickFile) into “Field”: 1 merged

            """)
        let merged = PropertyValue.array([member("Ana", 30), member("Tom", 9), member("Kim", 1)])
        XCTAssertEqual(try roster(store), merged)
        try copyToStick(from: documents)
        XCTAssertEqual(try onB("merge", stickFile).status, 0)
        XCTAssertEqual(try roster(storeB), merged)

        // A deletes Tom; B edits him again.
        try edit(store, ana) { $0["member"] = .array([member("Ana", 30), member("Kim", 1)]) }
        try edit(storeB, ana) { $0["member"] = .array([member("Ana", 30), member("Tom", 10), member("Kim", 1)]) }
        try copyToStick(from: laptopB)
        XCTAssertEqual(try survey("merge", stickFile).stdout.split(separator: "\n").first, "conflict  \(ana)  member[2]")
        XCTAssertEqual(try roster(store), .array([member("Ana", 30), member("Tom", 10), member("Kim", 1)]), "the edited Tom stays")
        XCTAssertEqual(try survey("conflicts").stdout, """
            ID                                         FIELD      BASE                         MINE       THEIRS
            \(ana)  member[2]  { "age": 9, "name": "Tom" }  (deleted)  { "age": 10, "name": "Tom" }

            """)
        XCTAssertEqual(try survey("resolve", ana, "member[2]", "--mine"), Outcome(
            status: 0, stdout: "Resolved 1 conflict of \(ana) in “Field”: it goes out at the next sync\n", stderr: ""))
        XCTAssertEqual(try roster(store), .array([member("Ana", 30), member("Kim", 1)]))
    }

    func testEditedHereDeletedThereIsAConflictAndTheSurveyStays() throws {
        try twoLaptopsThatMetOnce()
        try edit(store, ana) { $0["age"] = .integer(31) }
        XCTAssertEqual(try onB("delete", ana).status, 0)
        try copyToStick(from: laptopB)
        XCTAssertEqual(try survey("merge", stickFile).stdout.split(separator: "\n").first, "conflict  \(ana)  (survey)")
        XCTAssertEqual(try store.load("Field").get().records.count, 2, "the survey stays, marked")
        XCTAssertEqual(try survey("conflicts").stdout, """
            ID                                         FIELD     BASE    MINE    THEIRS
            \(ana)  (survey)  (kept)  (kept)  (deleted)

            """)
        XCTAssertEqual(try survey("delete", ana).stderr, "survey: \(ana) has a conflict to resolve first (survey conflicts): nothing was deleted\n")
        XCTAssertEqual(try survey("resolve", ana, "--theirs").status, 0)
        XCTAssertEqual(try store.load("Field").get().records.map(\.instanceID), [bo])
        XCTAssertEqual(store.deletedRecords(for: "Field").map(\.record.instanceID), [ana], "recoverable")
    }

    func testWithoutCompanionsAnAnswerOnlyOneSideHasIsTakenDifferentOnesClashAndASecondRunChangesNothing() throws {
        try store.save(SurveyDocument(records: [person("Ana", age: 30, id: ana)]), as: "Field")
        var theirs = person("Ana", age: 31, id: ana)
        theirs["village"] = .string("Ngong")
        try storeB.save(SurveyDocument(records: [theirs, person("Bo", age: 40, id: bo)]), as: "Field")
        XCTAssertEqual(try survey("merge", storeB.url(for: "Field").path).stdout, """
            conflict  \(ana)  age
            add       \(bo)
            Merged \(storeB.url(for: "Field").path) into “Field”: 1 added, 1 in conflict (survey conflicts lists them)

            """)
        let merged = try store.load("Field").get().records
        XCTAssertEqual(merged.first?["village"], .string("Ngong"), "only theirs has it: taken")
        XCTAssertEqual(merged.first?["age"], .integer(30), "both have it, differently: mine kept, in conflict")
        let before = try folderBytes(documents)
        XCTAssertEqual(try survey("merge", storeB.url(for: "Field").path).stdout,
                       "“Field” already has everything in \(storeB.url(for: "Field").path): nothing changed\n")
        XCTAssertEqual(try folderBytes(documents), before)
    }

    func testDryRunWritesNothing() throws {
        try twoLaptopsThatMetOnce()
        try edit(storeB, ana) { $0["age"] = .integer(50) }
        try copyToStick(from: laptopB)
        let before = try folderBytes(documents)
        XCTAssertEqual(try survey("merge", stickFile, "--dry-run").stdout, """
            update    \(ana)
            Dry run: merging \(stickFile) into “Field”: would be 1 updated; nothing was written

            """)
        XCTAssertEqual(try folderBytes(documents), before)
    }

    func testAHostileFileIsRefusedAndNeverWritten() throws {
        try twoLaptopsThatMetOnce()
        let before = try folderBytes(documents)
        let garbage = try scratchFile("garbage.plist", "garbage")
        let foreign = try scratchFile("foreign.plist", """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0"><dict><key>a</key><string>b</string></dict></plist>
            """)
        let huge = try scratchFile("huge.plist", "")
        let handle = try FileHandle(forWritingTo: huge)
        try handle.truncate(atOffset: 600 << 20)
        try handle.close()
        let fifo = root.appendingPathComponent("fifo.plist")
        XCTAssertEqual(mkfifo(fifo.path, 0o600), 0)
        let folder = root.appendingPathComponent("folder.plist", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let badLedgerFolder = root.appendingPathComponent("bad", isDirectory: true)
        try FileManager.default.createDirectory(at: badLedgerFolder, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: store.url(for: "Field"), to: badLedgerFolder.appendingPathComponent("Field.plist"))
        try Data("junk".utf8).write(to: badLedgerFolder.appendingPathComponent(".Field.sync.plist"))
        let cases: [(String, String)] = [
            (garbage.path, "survey: \(garbage.path): not a property list: it starts with 67 61 72 62"),
            (foreign.path, "survey: foreign.plist: not a survey document: the top level is a dictionary"),
            (huge.path, "survey: \(huge.path) is 600 MB, more than survey opens (512 MB)"),
            (fifo.path, "survey: \(fifo.path) is not a regular file"),
            (folder.path, "survey: \(folder.path) could not be read"),
            (root.appendingPathComponent("missing.plist").path, "survey: \(root.path)/missing.plist does not exist"),
            (store.url(for: "Field").path, "survey: \(store.url(for: "Field").path) is “Field” itself: nothing to merge"),
            (badLedgerFolder.appendingPathComponent("Field.plist").path, "survey: .Field.sync.plist: not a property list"),
        ]
        for (path, message) in cases {
            let outcome = try survey("merge", path, "--dry-run")
            XCTAssertEqual(outcome.status, 1, path)
            XCTAssertTrue(outcome.stderr.hasPrefix(message), "\(path): \(outcome.stderr)")
            XCTAssertEqual(outcome.stdout, "", path)
            let real = try survey("merge", stickFile, path)
            XCTAssertEqual(real.status, 1, "one bad file refuses the whole merge: \(path)")
        }
        XCTAssertEqual(try folderBytes(documents), before)
        XCTAssertEqual(try Data(contentsOf: garbage), Data("garbage".utf8))
        XCTAssertEqual(try FileManager.default.attributesOfItem(atPath: huge.path)[.size] as? Int, 600 << 20)
    }

    func testUsageErrors() throws {
        try store.save(SurveyDocument(), as: "Field")
        let cases: [([String], String)] = [
            (["merge"], "survey: missing file: survey merge FILE... [--doc NAME] [--dry-run]"),
            (["delete"], "survey: missing id: survey delete ID [--doc NAME] (survey list --format csv shows them)"),
            (["resolve", "x", "age", "--mine", "--theirs"],
             "survey: give one of --mine, --theirs or --value TEXT: survey resolve ID [FIELD] --mine|--theirs|--value TEXT [--doc NAME]"),
            (["resolve", "x", "--value", "3"],
             "survey: --value needs the FIELD it is for: survey resolve ID [FIELD] --mine|--theirs|--value TEXT [--doc NAME]"),
            (["conflicts", "--format", "csv"], "survey: unknown format “csv” for survey conflicts (use table, json)"),
            (["list", "--dry-run"], "survey: --dry-run only works with survey merge"),
        ]
        for (arguments, message) in cases {
            let outcome = try survey(arguments)
            XCTAssertEqual(outcome.status, 2, "\(arguments)")
            XCTAssertEqual(outcome.stderr.split(separator: "\n").first.map(String.init), message, "\(arguments)")
        }
    }

    func testTheNewCommandsAreInHelpManAndCompletion() throws {
        let help = try survey("--help").stdout
        let man = try survey("--man").stdout
        let bash = try survey("--completion", "bash").stdout
        for command in ["merge", "delete", "conflicts", "resolve"] {
            XCTAssertTrue(help.contains("survey \(command)"), command)
            XCTAssertTrue(man.contains(command), command)
            XCTAssertTrue(bash.contains(command), command)
        }
        for option in ["--dry-run", "--mine", "--theirs", "--value"] {
            XCTAssertTrue(help.contains(option), option)
            XCTAssertTrue(bash.contains(option), option)
        }
    }
}
