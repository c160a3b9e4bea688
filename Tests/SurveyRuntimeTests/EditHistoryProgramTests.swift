import Foundation
import XCTest
import SurveyTestSupport
import SurveyValues
import SurveyForms
import SurveyStorage
@testable import SurveyUI
@testable import SurveyRuntime

/// Issue 31, edit history on the laptop: every change saved to a stored survey is a line of
/// `.NAME.history.jsonl` (who, when, each answer old → new); adding a survey is not an edit;
/// F4 on the survey shows its last changes; a history that cannot be written is said, and the
/// change itself is saved.
final class EditHistoryProgramTests: XCTestCase {
    var folder: URL!
    var store: DocumentStore!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("survey-history-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        store = DocumentStore(folder: folder)
        try store.save(SurveyDocument(), as: "Plots")
        let form = folder.appendingPathComponent("plots.csv")
        try Data("survey,,,\n,type,name,label\n,text,plot,Plot\n,integer,trees,Trees\n".utf8).write(to: form)
        try store.attachForm(from: form.path, to: "Plots", at: Date())
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: folder)
    }

    private func launch(_ store: DocumentStore) -> Program {
        var p = Program(store: store, documentName: "Plots", size: Size(width: 120, height: 40))
        p.send(.system(.resized(Size(width: 120, height: 40))))
        return p
    }

    func testAChangeToAStoredSurveyIsKeptWithWhoAndWhenAndF4ShowsIt() throws {
        var p = launch(store)
        p.type("P1"); p.press(.enter)
        p.type("12"); p.press(.enter)
        p.press(.enter)                                   // [ Add ]: not an edit
        p.finishBackgroundWork()
        XCTAssertEqual(try store.editHistory(for: "Plots").entries, [])
        let id = try XCTUnwrap(try store.load("Plots").get().records.first?.instanceID)

        // Survey 1 on the form: Trees 12 → 15.
        p.press(.function(2)); p.press(.enter)
        p.press(.home); p.press(.down)
        p.type("15"); p.press(.enter)
        p.finishBackgroundWork()
        let entries = try store.editHistory(for: "Plots").entries
        XCTAssertEqual(entries.count, 1)
        XCTAssertEqual(entries.first?.survey, id)
        XCTAssertEqual(entries.first?.by, p.state.environment.device.username)
        XCTAssertEqual(entries.first?.changes, [AnswerChange(path: SyncFieldPath(text: "trees")!, old: .integer(12), new: .integer(15))])

        if p.state.editing != nil { p.press(.escape) }
        p.press(.function(4))
        let info = p.state.screenText
        XCTAssertTrue(info.contains("History      1 change made here"), info)
        XCTAssertTrue(info.contains("trees 12 → 15"), info)
    }

    func testAHistoryThatCannotBeWrittenIsSaidAndTheChangeIsSaved() throws {
        var p = launch(store)
        p.type("P1"); p.press(.enter)
        p.type("12"); p.press(.enter)
        p.press(.enter)
        p.finishBackgroundWork()
        p.send(.app(.quit))
        let failing = DocumentStore(folder: folder, fileSystem: .failing { operation, path in
            operation == .open && path?.hasSuffix(".history.jsonl") == true ? ENOSPC : nil
        })
        var q = launch(failing)
        q.press(.function(2)); q.press(.enter)
        q.press(.home); q.press(.down)
        q.type("15"); q.press(.enter)
        q.finishBackgroundWork()
        XCTAssertEqual(try store.load("Plots").get().records.first?["trees"], .integer(15), "the change is saved")
        XCTAssertTrue(q.state.statusText?.contains("Saved, but the edit history was not kept") == true, q.state.statusText ?? "")
    }

    /// Another program changes a survey while the app is open; the app's next change finds it
    /// and merges: only the app's own change is in the history, under its keyer.
    func testAChangeAnotherProgramMadeIsNeverNotedAsThisKeyers() throws {
        try store.save(SurveyDocument(records: [
            Record(["plot": .string("P1"), "trees": .integer(12), Record.instanceIDKey: .string("uuid:one")]),
            Record(["plot": .string("P2"), "trees": .integer(20), Record.instanceIDKey: .string("uuid:two")]),
        ]), as: "Plots")
        var p = launch(store)
        // A shell changes P2 meanwhile.
        var other = try store.load("Plots").get()
        other.records[1]["trees"] = .integer(21)
        try store.save(other, as: "Plots")
        // The app changes P1's trees.
        p.press(.function(2)); p.press(.enter)
        p.press(.home); p.press(.down)
        p.type("13"); p.press(.enter)
        p.finishBackgroundWork()
        let saved = try store.load("Plots").get().records
        XCTAssertEqual(saved.map { $0["trees"] }, [.integer(13), .integer(21)], "both changes kept")
        let entries = try store.editHistory(for: "Plots").entries
        XCTAssertEqual(entries.map(\.survey), ["uuid:one"], "the shell's change is not this keyer's")
    }

    /// A survey a supervisor approved (the review this laptop knows), on a form with no audit
    /// row: its change waits for a reason, which the history line keeps and F4 shows.
    func testAChangeToAnApprovedSurveyKeepsItsReasonInTheHistory() throws {
        try store.save(SurveyDocument(records: [
            Record(["plot": .string("P1"), "trees": .integer(12), Record.instanceIDKey: .string("uuid:one")]),
        ]), as: "Plots")
        var p = launch(store)
        p.send(.outcome(.sync(.summaryRead(document: "Plots", SyncSummary(reviews: ["uuid:one": SyncReview(.approved)])))))
        p.press(.function(2)); p.press(.enter)
        p.press(.home); p.press(.down)
        p.type("15"); p.press(.enter)
        p.finishBackgroundWork()
        XCTAssertEqual(try store.editHistory(for: "Plots").entries, [], "nothing saved before the reason")
        XCTAssertTrue(p.state.screenText.contains("A supervisor approved it: why is it changed?"), p.state.screenText)
        p.type("recount on the second visit"); p.press(.enter)
        p.finishBackgroundWork()
        XCTAssertEqual(try store.load("Plots").get().records.first?["trees"], .integer(15))
        let entries = try store.editHistory(for: "Plots").entries
        XCTAssertEqual(entries.map(\.reason), ["recount on the second visit"])
        XCTAssertEqual(entries.first?.changes, [AnswerChange(path: SyncFieldPath(text: "trees")!, old: .integer(12), new: .integer(15))])

        if p.state.editing != nil { p.press(.escape) }
        p.press(.function(4))
        p.finishBackgroundWork()
        let info = p.state.screenText
        XCTAssertTrue(info.contains("trees 12 → 15 (“recount on the second visit”)"), info)
    }

    /// `b` in F4 brings back the survey as it was before its last change made here, as a new
    /// change (noted in the history, Ctrl-Z undoes it); on an approved survey it asks why first,
    /// as `survey history --bring-back` wants `--reason`. A survey changed since that change
    /// (not as the history left it) is refused, nothing changed.
    func testBInF4BringsBackTheSurveyAsItWasBeforeItsLastChange() throws {
        try store.save(SurveyDocument(records: [
            Record(["plot": .string("P1"), "trees": .integer(12), Record.instanceIDKey: .string("uuid:one")]),
        ]), as: "Plots")
        var p = launch(store)
        p.press(.function(2)); p.press(.enter)
        p.press(.home); p.press(.down)
        p.type("15"); p.press(.enter)                     // trees 12 → 15, noted
        p.finishBackgroundWork()
        if p.state.editing != nil { p.press(.escape) }
        p.press(.function(4))
        p.finishBackgroundWork()
        p.send(.outcome(.sync(.summaryRead(document: "Plots", SyncSummary(reviews: ["uuid:one": SyncReview(.approved)])))))
        XCTAssertTrue(p.state.screenText.contains("b brings it back as it was before the last one"), p.state.screenText)
        p.press(.character("b"))
        XCTAssertTrue(p.state.screenText.contains("A supervisor approved it: why is it changed?"), p.state.screenText)
        XCTAssertEqual(try store.load("Plots").get().records.first?["trees"], .integer(15), "nothing saved before the reason")
        p.type("the recount was wrong"); p.press(.enter)
        p.finishBackgroundWork()
        XCTAssertEqual(try store.load("Plots").get().records.first?["trees"], .integer(12), p.state.statusText ?? "")
        XCTAssertTrue(p.state.statusText?.hasPrefix("Brought back “P1” as it was before the change of") ?? false, p.state.statusText ?? "")
        let entries = try store.editHistory(for: "Plots").entries
        XCTAssertEqual(entries.map(\.changes), [
            [AnswerChange(path: SyncFieldPath(text: "trees")!, old: .integer(12), new: .integer(15))],
            [AnswerChange(path: SyncFieldPath(text: "trees")!, old: .integer(15), new: .integer(12))],
        ])
        XCTAssertEqual(entries.last?.reason, "the recount was wrong")
        XCTAssertTrue(p.state.screenText.contains("trees 15 → 12"), "F4 shows it: \(p.state.screenText)")
        p.press(.control("z"))
        p.finishBackgroundWork()
        XCTAssertEqual(try store.load("Plots").get().records.first?["trees"], .integer(15), "Ctrl-Z undoes it")

        // Changed since its last noted change (another program, say): refused, nothing changed.
        p.press(.control("q"))
        var changed = try store.load("Plots").get()
        changed.records[0]["trees"] = .integer(40)
        try store.save(changed, as: "Plots")
        var q = launch(store)
        q.press(.function(2)); q.press(.enter)
        if q.state.editing != nil { q.press(.escape) }
        q.press(.function(4))
        q.finishBackgroundWork()
        q.press(.character("b"))
        XCTAssertTrue(q.state.statusText?.contains("is not as its last change left it") ?? false, q.state.statusText ?? "")
        q.finishBackgroundWork()
        XCTAssertEqual(try store.load("Plots").get().records.first?["trees"], .integer(40))
    }
}
