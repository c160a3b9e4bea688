import Foundation
import XCTest
import SurveyTestSupport
import SurveyValues
import SurveyForms
import SurveyStorage
@testable import SurveyUI
@testable import SurveyRuntime

/// A large document opened with its first records, the rest read in the background, driven
/// on a real folder with the streaming threshold at 0 so a few hundred surveys take that
/// path. Until the reading is over nothing reaches the disk but the New form; then the
/// document is the one a whole load gives, and what was refused can be kept.
final class LoadingProgramTests: XCTestCase {
    var folder: URL!
    var store: DocumentStore!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("survey-loading-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        store = DocumentStore(folder: folder)
        // The original app's surveys: no ids, so they are derived by place.
        try store.save(SurveyDocument(records: sampleRecords(extra: 298)), as: "Site")
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: folder)
    }

    private func launch(memory: SessionMemory? = nil, journalThreshold: Int = 1 << 20) -> Program {
        Program(store: store, documentName: "Site", size: Size(width: 80, height: 24), memory: memory,
                identifyLater: true, journalThreshold: journalThreshold, streamingFrom: 0, firstRecords: 20)
    }

    private var fileURL: URL { store.url(for: "Site") }

    private func wholeLoad() throws -> SurveyDocument {
        var document = try store.load("Site").get()
        document.identifyRecordsFoundWithoutIDs()
        return document
    }

    func testNothingIsWrittenWhileLoadingAndTheDocumentIsTheWholeLoadAfter() throws {
        let before = try Data(contentsOf: fileURL)
        var p = launch()
        p.finishOpening()   // the first frame is up: the rest is read from now on
        XCTAssertEqual(p.state.recordCount, 20)
        XCTAssertNotNil(p.state.session.loading)
        XCTAssertNil(p.files.persisted, "part of the file is never taken for what the file holds")
        XCTAssertTrue(p.screen.lines.contains { $0.contains("Loading… ") }, p.screen.lines.joined(separator: "\n"))

        p.press(.enter, .enter)
        p.type("ny")
        p.press(.enter)
        XCTAssertEqual(p.state.status?.text.hasPrefix("Still loading…"), true, p.state.status?.text ?? "")
        p.send(.app(.quit))   // held: waits for the load, then keeps the answer
        XCTAssertTrue(p.isFinished)
        var expected = try wholeLoad().records
        XCTAssertEqual(try store.load("Site").get().records.count, 300)
        XCTAssertNotEqual(try Data(contentsOf: fileURL), before)
        expected[0].values["firstName"] = .string("Johnny")
        XCTAssertEqual(try store.load("Site").get().records.map(\.answers), expected.map(\.answers))
    }

    func testTheWholeDocumentKeepsThePlaceAndEditsGoThroughAfterwards() throws {
        let before = try Data(contentsOf: fileURL)
        var p = launch()
        p.press(.down, .down)
        p.press(.character("d"), .character("y"))         // delete: refused
        p.press(.control("n"))
        p.type("Grace")
        p.press(.enter)                                     // the New form is its own file
        XCTAssertEqual(store.loadDraft(for: "Site").values["firstName"], .string("Grace"))
        XCTAssertEqual(try Data(contentsOf: fileURL), before, "the document's file is untouched")
        XCTAssertFalse(FileManager.default.fileExists(atPath: store.journalURL(for: "Site").path))
        XCTAssertFalse(FileManager.default.fileExists(atPath: store.deletedURL(for: "Site").path))

        p.finishBackgroundWork()
        XCTAssertNil(p.state.session.loading)
        XCTAssertEqual(p.state.document, try wholeLoad(), "the same records and ids as a whole load")
        XCTAssertEqual(p.files.persisted, p.state.document)
        XCTAssertEqual(p.state.list.rows.cursor, 2)
        XCTAssertTrue(p.state.form.showingDraft)

        p.press(.escape, .left)                             // back to the highlighted survey
        XCTAssertEqual(p.state.shown, .record(2))
        p.press(.enter)
        p.type("!")
        p.press(.enter)
        XCTAssertNil(p.state.status, p.state.status?.text ?? "")
        XCTAssertEqual(try store.load("Site").get().records[2].answers, p.state.records[2].answers)
        XCTAssertTrue(p.state.records[2].values.values.contains { if case .string(let s) = $0 { return s.hasSuffix("!") } else { return false } })
    }

    func testACorruptTailEndsUnreadableAndTheFileIsNeverWritten() throws {
        var data = try Data(contentsOf: fileURL)
        data = data.prefix(data.count * 2 / 3) + Data("<dict><key>x</key><nope/></dict></array></plist>".utf8)
        try data.write(to: fileURL)
        guard case .failure(let whole) = store.load("Site") else { return XCTFail("the damaged file loads") }

        var p = launch()
        XCTAssertEqual(p.state.recordCount, 20, "the first screen shows before the damage is met")
        p.press(.enter, .enter)
        p.type("ny")
        p.press(.enter)
        p.finishBackgroundWork()
        XCTAssertNil(p.state.document)
        XCTAssertEqual(p.state.session.loadError, whole.message, "as opening it whole says")
        XCTAssertEqual(p.state.inputMode, .unreadable)
        p.send(.app(.quit))
        XCTAssertTrue(p.isFinished)
        XCTAssertEqual(try Data(contentsOf: fileURL), data, "never written")
        XCTAssertNil(p.files.persisted)
    }

    func testAJournalACrashLeftIsPutBackBeforeTheFirstRecordsAreRead() throws {
        do {
            var p = Program(store: store, documentName: "Site", size: Size(width: 80, height: 24), journalThreshold: 0)
            p.files.writer.pause()
            p.press(.enter, .enter)
            p.type("ny")
            p.press(.enter, .escape)
            XCTAssertEqual(try store.load("Site").get().records[0].values["firstName"], .string("John"), "only in the journal")
            // The process dies here: no quit, no write.
        }
        var again = launch()
        XCTAssertEqual(again.state.status?.text, "Put back 1 change an interrupted session had saved only in its journal")
        XCTAssertNotNil(again.state.session.loading)
        XCTAssertEqual(again.state.records[0].values["firstName"], .string("Johnny"))
        again.finishBackgroundWork()
        XCTAssertEqual(again.state.document, try wholeLoad())
        XCTAssertFalse(FileManager.default.fileExists(atPath: store.journalURL(for: "Site").path))
    }

    func testTheRememberedSurveyIsShownOnceReadAndASortedListWaitsForTheWhole() throws {
        let memoryURL = folder.appendingPathComponent("state/state.plist")
        let ids = try wholeLoad().records.map { $0.instanceID! }
        try SessionMemory.update(at: memoryURL) {
            $0.remember(document: "Site", place: .init(record: 250, recordID: ids[250]), in: self.folder)
        }
        var p = launch(memory: SessionMemory(url: memoryURL))
        XCTAssertNotNil(p.state.session.loading)
        XCTAssertEqual(p.state.shown, .record(0), "not read yet")
        p.finishBackgroundWork()
        XCTAssertEqual(p.state.shown, .record(250))

        try SessionMemory.update(at: memoryURL) {
            $0.remember(document: "Site", place: .init(record: 250, recordID: ids[250], listOrder: "lastName"), in: self.folder)
        }
        let sorted = launch(memory: SessionMemory(url: memoryURL))
        XCTAssertNil(sorted.state.session.loading, "a sorted list needs every survey before its first row")
        XCTAssertEqual(sorted.state.recordCount, 300)
    }
}
