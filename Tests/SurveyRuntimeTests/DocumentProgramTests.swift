import Foundation
import XCTest
import SurveyValues
import SurveyForms
import SurveyStorage
@testable import SurveyUI
@testable import SurveyRuntime

/// The document manager end to end through `Program`, on a real folder.
final class DocumentProgramTests: XCTestCase {
    var folder: URL!
    var store: DocumentStore!
    var memoryURL: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("survey-docs-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        store = DocumentStore(folder: folder)
        memoryURL = folder.appendingPathComponent(".state-for-test/state.plist")
        try store.save(SurveyDocument(records: sampleRecords()), as: "Alpha")
        try store.save(SurveyDocument(records: [record("Solo", "One")]), as: "Beta")
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: folder)
    }

    /// The save-as box that appears when the file vanishes takes keys a second after it
    /// appears: moved on by hand.
    let clock = TestClock()

    private func launch(_ name: String = "Alpha") -> Program {
        Program(store: store, documentName: name, size: Size(width: 120, height: 40),
                memory: SessionMemory(url: memoryURL), clock: clock.wallClock)
    }

    func testF3ListsDocumentsWithCountsAndMarksTheCurrent() {
        var p = launch()
        p.press(.function(3))
        XCTAssertEqual(p.state.popover, .documents)
        XCTAssertEqual(p.state.documents.map(\.name), ["Alpha", "Beta"])
        XCTAssertEqual(p.state.documents.map(\.recordCount), [2, 1])
        XCTAssertEqual(p.state.managerCursor, 0)
        let screen = p.screen.lines.joined(separator: "\n")
        XCTAssertTrue(screen.contains("• Alpha"), screen)
    }

    func testEnterSwitchesAndRemembersTheRecordOfEach() throws {
        var p = launch()
        p.press(.down)                    // Alpha record 2
        p.press(.function(3), .down, .enter)
        XCTAssertNil(p.state.popover)
        XCTAssertEqual(p.state.documentName, "Beta")
        XCTAssertEqual(p.state.positionTitle, "1 of 1")
        p.press(.function(3), .up, .enter)
        XCTAssertEqual(p.state.documentName, "Alpha")
        XCTAssertEqual(p.state.shown, .record(1), "back at its last-viewed record")
        p.press(.control("q"))
        let memory = SessionMemory(url: memoryURL)
        XCTAssertEqual(memory.lastDocument(in: folder), "Alpha")
        XCTAssertEqual(memory.lastRecord(of: "Alpha", in: folder), 1)
    }

    func testSwitchingCommitsTheFieldOrRefusesWithTheReason() throws {
        var p = launch()
        p.press(.enter, .enter)
        for c in "ny" { p.handle(.key(.character(c))) }
        p.press(.function(3))
        XCTAssertEqual(try store.load("Alpha").get().records[0].listTitle, "Smith, Johnny")
        p.press(.escape, .down, .down, .down, .down, .enter)
        p.handle(.key(.character("x")))
        p.press(.function(3))
        XCTAssertNil(p.state.popover, "refused")
        XCTAssertEqual(p.state.status?.text, "Age must be a whole number from 0 to 150, or empty")
    }

    func testEachDocumentKeepsItsOwnDraft() {
        var p = launch()
        p.press(.control("n"))
        for c in "Draft A" { p.handle(.key(.character(c))) }
        p.press(.enter, .function(3), .down, .enter, .control("n"))
        XCTAssertEqual(p.state.editing?.text, "", "Beta's draft is its own")
        p.press(.escape, .function(3), .up, .enter, .control("n"))
        XCTAssertEqual(p.state.shown, .draft)
        XCTAssertEqual(p.state.shownForm.fieldText(0), "Draft A")
    }

    func testNewCreatesUntitledThenUntitled2AndSwitches() {
        var p = launch()
        p.press(.function(3), .character("n"))
        XCTAssertEqual(p.state.documentName, "Untitled")
        XCTAssertEqual(p.state.recordCount, 0)
        p.press(.function(3), .character("n"))
        XCTAssertEqual(p.state.documentName, "Untitled 2")
        XCTAssertTrue(store.exists("Untitled 2"))
    }

    func testRenameInPlaceKeepsTextWhenRefused() {
        var p = launch()
        p.press(.function(3), .character("r"))
        XCTAssertEqual(p.state.inputMode, .renamingDocument)
        p.press(.backspace, .backspace, .backspace, .backspace, .backspace)
        for c in "BETA" { p.handle(.key(.character(c))) }
        p.press(.enter)
        XCTAssertEqual(p.state.manager.renaming?.text, "BETA", "kept for correction")
        XCTAssertEqual(p.state.status?.kind, .error)
        p.press(.backspace, .backspace, .backspace, .backspace)
        for c in "Market Street" { p.handle(.key(.character(c))) }
        p.press(.enter)
        XCTAssertNil(p.state.manager.renaming)
        XCTAssertEqual(p.state.documentName, "Market Street", "the current document follows its new name")
        XCTAssertTrue(store.exists("Market Street"))
        XCTAssertFalse(store.exists("Alpha"))
        XCTAssertEqual(p.state.documents.map(\.name), ["Beta", "Market Street"])
    }

    func testDeleteCurrentAsksThenShowsTheNeighbourAndUndoBringsItBack() {
        var p = launch()
        p.press(.function(3), .character("d"))
        XCTAssertEqual(p.state.popover, .confirmDelete(name: "Alpha", records: 2))
        XCTAssertTrue(p.screen.lines.joined().contains("Delete “Alpha” (2 records)?"))
        p.press(.character("n"))
        XCTAssertEqual(p.state.popover, .documents)
        XCTAssertTrue(store.exists("Alpha"))
        p.press(.character("d"), .character("y"))
        XCTAssertFalse(store.exists("Alpha"))
        XCTAssertEqual(p.state.documentName, "Beta", "the next one")
        XCTAssertEqual(p.state.status?.text, "Moved “Alpha” (2 records) to the trash; u brings it back")
        XCTAssertEqual(p.state.documents.map(\.name), ["Beta"])
        let trash = (try? FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent(".trash").path)) ?? []
        XCTAssertTrue(trash.contains { $0.hasPrefix("Alpha (deleted ") && $0.hasSuffix(").plist") }, "\(trash)")
        p.press(.character("u"))
        XCTAssertTrue(store.exists("Alpha"))
        XCTAssertEqual(p.state.documents.map(\.name), ["Alpha", "Beta"])
    }

    func testDeletingTheOnlyDocumentCreatesAFreshUntitled() {
        var p = launch("Beta")
        p.press(.function(3), .character("d"), .character("y"))
        XCTAssertEqual(p.state.popover, .documents, "the manager stays open after a delete")
        p.press(.home, .character("d"), .character("y"))
        XCTAssertEqual(p.state.documentName, "Untitled")
        XCTAssertEqual(store.summaries().map(\.name), ["Untitled"])
    }

    func testCurrentDocumentDeletedOutsideIsNotRecreated() throws {
        var p = launch()
        try FileManager.default.removeItem(at: store.url(for: "Alpha"))
        p.press(.enter, .enter)
        p.handle(.key(.character("!")))
        p.press(.enter)
        XCTAssertFalse(store.exists("Alpha"), "not recreated behind the user's back")
        guard case .saveAs = p.state.popover else { return XCTFail("offers to save under a name") }
        XCTAssertEqual(p.state.recordCount, 2, "the records are kept in memory")
        XCTAssertEqual(p.state.editing?.text, "John!", "the entry is back on the form, as after a failed save")
        // Leaving asks first: the first Ctrl-Q only warns.
        XCTAssertFalse(p.isFinished)
        clock.advance(2)
        p.press(.backspace, .backspace, .backspace, .backspace, .backspace)
        for c in "Rescued" { p.handle(.key(.character(c))) }
        p.press(.enter)
        XCTAssertEqual(p.state.documentName, "Rescued")
        XCTAssertEqual(try store.load("Rescued").get().records.map(\.listTitle), ["Smith, John", "Jones, Doris"])
        p.press(.enter)
        XCTAssertEqual(try store.load("Rescued").get().records[0].listTitle, "Smith, John!", "saving again lands in the new file")
    }

    func testLeavingADocumentThatIsOnlyInMemoryAsksFirst() throws {
        var p = launch()
        try FileManager.default.removeItem(at: store.url(for: "Alpha"))
        p.press(.enter, .enter)
        p.handle(.key(.character("!")))
        p.press(.enter, .escape)
        XCTAssertNil(p.state.popover)
        p.press(.control("q"))
        XCTAssertFalse(p.isFinished, "the first Ctrl-Q warns")
        guard case .saveAs = p.state.popover else { return XCTFail("and offers the name again") }
        XCTAssertEqual(p.state.status?.text, "“Alpha” is only in memory: save it, or do that again to leave it unsaved")
        p.press(.control("q"))
        XCTAssertTrue(p.isFinished, "the second one quits")
    }

    func testManagerSeesDocumentsAddedOutside() throws {
        var p = launch()
        p.press(.function(3))
        try store.save(SurveyDocument(), as: "Gamma")
        p.send(.system(.refreshTick))
        XCTAssertEqual(p.state.documents.map(\.name), ["Alpha", "Beta", "Gamma"])
    }

    func testF4ShowsDocumentFacts() {
        var p = launch()
        p.press(.enter, .function(4))
        XCTAssertEqual(p.state.screen.detail, .info)
        let screen = p.screen.lines.joined(separator: "\n")
        XCTAssertTrue(screen.contains("Records      2"), screen)
        XCTAssertTrue(screen.contains("Alpha.plist"), screen)
        XCTAssertTrue(screen.contains("No age       0 records"), screen)
        p.press(.function(4))
        XCTAssertEqual(p.state.screen.detail, .form)
    }

    func testCtrlQWhileTypingIntoAVanishedDocumentWaitsForTheConfirmation() throws {
        var p = launch()
        p.press(.enter, .enter)
        p.handle(.key(.character("Q")))
        try FileManager.default.removeItem(at: store.url(for: "Alpha"))
        p.press(.control("q"))
        XCTAssertFalse(p.isFinished, "the commit found the file gone: the records exist only in memory")
        guard case .saveAs = p.state.popover else { return XCTFail("offers a name") }
        p.press(.control("q"))
        XCTAssertTrue(p.isFinished)
    }

    func testAFailedSaveBehindF3PutsTheTextBackInView() throws {
        var p = launch()
        p.press(.enter, .enter)
        p.handle(.key(.character("Q")))
        var outside = sampleRecords()
        outside[0].values["firstName"] = .string("Jonathan")     // the same field: a real clash
        try store.save(SurveyDocument(records: outside), as: "Alpha")
        p.press(.function(3))
        XCTAssertNil(p.state.popover, "the manager does not hide the entry that still needs saving")
        XCTAssertEqual(p.state.editing?.text, "JohnQ")
    }

    func testOpeningAnEmptyDocumentFocusesTheForm() {
        var p = launch()
        p.press(.function(3), .character("n"))
        XCTAssertEqual(p.state.documentName, "Untitled")
        XCTAssertEqual(p.state.screen.focus, .form)
        p.handle(.key(.character("Z")))
        XCTAssertEqual(p.state.editing?.text, "Z")
    }

    func testANegativeRememberedRecordIsIgnored() throws {
        var memory = SessionMemory(url: memoryURL)
        memory.remember(document: "Alpha", record: -1, in: folder)
        try memory.save()
        let p = launch()
        XCTAssertEqual(p.state.shown, .record(0))
    }

    func testNewSurveyFromTheInfoViewShowsTheForm() {
        var p = launch()
        p.press(.enter, .function(4), .control("n"))
        XCTAssertEqual(p.state.screen.detail, .form)
        XCTAssertEqual(p.state.editing?.entry, 0)
    }
}

