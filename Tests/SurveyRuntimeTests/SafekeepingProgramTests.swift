import Foundation
import XCTest
import SurveyTestSupport
import SurveyValues
import SurveyForms
import SurveyStorage
@testable import SurveyUI
@testable import SurveyRuntime

/// What exists only in memory is never lost without asking: a second window's New form,
/// a failed save, a signal while records have no file, a rename made outside the app.
final class SafekeepingProgramTests: XCTestCase {
    var folder: URL!
    var store: DocumentStore!
    /// The kept surveys' offer takes a choice only a second after it appears: moved on by hand.
    let clock = TestClock()

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("survey-safe-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        store = DocumentStore(folder: folder)
        try store.save(SurveyDocument(records: sampleRecords()), as: "Site")
    }

    override func tearDownWithError() throws {
        _ = try? ChildProcess.run(["chattr", "-i", folder.path])
        try? FileManager.default.removeItem(at: folder)
    }

    private func launch(_ name: String = "Site") -> Program {
        Program(store: store, documentName: name, size: Size(width: 120, height: 40),
                memory: SessionMemory(url: folder.appendingPathComponent(".state-for-test/state.plist")),
                clock: clock.wallClock)
    }

    /// Makes every write in the folder fail (as a full disk or a read-only mount would).
    private func freezeFolder() throws {
        XCTAssertEqual(try ChildProcess.run(["chattr", "+i", folder.path]).status, 0, "chattr +i failed")
    }

    private func thawFolder() throws {
        XCTAssertEqual(try ChildProcess.run(["chattr", "-i", folder.path]).status, 0, "chattr -i failed")
    }

    // Item 1
    func testTwoWindowsTypingNewFormsKeepBoth() throws {
        var a = launch(), b = launch()
        a.press(.control("n"))
        a.type("Ada")
        a.press(.enter)
        a.press(.control("q"))
        XCTAssertTrue(a.isFinished)
        b.press(.control("n"))
        b.type("Bea")
        b.press(.enter)
        XCTAssertEqual(store.loadDraft(for: "Site").listTitle, "Bea", "B's New form is B's")
        XCTAssertEqual(store.recoveries().map { $0.records.map(\.listTitle) }, [["Ada"]], "A's was kept, not overwritten")
        XCTAssertEqual(b.state.status?.kind, .error)
        XCTAssertTrue(b.state.status?.text.hasPrefix("Another survey window had saved a New form here (Ada): kept it as .Site.recovered-") == true,
                      b.state.status?.text ?? "")
        b.press(.control("q"))
        // The next start offers A's entry back; m adds it to the document.
        var c = launch()
        guard case .recovery(let offered) = c.state.popover else { return XCTFail("offers the kept survey") }
        XCTAssertEqual(offered.records.map(\.listTitle), ["Ada"])
        XCTAssertTrue(c.screen.lines.joined().contains("1 survey of “Site” kept on"))
        clock.advance(2)
        c.press(.character("m"))
        XCTAssertEqual(try store.load("Site").get().records.map(\.listTitle), ["Smith, John", "Jones, Doris", "Ada"])
        XCTAssertEqual(store.recoveries(), [])
        XCTAssertNil(c.state.popover)
        XCTAssertEqual(c.state.recordCount, 3, "the document was re-read")
        XCTAssertEqual(c.state.draft.listTitle, "Bea", "B's New form is still the New form")
    }

    // Item 2
    func testCtrlQAsksWhenAFailedSaveLeftTheEntryOnlyOnScreen() throws {
        var p = launch()
        p.press(.control("n"))
        p.type("Grace")
        try freezeFolder()
        p.press(.enter)
        XCTAssertEqual(p.state.editing?.text, "Grace", "the entry is back on the form")
        XCTAssertTrue(p.state.draft.isBlank(in: .standard), "the New form in memory is what is on disk")
        p.press(.control("q"))
        XCTAssertFalse(p.isFinished, "the first Ctrl-Q asks")
        XCTAssertTrue(p.state.status?.text.hasPrefix("Your entry is not saved (") == true, p.state.status?.text ?? "")
        XCTAssertEqual(p.state.editing?.text, "Grace")
        p.press(.control("q"))
        XCTAssertTrue(p.isFinished, "the second leaves")
    }

    func testASuccessfulSaveAfterAFailureQuitsAtOnceAgain() throws {
        var p = launch()
        p.press(.control("n"))
        p.type("Grace")
        try freezeFolder()
        p.press(.enter)
        try thawFolder()
        p.press(.enter)
        XCTAssertEqual(store.loadDraft(for: "Site").listTitle, "Grace")
        p.press(.control("q"))
        XCTAssertTrue(p.isFinished)
    }

    // Item 13
    func testAFailedClearPutsTheNewFormBack() throws {
        var p = launch()
        p.press(.control("n"))
        p.type("Keep")
        p.press(.enter)                 // kept, and on to Last name
        try freezeFolder()
        for _ in 0..<4 { p.press(.down) }
        XCTAssertEqual(p.state.formItem, .clear)
        p.press(.enter)
        XCTAssertEqual(p.state.draft.listTitle, "Keep", "the screen shows what is on disk")
        XCTAssertEqual(p.state.shownForm.fieldText(0), "Keep")
        XCTAssertTrue(p.state.status?.text.hasPrefix("Could not save the New form:") == true, p.state.status?.text ?? "")
        try thawFolder()
        XCTAssertEqual(store.loadDraft(for: "Site").listTitle, "Keep")
    }

