import Foundation
import XCTest
#if canImport(Glibc)
import Glibc
#endif
import SurveyTestSupport
import SurveyValues
import SurveyForms
import SurveyStorage

/// A team folder shared by several users: a save by one must leave the file owned by whoever
/// owned it, in its group, with its mode, or be refused; never lock the owner out. The tests
/// run as root and run `survey` as other numeric users through setpriv.
final class SharedFolderTests: CLITestCase {
    private let field: gid_t = 2000

    override func setUpWithError() throws {
        try super.setUpWithError()
        guard geteuid() == 0 else { return XCTFail("the tests run as root, to act as other users") }
        XCTAssertEqual(chmod(root.path, 0o755), 0)
        try FileManager.default.createDirectory(at: stateHome, withIntermediateDirectories: true)
        XCTAssertEqual(chmod(stateHome.path, 0o777), 0)
    }

    private func surveyAs(uid: uid_t, groups: [gid_t], _ arguments: [String]) throws -> Outcome {
        let groupOptions = groups.isEmpty ? ["--clear-groups"] : ["--groups=" + groups.map(String.init).joined(separator: ",")]
        let command = ["/usr/bin/setpriv", "--reuid=\(uid)", "--regid=\(uid)"] + groupOptions
            + [Self.binary.path, "--dir", documents.path] + arguments
        return Outcome(try ChildProcess.run(command, environment: childEnvironment))
    }

    private func owner(_ url: URL) -> (uid: uid_t, gid: gid_t, mode: mode_t) {
        var status = stat()
        XCTAssertEqual(stat(url.path, &status), 0)
        return (status.st_uid, status.st_gid, status.st_mode & 0o7777)
    }

    func testAnotherMembersSaveKeepsOwnerGroupAndMode() throws {
        XCTAssertEqual(chown(documents.path, 0, field), 0)
        XCTAssertEqual(chmod(documents.path, 0o770), 0)
        let url = store.url(for: "X")
        try store.save(records(1), as: "X")
        XCTAssertEqual(chown(url.path, 1000, field), 0)
        XCTAssertEqual(chmod(url.path, 0o660), 0)

        let outcome = try surveyAs(uid: 1001, groups: [field], ["add", "--doc", "X", "--first", "A", "--last", "B"])
        XCTAssertEqual(outcome, Outcome(status: 0, stdout: "Added survey 2: B, A\n", stderr: ""))
        let after = owner(url)
        XCTAssertEqual(after.uid, 1000, "still the owner's")
        XCTAssertEqual(after.gid, field, "still the team's")
        XCTAssertEqual(after.mode, 0o660)
        XCTAssertEqual(try store.load("X").get().records.count, 2)
        XCTAssertEqual(try folderContents(), ["X.plist"], "no backup or temporary file left")

        // And the owner can still save after the other member did.
        let back = try surveyAs(uid: 1000, groups: [field], ["add", "--doc", "X", "--first", "C", "--last", "D"])
        XCTAssertEqual(back.status, 0, back.stderr)
        XCTAssertEqual(owner(url).uid, 1000)
        XCTAssertEqual(try store.load("X").get().records.count, 3)
    }

    func testAFileThatCanNeitherKeepItsOwnerNorBeWrittenInPlaceIsRefused() throws {
        XCTAssertEqual(chmod(documents.path, 0o777), 0)
        let url = store.url(for: "X")
        try store.save(records(1), as: "X")
        XCTAssertEqual(chown(url.path, 1000, 1000), 0)
        XCTAssertEqual(chmod(url.path, 0o644), 0)
        let before = try Data(contentsOf: url)

        let outcome = try surveyAs(uid: 1001, groups: [], ["add", "--doc", "X", "--first", "A", "--last", "B"])
        XCTAssertEqual(outcome.status, 1)
        XCTAssertTrue(outcome.stderr.hasPrefix("survey: Could not save X.plist: it belongs to another user"), outcome.stderr)
        let after = owner(url)
        XCTAssertEqual(after.uid, 1000)
        XCTAssertEqual(after.gid, 1000)
        XCTAssertEqual(try Data(contentsOf: url), before)
        XCTAssertEqual(try folderContents(), ["X.plist"])
    }
}
