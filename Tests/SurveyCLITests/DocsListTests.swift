import Foundation
import XCTest
import SurveyValues
import SurveyForms
import SurveyStorage

final class DocsListTests: CLITestCase {
    /// 2024-05-01 14:03:22 UTC; the child runs with TZ=UTC.
    private let mtime = Date(timeIntervalSince1970: 1_714_572_202)

    private func setModified(_ name: String) throws {
        try FileManager.default.setAttributes([.modificationDate: mtime], ofItemAtPath: store.url(for: name).path)
    }

    func testAnEmptyFolderPrintsOnlyTheHeader() throws {
        XCTAssertEqual(try survey("docs"), Outcome(status: 0, stdout: "NAME  RECORDS  MODIFIED\n", stderr: ""))
    }

    func testAFolderThatDoesNotExistYetIsEmptyAndNotCreated() throws {
        let missing = root.appendingPathComponent("missing")
        let outcome = try survey(["docs", "--dir", missing.path], dir: false)
        XCTAssertEqual(outcome, Outcome(status: 0, stdout: "NAME  RECORDS  MODIFIED\n", stderr: ""))
        XCTAssertFalse(FileManager.default.fileExists(atPath: missing.path))
    }

    func testAFolderThatIsAFileIsRefused() throws {
        let file = root.appendingPathComponent("file")
        try Data().write(to: file)
        let outcome = try survey(["--dir", file.path, "docs"], dir: false)
        XCTAssertEqual(outcome.status, 1)
        XCTAssertTrue(outcome.stderr.hasPrefix("survey: Could not list the folder \(file.path)"), outcome.stderr)
    }

    func testListsNamesRecordsAndModifiedTimesInAlignedColumns() throws {
        try store.save(records(12), as: "Market Street")
        try store.save(records(1), as: "b")
        try Data("garbage".utf8).write(to: store.url(for: "Broken"))
        try store.save(records(0), as: "山田")
        try store.saveDraft(Record(["firstName": .string("x")]), for: "b", in: .standard)
        for name in ["Market Street", "b", "Broken", "山田"] { try setModified(name) }
        let outcome = try survey("docs")
        XCTAssertEqual(outcome.status, 0)
        XCTAssertEqual(outcome.stderr, "")
        XCTAssertEqual(outcome.stdout.split(separator: "\n").map(String.init), [
            "NAME           RECORDS  MODIFIED",
            "b                    1  2024-05-01 14:03",
            "Broken               ?  2024-05-01 14:03  Broken.plist: not a property list: it starts with 67 61 72 62",
            "Market Street       12  2024-05-01 14:03",
            "山田                 0  2024-05-01 14:03",
        ])
    }

    func testDirWorksBeforeOrAfterTheCommand() throws {
        try store.save(records(2), as: "Only")
        try setModified("Only")
        let expected = "NAME  RECORDS  MODIFIED\nOnly        2  2024-05-01 14:03\n"
        XCTAssertEqual(try survey(["--dir", documents.path, "docs"], dir: false).stdout, expected)
        XCTAssertEqual(try survey(["docs", "--dir", documents.path], dir: false).stdout, expected)
        XCTAssertEqual(try survey(["docs", "--dir=\(documents.path)"], dir: false).stdout, expected)
    }

    func testTheFolderComesFromSurveyHomeWithoutDir() throws {
        try store.save(records(0), as: "FromEnv")
        let outcome = try survey(["docs"], dir: false, environment: ["SURVEY_HOME": documents.path])
        XCTAssertTrue(outcome.stdout.contains("\nFromEnv "), outcome.stdout)
    }

    func testControlCharactersInFileNamesAreNotSentToTheTerminal() throws {
        try store.save(records(0), as: "evil\u{1B}[2J")
        let outcome = try survey("docs")
        XCTAssertFalse(outcome.stdout.contains("\u{1B}"))
        XCTAssertTrue(outcome.stdout.contains("evil\u{FFFD}[2J"), outcome.stdout)
    }
}
