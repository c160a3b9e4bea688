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
        XCTAssertEqual(p.state.fieldText(0), "Keep")
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
        try store.saveRecovery(sampleRecords(), for: "Gone")
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
        try store.rename("Site", to: "Site North")      // `survey docs rename Site 'Site North'`
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

    /// Two windows on one document show the same New form (one file, with its survey's id).
    /// The first adds it; the second, having read the document since, adds it too: the second
    /// is another survey with an id of its own, never a second survey under the same id.
    func testTwoWindowsAddingTheSameNewFormNeverGiveOneIDTwice() throws {
        var a = launch()
        a.press(.control("n"))
        a.type("Ada")
        a.press(.enter)                                  // the New form's file, with its id
        let id = try XCTUnwrap(a.state.draft.instanceID)
        var b = launch()
        XCTAssertEqual(b.state.draft.instanceID, id, "the same New form")
        b.press(.control("n"))
        var steps = 0
        while b.state.formItem != .add, steps < 12 { b.press(.down); steps += 1 }
        b.press(.enter)                                  // [ Add ] in b
        XCTAssertEqual(try store.load("Site").get().records.last?.instanceID, id)
        b.press(.control("q"))
        // a reads the document again (its next save finds it changed), then adds its New form.
        a.press(.escape)
        a.press(.function(2))
        a.press(.home)
        a.press(.enter)
        if a.state.editing == nil { a.press(.enter) }
        a.type("ny"); a.press(.enter)                    // Smith, John → Johnny
        a.finishBackgroundWork()
        XCTAssertTrue(a.state.records.contains { $0.instanceID == id }, "a holds b's survey now")
        a.press(.control("n"))
        steps = 0
        while a.state.formItem != .add, steps < 12 { a.press(.down); steps += 1 }
        a.press(.enter)                                  // [ Add ] in a
        a.press(.control("q"))
        let ids = try store.load("Site").get().records.compactMap(\.instanceID)
        XCTAssertEqual(ids.count, 4, "\(ids)")
        XCTAssertEqual(Set(ids).count, ids.count, "one id twice: \(ids)")
    }

    /// Window b reads the New form window a wrote (its file, with a's id); a adds it; b keys on
    /// and adds its own before reading a's save. b's survey is another interview: it is added
    /// too (b's New form has an id of its own from b's first write of it), never dropped as
    /// the survey already in the file under that id.
    func testASecondWindowKeyingOnTheNewFormTheFirstAddedAddsItsOwn() throws {
        var a = launch()
        a.press(.control("n"))
        a.type("Ada")
        a.press(.enter)                                  // a's New form's file, with its id
        let id = try XCTUnwrap(a.state.draft.instanceID)
        var b = launch()
        XCTAssertEqual(b.state.draft.instanceID, id, "the same New form")
        var steps = 0
        while a.state.formItem != .add, steps < 12 { a.press(.down); steps += 1 }
        a.press(.enter)                                  // [ Add ] in a
        XCTAssertEqual(try store.load("Site").get().records.last?.instanceID, id)
        a.press(.control("q"))
        b.press(.control("n"))
        b.press(.down)
        b.type("Byron"); b.press(.enter)                 // b keys on
        XCTAssertTrue(b.state.draft.values.values.contains(.string("Byron")), b.state.statusText ?? "")
        steps = 0
        while b.state.formItem != .add, steps < 12 { b.press(.down); steps += 1 }
        b.press(.enter)                                  // [ Add ] in b
        b.press(.control("q"))
        let records = try store.load("Site").get().records
        XCTAssertEqual(records.count, 4, "\(records.map(\.listTitle)) \(b.state.statusText ?? "")")
        XCTAssertTrue(records.contains { $0.values.values.contains(.string("Byron")) }, "b's survey is in the file")
        let ids = records.compactMap(\.instanceID)
        XCTAssertEqual(Set(ids).count, 4, "\(ids)")
    }

    /// A New form read with the id of a survey in clear the document holds: emptied when each
    /// of its answers is the survey's; kept, under an id of its own, when it holds one the
    /// survey lacks (said).
    func testANewFormWithAStoredSurveysIDIsDroppedOnlyWhenItHoldsNothingMore() throws {
        var document = try store.load("Site").get()
        document.assignMissingInstanceIDs()
        try store.save(document, as: "Site")
        let stored = document.records[0]
        let id = try XCTUnwrap(stored.instanceID)
        let questionnaire = try store.questionnaire(for: "Site")
        for holdsMore in [false, true] {
            var draft = Record(["firstName": stored["firstName"] ?? .string(""), Record.instanceIDKey: .string(id)])
            if holdsMore { draft["phone"] = .string("555-9999") }
            try store.saveDraft(draft, for: "Site", in: questionnaire)
            var p = launch()
            if holdsMore {
                XCTAssertEqual(p.state.draft["phone"], .string("555-9999"), p.state.statusText ?? "")
                XCTAssertNotEqual(p.state.draft.instanceID, id)
                XCTAssertTrue(p.state.statusText?.contains("stays, as a survey of its own") ?? false, p.state.statusText ?? "")
                XCTAssertEqual(store.loadDraft(for: "Site")["phone"], .string("555-9999"))
            } else {
                XCTAssertTrue(p.state.draft.isBlank(in: p.state.draftQuestionnaire), "\(p.state.statusText ?? "") \(p.state.draft) \(String(describing: p.state.records.first))")
                XCTAssertFalse(FileManager.default.fileExists(atPath: store.draftURL(for: "Site").path))
            }
            p.press(.control("q"))
        }
    }
}
