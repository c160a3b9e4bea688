import Foundation
import XCTest
#if canImport(Glibc)
import Glibc
#endif
@testable import SurveyValues
@testable import SurveyForms
@testable import SurveyStorage

/// Temporary files of saves killed half-way (`.NAME.plist.tmp-PID-RANDOM`) are removed at
/// the next start or save in the folder once their writer is gone; a live writer's are kept.
final class TemporaryFileCleanupTests: TemporaryFolderTestCase {
    /// The PID of a process that has exited and been reaped.
    private func deadPID() throws -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/true")
        try process.run()
        process.waitUntilExit()
        return process.processIdentifier
    }

    @discardableResult
    private func leftover(_ name: String, pid: Int32, minutesAgo: Double) throws -> String {
        let file = ".\(name).tmp-\(pid)-1f2e3d"
        let url = folder.appendingPathComponent(file)
        try Data(repeating: 0x3C, count: 1000).write(to: url)
        try FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(-minutesAgo * 60)],
                                              ofItemAtPath: url.path)
        return file
    }

    func testADeadWritersTemporaryFileIsRemovedAtTheNextSave() throws {
        try store.save(SurveyDocument(), as: "K2")
        try leftover("K2.plist", pid: try deadPID(), minutesAgo: 30)
        try store.save(SurveyDocument(records: [Record.sample()]), as: "K2")
        XCTAssertEqual(try folderContents(), ["K2.plist"])
    }

    func testADeadWritersTemporaryFileIsRemovedAtTheNextStart() throws {
        try store.save(SurveyDocument(), as: "K2")
        try store.saveDraft(Record.sample(), for: "K2", in: .standard)
        try leftover("K2.plist", pid: try deadPID(), minutesAgo: 30)
        try leftover("K2.draft.plist", pid: try deadPID(), minutesAgo: 30)
        XCTAssertEqual(try store.prepare(requested: nil), "K2")
        XCTAssertEqual(try folderContents(), [".K2.draft.plist", "K2.plist"])
    }

    func testLiveWritersAndFreshFilesAreKept() throws {
        try store.save(SurveyDocument(), as: "K2")
        let sleeper = Process()
        sleeper.executableURL = URL(fileURLWithPath: "/bin/sleep")
        sleeper.arguments = ["30"]
        try sleeper.run()
        defer { sleeper.terminate(); sleeper.waitUntilExit() }
        let kept = [
            try leftover("K2.plist", pid: getpid(), minutesAgo: 120),                 // our own
            try leftover("K2.plist", pid: sleeper.processIdentifier, minutesAgo: 0),  // a live process, just written
            try leftover("K2.plist", pid: try deadPID(), minutesAgo: 0),              // still being written elsewhere?
        ]
        try store.save(SurveyDocument(records: [Record.sample()]), as: "K2")
        _ = try store.prepare(requested: nil)
        XCTAssertEqual(try folderContents(), (kept + ["K2.plist"]).sorted())
    }

    /// A temporary name whose document is not there may be the only copy of it (a rename
    /// that parked it was interrupted), so it is never removed.
    func testATemporaryFileWithoutItsDocumentIsKept() throws {
        let orphan = try leftover("Gone.plist", pid: try deadPID(), minutesAgo: 30)
        try store.save(SurveyDocument(), as: "Other")
        XCTAssertEqual(try folderContents(), [orphan, "Other.plist"])
    }
}