/// A big document is counted off the main thread: F3 opens at once with "…" for it.
final class BackgroundListingTests: XCTestCase {
    func testABigDocumentIsCountedInTheBackground() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("survey-bg-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let store = DocumentStore(folder: folder)
        try store.save(SurveyDocument(records: sampleRecords()), as: "Small")
        let big = (0..<6000).map { record("Person\($0)", "Family\($0)", address: String(repeating: "x", count: 120)) }
        try store.save(SurveyDocument(records: big), as: "Big")
        XCTAssertGreaterThan(store.fingerprint(of: "Big")?.size ?? 0, 1 << 20)
        var p = Program(store: store, documentName: "Small", size: Size(width: 120, height: 40), memory: nil)
        p.handle(.key(.function(3)))
        XCTAssertEqual(p.state.popover, .documents)
        XCTAssertEqual(p.state.documents.map(\.name), ["Big", "Small"])
        XCTAssertNil(p.state.documents[0].recordCount, "not counted yet")
        XCTAssertNil(p.state.documents[0].problem, "and not called unreadable")
        XCTAssertEqual(p.state.documents[1].recordCount, 2, "small files are counted at once")
        XCTAssertTrue(p.screen.lines.contains { $0.contains("Big") && $0.contains("…") })
        p.finishBackgroundWork()
        XCTAssertEqual(p.state.documents[0].recordCount, 6000)
        XCTAssertFalse(p.hasBackgroundWork)
        XCTAssertTrue(p.screen.lines.contains { $0.contains("Big") && $0.contains("6000") })
    }
}

/// The documents list says why a document is unreadable, or that its name must change.
final class DocumentRemarkTests: XCTestCase {
    func testTheHighlightedDocumentsProblemShowsOnTheStatusLine() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("survey-remark-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let store = DocumentStore(folder: folder)
        try store.save(SurveyDocument(records: sampleRecords()), as: "Good")
        try Data([0, 0, 0, 0]).write(to: store.url(for: "Bad"))
        var p = Program(store: store, documentName: "Good", size: Size(width: 120, height: 40), memory: nil)
        p.handle(.key(.function(3)))
        XCTAssertFalse(p.screen.lines[38].contains("Bad.plist"), "Good is highlighted: nothing to explain")
        p.handle(.key(.up))
        XCTAssertTrue(p.screen.lines[38].contains("Bad.plist: not a property list"), p.screen.lines[38])
    }
}
