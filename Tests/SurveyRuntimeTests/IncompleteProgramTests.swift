import Foundation
import XCTest
import SurveyTestSupport
import SurveyValues
import SurveyForms
import SurveyStorage
@testable import SurveyUI
@testable import SurveyRuntime

/// Issue 30, on a real folder: a New form left before it passes is an incomplete survey in
/// the document file at once (as Python's plistlib reads it), the New form's file goes, and
/// after a restart it is still there, marked, to be finished.
final class IncompleteProgramTests: XCTestCase {
    var folder: URL!
    var store: DocumentStore!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("survey-incomplete-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        store = DocumentStore(folder: folder)
        let ana = Record(["fname": .string("Ana"), "lname": .string("Lima"), "age": .integer(34), "consent": .string("no"),
                          "confirm": .string("OK"), Record.instanceIDKey: .string("uuid:ana")])
        try store.save(SurveyDocument(records: [ana]), as: "Households")
        let example = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../Examples/household.csv").standardizedFileURL
        try store.attachForm(from: example.path, to: "Households", at: Date())
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: folder)
    }

    private func launch() -> Program {
        var p = Program(store: store, documentName: "Households", size: Size(width: 120, height: 40))
        p.send(.system(.resized(Size(width: 120, height: 40))))
        return p
    }

    /// The surveys of the file as plistlib reads them: `fname|incomplete|has an id` each.
    private func plistlib() throws -> [String] {
        let script = """
        import plistlib, sys
        with open(sys.argv[1], 'rb') as f:
            doc = plistlib.load(f)
        for r in doc['records'] if isinstance(doc, dict) else doc:
            print(r.get('fname', ''), r.get('incomplete', ''), r.get('instanceID', '').startswith('uuid:'), sep='|')
        """
        let outcome = try ChildProcess.run(["python3", "-c", script, folder.appendingPathComponent("Households.plist").path],
                                           environment: ["PYTHONIOENCODING": "utf-8", "PATH": "/usr/bin:/bin"])
        XCTAssertEqual(outcome.status, 0, outcome.errors)
        return outcome.output.split(separator: "\n").map(String.init)
    }

    func testAnIncompleteSurveyIsInTheFileAtOnceAndSurvivesARestart() throws {
        var p = launch()
        p.press(.control("n"))
        p.type("Bo"); p.press(.enter)
        p.type("Okafor"); p.press(.enter)
        XCTAssertEqual(store.loadDraft(for: "Households")["lname"], .string("Okafor"), "the New form's file keeps it while it is keyed")
        p.press(.escape, .left)
        XCTAssertEqual(try plistlib(), ["Ana||True", "Bo|True|True"], "in the document file at once, marked <true/>, with its id")
        XCTAssertFalse(FileManager.default.fileExists(atPath: store.draftURL(for: "Households").path),
                       "the New form is empty: its file is gone")
        let onDisk = try store.load("Households").get()
        XCTAssertTrue(onDisk.records[1].isIncomplete)
        let id = try XCTUnwrap(onDisk.records[1].instanceID)

        // A restart: the survey is there, marked, and finishing it makes the file say so.
        var q = launch()
        XCTAssertEqual(q.state.recordCount, 2)
        XCTAssertTrue(q.state.records[1].isIncomplete)
        XCTAssertTrue(q.state.draft.isBlank(in: q.state.questionnaire), "the next interview starts empty")
        q.press(.control("n"))
        q.press(.escape, .left)                                 // an empty New form left: nothing kept
        XCTAssertEqual(q.state.recordCount, 2)
        q.press(.right)
        XCTAssertEqual(q.state.shown, .record(1))
        XCTAssertEqual(q.state.records[1].instanceID, id)
        // What is left, from the paper: F8 goes to each question that lacks its answer.
        q.press(.function(8), .enter); q.type("41"); q.press(.enter)
        q.press(.escape, .function(8), .enter); q.type("2")    // Agrees? No
        q.press(.escape, .function(8), .enter); q.type("1")    // Answers read back: OK
        XCTAssertEqual(q.state.formItem, .add, "after the last question, on [ Finish ]")
        q.press(.enter)
        XCTAssertEqual(q.state.statusText, "Finished “Okafor, Bo”: survey 2 is complete")
        XCTAssertEqual(try plistlib(), ["Ana||True", "Bo||True"], "complete: the mark is gone from the file")
        XCTAssertEqual(try store.load("Households").get().records[1].instanceID, id, "the same survey, finished")
    }

    /// Ctrl-Z of a New form kept incomplete puts it back on the New form, whose file is
    /// written again; Ctrl-Y keeps it again and empties the New form, never
    /// leaving the interview both in the document and on the New form.
    func testRedoingAKeptNewFormEmptiesTheNewFormAgain() throws {
        var p = launch()
        p.press(.control("n"))
        p.type("Bo"); p.press(.enter)
        p.type("Okafor"); p.press(.enter)
        p.press(.escape, .left)                                 // kept incomplete
        XCTAssertEqual(p.state.recordCount, 2)
        p.press(.control("z"))                                  // back on the New form
        XCTAssertEqual(p.state.recordCount, 1, p.state.statusText ?? "")
        XCTAssertEqual(p.state.draft["lname"], .string("Okafor"))
        p.press(.control("y"))                                  // kept again
        XCTAssertEqual(p.state.recordCount, 2, p.state.statusText ?? "")
        XCTAssertTrue(p.state.draft.isBlank(in: p.state.questionnaire), "kept twice: \(p.state.draft)")
        p.press(.control("q"))
        XCTAssertFalse(FileManager.default.fileExists(atPath: store.draftURL(for: "Households").path))
    }
}
