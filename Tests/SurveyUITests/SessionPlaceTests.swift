import Foundation
import XCTest
import SurveyModel
@testable import SurveyUI

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
}
