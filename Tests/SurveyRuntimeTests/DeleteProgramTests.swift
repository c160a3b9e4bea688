import Foundation
import XCTest
import SurveyValues
import SurveyForms
import SurveyStorage
@testable import SurveyUI
@testable import SurveyRuntime

/// Delete, undo and redo on a real folder: the document, the deleted-surveys file, and what
/// a relaunch finds.
final class DeleteProgramTests: XCTestCase {
    var folder: URL!
    var store: DocumentStore!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("survey-delete-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        store = DocumentStore(folder: folder)
        try store.save(SurveyDocument(records: sampleRecords(extra: 1)), as: "Site")
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: folder)
    }

    private func launch() -> Program {
        Program(store: store, documentName: "Site", size: Size(width: 120, height: 40),
                memory: SessionMemory(url: folder.appendingPathComponent(".state/state.plist")))
    }

    private func titles() throws -> [String] { try store.load("Site").get().records.map(\.listTitle) }

    func testDeleteUndoRedoAcrossARelaunch() throws {
        var p = launch()
        p.handle(.key(.down))
        p.handle(.key(.character("d")))
        p.handle(.key(.character("y")))
        XCTAssertEqual(try titles(), ["Smith, John", "Sample3, Person3"])
        XCTAssertEqual(store.deletedRecords(for: "Site").map(\.record.listTitle), ["Jones, Doris"])
        let id = store.deletedRecords(for: "Site").first?.record.instanceID
        XCTAssertNotNil(id, "the copy carries the record's id")
        p.handle(.key(.control("z")))
        XCTAssertEqual(try titles(), ["Smith, John", "Jones, Doris", "Sample3, Person3"])
        XCTAssertEqual(store.deletedRecords(for: "Site"), [], "taken off the deleted list")
        XCTAssertEqual(try store.load("Site").get().records[1].instanceID, id, "the same survey, same id")
        p.handle(.key(.control("y")))
        p.handle(.key(.control("q")))
        let again = launch()
        XCTAssertEqual(again.state.records.map(\.listTitle), ["Smith, John", "Sample3, Person3"])
        XCTAssertEqual(store.deletedRecords(for: "Site").map(\.record.listTitle), ["Jones, Doris"])
        // And `survey undelete` (the model call behind it) brings it back.
        XCTAssertEqual(try store.undelete(id: id!, from: "Site").listTitle, "Jones, Doris")
        XCTAssertEqual(try titles(), ["Smith, John", "Sample3, Person3", "Jones, Doris"])
    }

    /// Undoing an Add takes an interview out of the file: a copy is kept among the deleted
    /// surveys first, as a delete keeps one, and a redo takes it off that list again.
    func testUndoOfAnAddKeepsACopyAmongTheDeletedAndRedoTakesItBack() throws {
        var p = launch()
        p.handle(.key(.control("n")))
        for key: Key in [.character("E"), .character("v"), .character("e"), .enter, .character("N"), .character("e"),
                         .character("w"), .enter, .enter, .enter, .enter] { p.handle(.key(key)) }
        XCTAssertEqual(p.state.formItem, .add)
        p.handle(.key(.enter))
        XCTAssertEqual(try titles(), ["Smith, John", "Jones, Doris", "Sample3, Person3", "New, Eve"])
        let id = try XCTUnwrap(try store.load("Site").get().records[3].instanceID)
        p.handle(.key(.control("z")))
        XCTAssertEqual(try titles(), ["Smith, John", "Jones, Doris", "Sample3, Person3"])
        XCTAssertEqual(store.deletedRecords(for: "Site").map(\.record.instanceID), [id], "the interview is kept")
        p.handle(.key(.control("y")))
        XCTAssertEqual(try titles(), ["Smith, John", "Jones, Doris", "Sample3, Person3", "New, Eve"])
        XCTAssertEqual(store.deletedRecords(for: "Site"), [], "back in the file: off the deleted list")
        p.handle(.key(.control("z")))
        p.handle(.key(.control("q")))
        XCTAssertEqual(store.deletedRecords(for: "Site").map(\.record.listTitle), ["New, Eve"], "and it outlives the session")
        XCTAssertEqual(try store.undelete(id: id, from: "Site").listTitle, "New, Eve")
    }

    func testUndoAfterAnotherProgramChangedTheFileWorksByIdOrSaysWhy() throws {
        var p = launch()
        p.handle(.key(.character("d")))
        p.handle(.key(.character("y")))              // John deleted
        var outside = try store.load("Site").get()
        outside.records.append(record("Eve", "Outside"))
        try store.save(outside, as: "Site")
        p.handle(.key(.control("z")))
        XCTAssertEqual(try titles(), ["Smith, John", "Jones, Doris", "Sample3, Person3", "Outside, Eve"],
                       "John back in his place, Eve kept")
        // Undo an edit whose field another program changed since: it says why, and nothing moves.
        p.handle(.key(.enter))
        p.handle(.key(.enter))
        p.handle(.key(.character("!")))
        p.handle(.key(.enter))                       // John! saved; heads-down on to Last name
        p.handle(.key(.escape))
        var changed = try store.load("Site").get()
        changed.records[0].values["firstName"] = .string("Jonathan")
        try store.save(changed, as: "Site")
        p.handle(.key(.control("z")))
        XCTAssertEqual(try store.load("Site").get().records[0].values["firstName"], .string("Jonathan"))
        XCTAssertEqual(p.state.status?.text,
                       "Cannot undo the edit of First name of “Smith, John”: “Site” was changed there by another program meanwhile (re-read it)")
        XCTAssertEqual(p.state.records[0].values["firstName"], .string("Jonathan"), "the screen shows the file")
        XCTAssertEqual(p.state.session.history.undo.map(\.label), ["edit of First name of “Smith, John”"], "the step stays, to try again")
    }
}
