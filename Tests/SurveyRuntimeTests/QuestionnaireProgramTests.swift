import Foundation
import XCTest
import SurveyTestSupport
import SurveyValues
import SurveyForms
import SurveyStorage
@testable import SurveyUI
@testable import SurveyRuntime

/// A document's questionnaire file, as the Program loads it on a real folder: at launch, on
/// switching documents. A form with errors or missing: `ReadOnlyFormTests`.
final class QuestionnaireProgramTests: XCTestCase {
    var folder: URL!
    var store: DocumentStore!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("survey-qprogram-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        store = DocumentStore(folder: folder)
        try store.save(SurveyDocument(records: []), as: "Households")
        try store.save(SurveyDocument(records: sampleRecords()), as: "Seed")
        let example = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../Examples/household.csv").standardizedFileURL
        try store.attachForm(from: example.path, to: "Households", at: Date())
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: folder)
    }

    private func launch(_ name: String) -> Program {
        var p = Program(store: store, documentName: name, size: Size(width: 120, height: 40))
        p.send(.system(.resized(Size(width: 120, height: 40))))
        return p
    }


    func testTheDocumentsFormIsLoadedAndEachAnswerIsOnDiskAtOnce() throws {
        var p = launch("Households")
        XCTAssertEqual(p.state.questionnaire.form?.formID, "household")
        p.press(.enter)
        p.type("Ana"); p.press(.enter)
        XCTAssertEqual(store.loadDraft(for: "Households").values["fname"], .string("Ana"), "the New form is on disk at once")
        XCTAssertEqual(p.state.editing?.entry, p.state.entry("lname"))
        // Switching to a document without a form brings back the original five.
        p.press(.escape, .function(3), .down, .enter)     // F3: Households, Seed
        XCTAssertEqual(p.state.documentName, "Seed")
        XCTAssertNil(p.state.questionnaire.form)
        XCTAssertEqual(p.state.questionnaire, .standard)
        p.press(.function(3), .up, .enter)
        XCTAssertEqual(p.state.documentName, "Households")
        XCTAssertEqual(p.state.questionnaire.form?.formID, "household")
        XCTAssertEqual(p.state.formItem, .field(p.state.entry("fname")), "on the first question asked")
    }
}
