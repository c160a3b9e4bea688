import Foundation
import XCTest
import SurveyTestSupport
import SurveyValues
import SurveyForms
import SurveyStorage
@testable import SurveyUI
@testable import SurveyRuntime

/// Issue 31's audit log on a real folder: a New form's events reach `.NAME.audit.csv` under
/// the id its survey got at the save, and a stored survey's edit is written when the keyer
/// quits.
final class AuditProgramTests: XCTestCase {
    var folder: URL!
    var store: DocumentStore!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("survey-audit-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        store = DocumentStore(folder: folder)
        try store.save(SurveyDocument(), as: "Plots")
        let form = folder.appendingPathComponent("plots.csv")
        try Data("survey,,,,\n,type,name,label,parameters\n,audit,audit,,track-changes=true\n,text,plot,Plot,\n,integer,trees,Trees,\n".utf8)
            .write(to: form)
        try store.attachForm(from: form.path, to: "Plots", at: Date())
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: folder)
    }

    func testANewFormsLogTakesItsSurveysIdAndAnEditIsWrittenAtQuit() throws {
        var p = Program(store: store, documentName: "Plots", size: Size(width: 120, height: 40))
        p.send(.system(.resized(Size(width: 120, height: 40))))
        p.press(.enter)
        p.type("P1"); p.press(.enter)
        p.type("12"); p.press(.enter)
        p.press(.enter)                                   // [ Add ]
        let id = try XCTUnwrap(try store.load("Plots").get().records.first?.instanceID)
        var log = try store.auditLog(for: "Plots")
        XCTAssertEqual(log.events.map(\.kind), [.formStart, .question, .question, .formSave, .formExit, .formFinalize])
        XCTAssertTrue(log.events.allSatisfy { $0.survey == id }, "under the id the save gave it")
        XCTAssertEqual(log.events[1].node, "/data/plot")
        XCTAssertEqual(log.events[1].newValue, "P1", "track-changes: empty before, P1 after")

        // The survey shown after Add: change its trees, then quit.
        p.press(.up, .up)                                 // from [ Add ] to Trees
        p.type("15"); p.press(.enter)
        p.press(.control("q"))
        log = try store.auditLog(for: "Plots")
        let edit = Array(log.events.dropFirst(6))
        XCTAssertEqual(edit.first?.kind, .formResume)
        XCTAssertEqual(edit.last?.kind, .formExit)
        let trees = try XCTUnwrap(edit.first { $0.kind == .question && $0.node == "/data/trees" && !$0.newValue.isEmpty })
        XCTAssertEqual([trees.oldValue, trees.newValue], ["12", "15"])
        XCTAssertTrue(edit.allSatisfy { $0.survey == id })
    }
}
