import Foundation
import XCTest
import SurveyTestSupport

/// The real binary, killed or starved of disk while something exists only in memory.
final class SafekeepingEndToEndTests: EndToEndTestCase {
    private var mountedFolder: URL?

    override func tearDownWithError() throws {
        try super.tearDownWithError()
        if let mountedFolder { _ = try? ChildProcess.run(["umount", "-l", mountedFolder.path]) }
    }

    /// The app's own process in the pane (the wrapper's child).
    private func appPID(_ app: TmuxSession) throws -> Int32 {
        let wrapper = try app.format("#{pane_pid}")
        let children = try String(contentsOfFile: "/proc/\(wrapper)/task/\(wrapper)/children", encoding: .utf8)
        guard let pid = children.split(separator: " ").compactMap({ Int32($0) }).first else {
            throw TmuxError("the app is not running under pane \(wrapper)")
        }
        return pid
    }

    func testSIGHUPWritesMemoryOnlyRecordsToARecoveryFileOfferedAtTheNextStart() throws {
        try installFixture("seed-serialized.xml", as: "Seed")
        let app = try launch()
        app.waitFor("Surveys (2)")
        try FileManager.default.removeItem(at: documentURL("Seed"))
        try app.press("Enter", "Enter")
        try app.type("ny")
        try app.press("Enter")
        app.waitFor("Document missing")
        try app.press("Escape")
        app.waitForAbsence(of: "Document missing")
        kill(try appPID(app), SIGHUP)
        _ = app.waitForExit()
        let contents = try folderContents()
        let kept = contents.filter { $0.hasPrefix(".Seed.recovered-") }
        XCTAssertEqual(kept.count, 1, "one recovery file: \(contents)")
        guard let file = kept.first else { return }
        guard case .array(let recovered) = try Plistlib.load(folder.appendingPathComponent(file)) else {
            return XCTFail("plistlib reads the recovery file as a list of records")
        }
        XCTAssertEqual(recovered.count, 2)
        XCTAssertEqual(recovered.first?["firstName"], .string("Johnny"), "with the typed entry")
        XCTAssertFalse(FileManager.default.fileExists(atPath: documentURL("Seed").path), "nothing recreated behind the user's back")

        let again = try launch()
        again.waitFor("Recovered surveys", "2 surveys of “Seed” kept on", "Smith, Johnny")
        // The offer takes a choice a second after it appears, and nothing on screen says when:
        // waiting that second out is the behaviour under test, not a guess.
        Thread.sleep(forTimeInterval: 1.2)
        try again.press("m")
        again.waitFor("Put 2 surveys back into “Seed” as new")
        XCTAssertEqual(try records(in: "Seed").map { $0["firstName"] }, [.string("Johnny"), .string("Doris")])
        XCTAssertEqual(try folderContents().filter { $0.contains(".recovered-") }, [])
    }

    func testOnAFullDiskCtrlQAsksBeforeDroppingTheEntry() throws {
        let mount = try ChildProcess.run(["mount", "-t", "tmpfs", "-o", "size=256k", "tmpfs", folder.path])
        guard mount.status == 0 else {
            throw XCTSkip("cannot mount a tmpfs here (needs root with the right to mount): \(mount)")
        }
        mountedFolder = folder
        try installFixture("seed-serialized.xml", as: "Seed")
        let app = try launch()
        app.waitFor("Surveys (2)")
        _ = try ChildProcess.run(["dd", "if=/dev/zero", "of=\(folder.path)/.filler", "bs=4k", "count=100"])
        try app.press("C-n")
        try app.type("Grace")
        try app.press("Enter")
        app.waitFor("Could not save the New form")
        try app.press("C-q")
        app.waitFor("Your entry is not saved")
        XCTAssertTrue(try app.screen().contains("Grace"), "the entry is still on the form")
        try app.press("C-q")
        XCTAssertEqual(app.waitForExit(), 0)
    }
}