    // Item 3
    func testASignalWhileRecordsExistOnlyInMemoryKeepsThemForTheNextStart() throws {
        var p = launch()
        try FileManager.default.removeItem(at: store.url(for: "Site"))
        p.press(.enter, .enter)
        p.type("ny")
        p.press(.enter, .escape)          // the save finds the file gone; Esc: not now
        XCTAssertTrue(p.state.session.documentMissing)
        p.terminate()                       // SIGHUP, SIGTERM or a closed terminal
        XCTAssertTrue(p.isFinished)
        let kept = store.recoveries()
        XCTAssertEqual(kept.map(\.documentName), ["Site"])
        XCTAssertEqual(kept.first?.records.map(\.listTitle), ["Smith, Johnny", "Jones, Doris"], "with the typed entry")
        XCTAssertFalse(store.exists("Site"))
        // The next start (on another document) offers them; d discards them to the trash.
        try store.save(SurveyDocument(), as: "Other")
        var q = launch("Other")
        guard case .recovery = q.state.popover else { return XCTFail("offered at the next start") }
        clock.advance(2)
        q.press(.escape)
        XCTAssertNil(q.state.popover, "Esc: later")
        var r = launch("Other")
        clock.advance(2)
        r.press(.character("d"))
        XCTAssertEqual(store.recoveries(), [])
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: store.trashFolder.path).count, 1)
        XCTAssertTrue(r.state.status?.text.hasPrefix("Moved 2 recovered surveys to .trash") == true)
    }

    func testPuttingBackRecordsOfAVanishedDocumentRecreatesIt() throws {
        try store.saveRecovery(sampleRecords(), for: "Gone", at: Date())
        var p = launch()
        clock.advance(2)
        p.press(.character("m"))
        XCTAssertEqual(p.state.documentName, "Gone")
        XCTAssertEqual(try store.load("Gone").get().records.map(\.listTitle), ["Smith, John", "Jones, Doris"])
    }

    func testATerminateWithNothingOnlyInMemoryWritesNoRecovery() throws {
        var p = launch()
        p.press(.enter, .enter)
        p.type("ny")
        p.terminate()
        XCTAssertEqual(try store.load("Site").get().records[0].listTitle, "Smith, Johnny", "the valid field is saved")
        XCTAssertEqual(store.recoveries(), [])
    }

    // Item 5
    func testARenameFromOutsideIsFollowedWithTheNewForm() throws {
        var p = launch()
        p.press(.control("n"))
        p.type("Ann")
        p.press(.tab)
        try store.rename("Site", to: "Site North", at: Date())      // `survey docs rename Site 'Site North'`
        p.type("Lee")
        p.press(.tab)
        XCTAssertEqual(p.state.documentName, "Site North")
        XCTAssertEqual(store.loadDraft(for: "Site North").listTitle, "Lee, Ann")
        XCTAssertFalse(FileManager.default.fileExists(atPath: store.draftURL(for: "Site").path), "no orphan draft")
        XCTAssertEqual(p.state.status?.text, "“Site” was renamed to “Site North” outside survey: following it")
        XCTAssertEqual(store.recoveries(), [], "the moved New form is ours, not another window's")
    }

    func testAPlainMoveIsFollowedAndTheNewFormGoesWithIt() throws {
        var p = launch()
        p.press(.control("n"))
        p.type("Ann")
        p.press(.tab)
        try FileManager.default.moveItem(at: store.url(for: "Site"), to: store.url(for: "Moved"))
        p.press(.escape, .control("n"))
        XCTAssertEqual(p.state.documentName, "Site", "not noticed before the next save")
        for _ in 0..<4 { p.press(.down) }
        p.press(.enter)
        p.type("7")
        p.press(.enter)
        XCTAssertEqual(p.state.documentName, "Moved")
        XCTAssertEqual(store.loadDraft(for: "Moved").values["age"], .integer(7))
        XCTAssertFalse(FileManager.default.fileExists(atPath: store.draftURL(for: "Site").path))
    }

    /// A form without a `public_key` (its surveys are in clear in the document anyway): an Add
    /// gives the New form no id before its save and writes no mark, as before the mark existed.
    /// A crash between the save and the removal of the New form's file (the removal fails here)
    /// leaves it offered again at the next start, unmarked, as before: never removed unseen.
    func testAPlainFormsAddWritesNoMarkAndItsLeftFileIsOfferedAsBefore() throws {
        let before = try store.load("Site").get().records.count
        let stuck = DocumentStore(folder: folder, fileSystem: .failing { operation, path in
            operation == .unlink && (path?.hasSuffix(".Site.draft.plist") ?? false) ? EIO : nil
        })
        var p = Program(store: stuck, documentName: "Site", size: Size(width: 120, height: 40))
        p.press(.control("n"))
        p.type("Ada")
        p.press(.enter)
        XCTAssertNil(stuck.loadDraft(for: "Site").instanceID, "no id before the save")
        var steps = 0
        while p.state.formItem != .add, steps < 12 { p.press(.down); steps += 1 }
        p.press(.enter)                                  // [ Add ]: the file's removal fails
        let records = try store.load("Site").get().records
        XCTAssertEqual(records.count, before + 1, p.state.statusText ?? "")
        XCTAssertNotNil(records.last?.instanceID, "its id from the save")
        XCTAssertNil(store.draftBeingStoredAs(for: "Site"), "no mark for a form that does not encrypt")
        XCTAssertEqual(store.loadDraft(for: "Site")["firstName"], .string("Ada"))
        var q = launch()
        XCTAssertEqual(q.state.draft["firstName"], .string("Ada"), "offered again, as before")
        XCTAssertNil(q.state.draft.instanceID)
        XCTAssertTrue(FileManager.default.fileExists(atPath: store.draftURL(for: "Site").path))
        q.press(.control("q"))
        XCTAssertEqual(try store.load("Site").get().records.count, before + 1)
    }
}
