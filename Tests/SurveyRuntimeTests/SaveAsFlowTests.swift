import Foundation
import XCTest
import SurveyTestSupport
import SurveyValues
import SurveyForms
import SurveyStorage
@testable import SurveyUI
@testable import SurveyRuntime

/// The save-as box and deleting the last document say what really happened.
final class SaveAsFlowTests: XCTestCase {
    var folder: URL!
    var store: DocumentStore!
    var mounted = false

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("survey-saveas-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        store = DocumentStore(folder: folder)
    }

    override func tearDownWithError() throws {
        if mounted { _ = try? ChildProcess.run(["umount", folder.path]) }
        try? FileManager.default.removeItem(at: folder)
    }

    /// The save-as box that appears unasked takes keys a second after it appears.
    let clock = TestClock()

    private func launch(_ name: String) -> Program {
        Program(store: store, documentName: name, size: Size(width: 120, height: 40), memory: nil, clock: clock.wallClock)
    }

    func testACorruptedFileSuggestsAFreeNameThatIsAccepted() throws {
        try store.save(SurveyDocument(records: sampleRecords()), as: "Farm")
        var p = launch("Farm")
        try Data("garbage, not a plist".utf8).write(to: store.url(for: "Farm"))
        p.press(.enter, .enter)
        p.handle(.key(.character("!")))
        p.press(.enter)
        guard case .saveAs(let buffer) = p.state.popover else { return XCTFail("offers a name") }
        XCTAssertEqual(buffer.text, "Farm 2", "not the name the unreadable file still holds")
        p.press(.enter)
        XCTAssertEqual(p.state.documentName, "Farm", "an Enter as the box appears is not taken")
        clock.advance(2)
        p.press(.enter)
        XCTAssertEqual(p.state.documentName, "Farm 2")
        XCTAssertEqual(try store.load("Farm 2").get().records.count, 2)
        XCTAssertEqual(try Data(contentsOf: store.url(for: "Farm")), Data("garbage, not a plist".utf8), "left as it is")
    }

    /// On a full disk, deleting the only document would leave nothing to show: it is refused
    /// with the reason, instead of a later "deleted or renamed outside survey".
    func testDeletingTheOnlyDocumentOnAFullDiskIsRefusedWithTheReason() throws {
        let mount = try ChildProcess.run(["mount", "-t", "tmpfs", "-o", "size=64k,nr_inodes=8", "tmpfs", folder.path])
        guard mount.status == 0 else {
            throw XCTSkip("cannot mount a tmpfs here (needs root with the right to mount): \(mount)")
        }
        mounted = true
        try store.save(SurveyDocument(records: sampleRecords()), as: "Only")
        try FileManager.default.createDirectory(at: store.trashFolder, withIntermediateDirectories: true)
        // Fill the disk: blocks and inodes.
        _ = try ChildProcess.run(["dd", "if=/dev/zero", "of=\(folder.path)/.filler", "bs=1k", "count=200"])
        var i = 0
        while FileManager.default.createFile(atPath: folder.appendingPathComponent(".i\(i)").path, contents: nil) { i += 1 }
        var p = launch("Only")
        p.press(.function(3), .character("d"), .character("y"))
        XCTAssertTrue(store.exists("Only"), "nothing was deleted")
        XCTAssertFalse(p.state.session.documentMissing)
        XCTAssertEqual(p.state.documentName, "Only")
        XCTAssertTrue(p.state.status?.text.hasPrefix("Could not delete “Only”: a new document to show instead could not be created") == true,
                      p.state.status?.text ?? "")
        p.press(.escape)
        p.send(.system(.refreshTick))
        XCTAssertNil(p.state.popover, "no save-as offer for a document that is still there")
    }
}
