import Foundation
import XCTest
import SurveyTestSupport

/// A save clash in the real binary: another program (Python, holding the folder's lock as
/// every writer of survey documents does) changes the same survey's phone and its address
/// while the app saves an edit of the phone. The app keeps its own phone (already in its
/// journal), keeps theirs aside and offers it at once; "45⏎" typed into the offer chooses
/// nothing; `m` merges, and plistlib then finds both changes in the file.
final class KeptAsideEndToEndTests: EndToEndTestCase {
    private var editor: Process?

    override func tearDownWithError() throws {
        if let editor, editor.isRunning { editor.terminate() }
        try super.tearDownWithError()
    }

    /// Two surveys with ids, written by plistlib.
    private func writeDocument(_ name: String) throws {
        let script = #"""
            import plistlib, sys
            records = [
                {"firstName": "John", "lastName": "Smith", "address": "123 Any St.", "phone": "555-1234", "age": 20,
                 "instanceID": "uuid:0b1d4f2e-3c4a-4e5f-8a6b-7c8d9e0f1a2b"},
                {"firstName": "Doris", "lastName": "Jones", "address": "789 Town St.", "phone": "555-1234", "age": 40,
                 "instanceID": "uuid:1c2e5a3f-4d5b-4f6a-9b7c-8d9e0f1a2b3c"},
            ]
            with open(sys.argv[1], "wb") as f:
                plistlib.dump(records, f)
            """#
        let outcome = try ChildProcess.run(["python3", "-c", script, documentURL(name).path])
        XCTAssertEqual(outcome.status, 0, outcome.errors)
    }

    /// Python takes the folder's lock (`flock`, as survey's writers do), says so in `ready`,
    /// and when `go` appears changes John's phone and address and lets go.
    private func startEditor(document: URL, ready: URL, go: URL) throws {
        let script = #"""
            import fcntl, os, plistlib, sys, time
            folder, doc, ready, go = sys.argv[1:5]
            fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY)
            fcntl.flock(fd, fcntl.LOCK_EX)
            open(ready, "w").close()
            deadline = time.time() + 30
            while not os.path.exists(go) and time.time() < deadline:
                time.sleep(0.01)
            with open(doc, "rb") as f:
                records = plistlib.load(f)
            records[0]["phone"] = "000"
            records[0]["address"] = "1 New St."
            temporary = os.path.join(folder, "python-edit.tmp")
            with open(temporary, "wb") as f:
                plistlib.dump(records, f)
            os.replace(temporary, doc)
            fcntl.flock(fd, fcntl.LOCK_UN)
            """#
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", script, folder.path, document.path, ready.path, go.path]
        try process.run()
        editor = process
        guard Polling.until(timeout: 10, { FileManager.default.fileExists(atPath: ready.path) || !process.isRunning }),
              FileManager.default.fileExists(atPath: ready.path) else { throw TmuxError("the editor never took the folder's lock") }
    }

    func testAnotherProgramsChangeToTheSameSurveyIsKeptAsideAndMergingKeepsBoth() throws {
        try writeDocument("Site")
        let app = try launch()
        app.waitFor("Surveys (2)")
        let signals = FileManager.default.temporaryDirectory.appendingPathComponent("survey-e2e-signals-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: signals, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: signals) }
        let go = signals.appendingPathComponent("go")
        try startEditor(document: documentURL("Site"), ready: signals.appendingPathComponent("ready"), go: go)

        // John's phone, edited and kept: in the journal at once; the file waits for the lock.
        try app.press("Enter", "Down", "Down", "Down", "Enter")
        try app.type("9")
        try app.press("Enter")
        app.waitFor("555-12349")
        FileManager.default.createFile(atPath: go.path, contents: nil)
        editor?.waitUntilExit()
        XCTAssertEqual(editor?.terminationStatus, 0)

        app.waitFor("Recovered surveys", "Phone: yours 555-12349, theirs 000", "Only theirs changed: Address")
        // A keyer heads-down: "45⏎" goes to the offer, and chooses nothing.
        try app.type("45")
        try app.press("Enter")
        app.waitFor("Not typed: the kept surveys wait for a choice")
        XCTAssertTrue(try app.screen().contains("Recovered surveys"), "still offered")
        XCTAssertEqual(try folderContents().filter { $0.contains(".recovered-") && !$0.hasSuffix(".base.plist") }.count, 1)

        // The offer takes a choice a second after the last key, and nothing on screen says when:
        // waiting that second out is the behaviour under test, not a guess.
        Thread.sleep(forTimeInterval: 1.2)
        try app.press("m")
        app.waitFor("Merged 1 kept survey into “Site”")
        let john = try XCTUnwrap(try record(0, in: "Site"))
        XCTAssertEqual(john["phone"], .string("555-12349"), "ours")
        XCTAssertEqual(john["address"], .string("1 New St."), "theirs")
        XCTAssertEqual(try records(in: "Site").count, 2, "no second John")
        XCTAssertEqual(try folderContents().filter { $0.contains(".recovered-") }, [], "the kept file went to .trash")
        let trash = try FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent(".trash").path)
        XCTAssertEqual(trash.filter { $0.hasPrefix(".Site.recovered-") }.count, 2, "theirs and its base: \(trash)")
    }
}
