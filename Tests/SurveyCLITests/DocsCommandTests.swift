import Foundation
import XCTest
import SurveyValues
import SurveyForms
import SurveyStorage

final class DocsCommandTests: CLITestCase {
    func testNewCreatesAnEmptyDocument() throws {
        XCTAssertEqual(try survey("docs", "new", " Market Street.plist "),
                       Outcome(status: 0, stdout: "Created “Market Street”\n", stderr: ""))
        XCTAssertEqual(try folderContents(), ["Market Street.plist"])
        XCTAssertTrue(try String(contentsOf: store.url(for: "Market Street"), encoding: .utf8).contains("<array/>"))
    }

    func testNewCreatesAMissingFolder() throws {
        let nested = root.appendingPathComponent("a/b")
        XCTAssertEqual(try survey(["docs", "new", "X", "--dir", nested.path], dir: false).status, 0)
        XCTAssertEqual(try folderContents(nested), ["X.plist"])
    }

    func testNewRefusesATakenOrInvalidName() throws {
        try store.save(records(2), as: "Field")
        XCTAssertEqual(try survey("docs", "new", "FIELD"),
                       Outcome(status: 1, stdout: "", stderr: "survey: A document named “Field” already exists\n"))
        XCTAssertEqual(try survey("docs", "new", ".hidden"),
                       Outcome(status: 1, stdout: "", stderr: "survey: A document name cannot start with \".\"\n"))
        XCTAssertEqual(try survey("docs", "new", "  "),
                       Outcome(status: 1, stdout: "", stderr: "survey: A document name cannot be empty\n"))
        XCTAssertEqual(try folderContents(), ["Field.plist"])
        XCTAssertEqual(try store.load("Field").get().records.count, 2)
    }

    func testDoubleDashAllowsNamesStartingWithADash() throws {
        XCTAssertEqual(try survey("docs", "new", "--", "-weird-").stdout, "Created “-weird-”\n")
        XCTAssertEqual(try survey("docs", "rename", "--", "-weird-", "--odd").stdout, "Renamed “-weird-” to “--odd”\n")
        XCTAssertEqual(try store.documentNames(), ["--odd"])
        XCTAssertEqual(try survey("docs", "rm", "--", "--odd").stdout, "Moved “--odd” (0 records) to the trash\n")
        XCTAssertEqual(try store.documentNames(), [])
    }

    func testRenameMovesTheDocumentAndItsDraft() throws {
        try store.save(records(3), as: "Old")
        try store.saveDraft(Record(["firstName": .string("Half")]), for: "Old", in: .standard)
        XCTAssertEqual(try survey("docs", "rename", "old", "New"),
                       Outcome(status: 0, stdout: "Renamed “Old” to “New”\n", stderr: ""))
        XCTAssertEqual(try folderContents(), [".New.draft.plist", "New.plist"])
        XCTAssertEqual(try store.load("New").get(), records(3))
    }

    func testRenameChangingOnlyTheCase() throws {
        try store.save(records(1), as: "field")
        XCTAssertEqual(try survey("docs", "rename", "field", "Field").stdout, "Renamed “field” to “Field”\n")
        XCTAssertEqual(try folderContents(), ["Field.plist"])
    }

    func testRenameToTheSameNameDoesNothing() throws {
        try store.save(records(1), as: "Same")
        XCTAssertEqual(try survey("docs", "rename", "Same", "Same.plist"),
                       Outcome(status: 0, stdout: "“Same” already has that name: nothing to do\n", stderr: ""))
        XCTAssertEqual(try folderContents(), ["Same.plist"])
        XCTAssertFalse(FileManager.default.fileExists(atPath: stateFile.path))
    }

    func testRenameRefusals() throws {
        try store.save(records(1), as: "A")
        try store.save(records(2), as: "B")
        XCTAssertEqual(try survey("docs", "rename", "A", "b"),
                       Outcome(status: 1, stdout: "", stderr: "survey: A document named “B” already exists\n"))
        XCTAssertEqual(try survey("docs", "rename", "Gone", "C"),
                       Outcome(status: 1, stdout: "", stderr: "survey: “Gone” does not exist\n"))
        XCTAssertEqual(try survey("docs", "rename", "A", "x/y"),
                       Outcome(status: 1, stdout: "", stderr: "survey: A document name cannot contain \"/\"\n"))
        XCTAssertEqual(try folderContents(), ["A.plist", "B.plist"])
        XCTAssertEqual(try store.load("B").get(), records(2))
    }

    func testRmMovesToTheTrashAndCountsRecords() throws {
        try store.save(records(3), as: "Three")
        try store.save(records(1), as: "One")
        try Data("garbage".utf8).write(to: store.url(for: "Broken"))
        XCTAssertEqual(try survey("docs", "rm", "Three"),
                       Outcome(status: 0, stdout: "Moved “Three” (3 records) to the trash\n", stderr: ""))
        XCTAssertEqual(try survey("docs", "rm", "one").stdout, "Moved “One” (1 record) to the trash\n")
        XCTAssertEqual(try survey("docs", "rm", "Broken").stdout, "Moved “Broken” to the trash\n")
        XCTAssertEqual(try folderContents(), [".trash"])
        let trashed = try folderContents(store.trashFolder)
        XCTAssertEqual(trashed.count, 3)
        XCTAssertTrue(trashed.allSatisfy { $0.range(of: #"^(Broken|One|Three) \(deleted \d{4}-\d\d-\d\d \d\d\.\d\d\.\d\d\)\.plist$"#,
                                                    options: .regularExpression) != nil }, "\(trashed)")
    }

    func testRmOfAMissingDocumentIsRefused() throws {
        XCTAssertEqual(try survey("docs", "rm", "Nothing"),
                       Outcome(status: 1, stdout: "", stderr: "survey: “Nothing” does not exist\n"))
    }

    func testRestoreBringsBackTheLatestDeletion() throws {
        try store.save(records(2), as: "A")
        try store.saveDraft(Record(["firstName": .string("Half")]), for: "A", in: .standard)
        _ = try survey("docs", "rm", "A")
        XCTAssertEqual(try survey("docs", "restore"), Outcome(status: 0, stdout: "Restored “A”\n", stderr: ""))
        XCTAssertEqual(try folderContents(), [".A.draft.plist", ".trash", "A.plist"])
        XCTAssertEqual(try store.load("A").get(), records(2))
        XCTAssertEqual(try folderContents(store.trashFolder), [])
    }

    func testRestoreUnderATakenNameAndByName() throws {
        try store.save(records(2), as: "A")
        _ = try survey("docs", "rm", "A")
        try store.save(records(0), as: "B")
        _ = try survey("docs", "rm", "B")
        try store.save(records(0), as: "a")
        XCTAssertEqual(try survey("docs", "restore", "A.plist").stdout, "Restored “A” as “A 2”\n")
        XCTAssertEqual(try store.load("A 2").get(), records(2))
        XCTAssertEqual(try survey("docs", "restore", "Zed"),
                       Outcome(status: 1, stdout: "", stderr: "survey: Nothing named “Zed” in the trash\n"))
        XCTAssertEqual(try survey("docs", "restore", "b").stdout, "Restored “B”\n")
        XCTAssertEqual(try survey("docs", "restore"),
                       Outcome(status: 1, stdout: "", stderr: "survey: The trash is empty\n"))
        XCTAssertEqual(try store.documentNames(), ["a", "A 2", "B"])
    }
}
