import Foundation
import XCTest
import SurveyValues
import SurveyForms
import SurveyStorage
@testable import SurveyUI
@testable import SurveyRuntime

/// The app reopens a document where the person left it: the same record (by id, even when
/// another program added records before it) and the same list order.
final class SessionPlaceTests: XCTestCase {
    func testTheRecordByIdAndTheOrderComeBackAfterARelaunch() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("survey-place-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let store = DocumentStore(folder: folder)
        var doc = SurveyDocument(records: [record("Zed", "Zulu"), record("Amy", "Alpha"), record("Mo", "Mike")])
        doc.assignMissingInstanceIDs()
        try store.save(doc, as: "Site")
        let memory = SessionMemory(url: folder.appendingPathComponent(".state/state.plist"))
        var p = Program(store: store, documentName: "Site", size: Size(width: 120, height: 40), memory: memory)
        p.handle(.key(.character("s")))                     // by last name: Alpha, Mike, Zulu
        XCTAssertEqual(p.state.formRecord.listTitle, "Zulu, Zed", "sorting keeps the highlight on its record")
        p.handle(.key(.home))
        p.handle(.key(.down))
        XCTAssertEqual(p.state.formRecord.listTitle, "Mike, Mo")
        p.handle(.key(.control("q")))
        XCTAssertTrue(p.isFinished)
        // Another program puts a record first: "record 3" would now be someone else.
        var outside = try store.load("Site").get()
        outside.records.insert(record("New", "Nancy"), at: 0)
        try store.save(outside, as: "Site")
        let again = Program(store: store, documentName: "Site", size: Size(width: 120, height: 40),
                            memory: SessionMemory(url: memory.url))
        XCTAssertEqual(again.state.formRecord.listTitle, "Mike, Mo", "found by its id")
        XCTAssertEqual(again.state.list.order, ListOrder(key: .lastName))
        XCTAssertEqual(again.state.positionTitle, "2 of 4", "Alpha, Mike, Nancy, Zulu")
    }

    /// The terminal draws the first frame before records found without an id get theirs
    /// (`identifyLater`); `finishOpening()` then gives the same ids as opening at once, and
    /// finds the remembered record by its id.
    func testIdsGivenAfterTheFirstFrameAreTheSameAndFindTheRememberedRecord() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("survey-later-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let store = DocumentStore(folder: folder)
        // The original app's file: no ids.
        let plain = SurveyDocument(records: [record("Zed", "Zulu"), record("Amy", "Alpha"), record("Mo", "Mike")])
        try Data(try plain.propertyListData()).write(to: store.url(for: "Site"))
        let memory = SessionMemory(url: folder.appendingPathComponent(".state/state.plist"))
        let eager = Program(store: store, documentName: "Site", size: Size(width: 120, height: 40))
        XCTAssertTrue(eager.state.records.allSatisfy { $0.instanceID != nil })
        var mike = SessionMemory(url: memory.url)
        mike.remember(document: "Site", place: .init(record: 0, recordID: eager.state.records[2].instanceID), in: folder)
        try mike.save()

        var later = Program(store: store, documentName: "Site", size: Size(width: 120, height: 40),
                            memory: SessionMemory(url: memory.url), identifyLater: true)
        XCTAssertTrue(later.state.records.allSatisfy { $0.instanceID == nil }, "the first frame comes before the ids")
        XCTAssertEqual(later.state.formRecord.listTitle, "Zulu, Zed", "by the remembered position, for now")
        later.finishOpening()
        XCTAssertEqual(later.state.records.map(\.instanceID), eager.state.records.map(\.instanceID))
        XCTAssertEqual(later.state.formRecord.listTitle, "Mike, Mo", "then found by its id")
        XCTAssertEqual(try Data(contentsOf: store.url(for: "Site")), try plain.propertyListData(),
                       "the file is not touched until a save")
    }
}
