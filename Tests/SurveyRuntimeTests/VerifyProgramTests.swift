import Foundation
import XCTest
import SurveyTestSupport
import SurveyValues
import SurveyForms
import SurveyStorage
@testable import SurveyUI
@testable import SurveyRuntime

/// Issue 30's double entry on a real folder: a survey added from the New form is noted in
/// `.NAME.verify.plist` under its id (given at the save) with its keys; verify mode writes
/// each question's outcome at once, so quitting half way and starting again resumes at the
/// next question, with the keyer error's correction in the document file.
final class VerifyProgramTests: XCTestCase {
    var folder: URL!
    var store: DocumentStore!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("survey-verify-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        store = DocumentStore(folder: folder)
        try store.save(SurveyDocument(), as: "Plots")
        let form = folder.appendingPathComponent("plots.csv")
        try Data("survey,,,\n,type,name,label\n,text,plot,Plot\n,integer,trees,Trees\n,text,slope,Slope\n".utf8).write(to: form)
        try store.attachForm(from: form.path, to: "Plots", at: Date())
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: folder)
    }

    private func launch() -> Program {
        var p = Program(store: store, documentName: "Plots", size: Size(width: 120, height: 40))
        p.send(.system(.resized(Size(width: 120, height: 40))))
        return p
    }

    func testKeyedThenVerifiedAcrossARestart() throws {
        var p = launch()
        p.type("P1"); p.press(.enter)
        p.type("12"); p.press(.enter)
        p.type("steep"); p.press(.enter)
        p.press(.enter)                                   // [ Add ]
        let added = try store.load("Plots").get()
        let id = try XCTUnwrap(added.records.first?.instanceID)
        var log = try store.verificationLog(for: "Plots")
        XCTAssertEqual(log.entries.map(\.kind), [.keyed])
        XCTAssertEqual(log.entries.first?.survey, id, "noted under the id the save gave it")
        XCTAssertEqual(log.entries.first?.keys, 13, "P 1 ⏎ 1 2 ⏎ s t e e p ⏎ ⏎: every key on the New form")

        // Verify: the plot the same, the trees keyed 13 twice; then quit.
        p.press(.function(2))
        p.press(.character("v"))
        XCTAssertEqual(p.state.inputMode, .verifying)
        p.type("P1"); p.press(.enter)
        p.type("13"); p.press(.enter)
        p.type("13"); p.press(.enter)
        XCTAssertEqual(try store.load("Plots").get().records.first?["trees"], .integer(13), "the correction is in the file")
        log = try store.verificationLog(for: "Plots")
        XCTAssertEqual(log.entries.map(\.kind), [.keyed, .chosen, .same, .keyerError])
        XCTAssertEqual(log.progress(of: id), .partly)
        p.send(.app(.quit))

        var q = launch()
        q.press(.character("v"))
        guard case .verify(let session) = q.state.popover else { return XCTFail("not verifying: \(q.state.inputMode)") }
        XCTAssertEqual(session.currentQuestion?.path.description, "slope", "resumed after the last question verified")
        q.type("steep"); q.press(.enter)
        XCTAssertNil(q.state.popover)
        XCTAssertEqual(try store.verificationLog(for: "Plots").progress(of: id), .verified)
        let export = try store.load("Plots").get().records.first
        XCTAssertNil(export?["verified"], "nothing of the verification is in the survey itself")
    }

    /// A keyer error whose save fails (a full disk, through the file-system seam): the old
    /// answer comes back, and no "keyer error" line says the survey was corrected. Written, a
    /// resume would count the question verified with the wrong answer kept for good.
    func testACorrectionWhoseSaveFailsIsNotRecordedAsMade() throws {
        final class Full: @unchecked Sendable { var on = false }
        let full = Full()
        let failing = DocumentStore(folder: folder, fileSystem: .failing { operation, path in
            guard full.on, operation == .open, let path, path.contains("Plots.plist") || path.contains("Plots.journal") else { return nil }
            return ENOSPC
        })
        var p = Program(store: failing, documentName: "Plots", size: Size(width: 120, height: 40))
        p.send(.system(.resized(Size(width: 120, height: 40))))
        p.type("P1"); p.press(.enter)
        p.type("12"); p.press(.enter)
        p.type("steep"); p.press(.enter)
        p.press(.enter)                                   // [ Add ]
        p.finishBackgroundWork()
        p.press(.function(2))
        p.press(.character("v"))
        p.type("P1"); p.press(.enter)
        full.on = true
        p.type("13"); p.press(.enter)
        p.type("13"); p.press(.enter)                     // the same new value twice: a keyer error, its save refused
        p.finishBackgroundWork()
        XCTAssertEqual(p.state.records.first?["trees"], .integer(12), "the old answer is back on screen")
        XCTAssertEqual(try store.load("Plots").get().records.first?["trees"], .integer(12))
        XCTAssertFalse(try store.verificationLog(for: "Plots").entries.contains { $0.kind == .keyerError },
                       "no line says it was corrected")
        full.on = false
    }
}
