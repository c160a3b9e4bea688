import Foundation
import XCTest
@testable import SurveyValues
@testable import SurveyForms
@testable import SurveyStorage

/// Issue 30 through `survey merge` (`DocumentStore.mergeOtherCopies`): an incomplete survey
/// (the `incomplete` mark) crosses to another laptop by USB stick marked as such, is finished
/// there while the first laptop goes on keying it, and both laptops end with it complete and
/// every answer kept; the mark merges as any answer, so neither laptop's change is a conflict.
final class IncompleteMergeTests: TemporaryFolderTestCase {
    private var laptopA: DocumentStore { DocumentStore(folder: folder.appendingPathComponent("a", isDirectory: true)) }
    private var laptopB: DocumentStore { DocumentStore(folder: folder.appendingPathComponent("b", isDirectory: true)) }

    static let rosterForm = """
    survey,,,,,,,
    ,type,name,label,required,constraint,relevant,calculation
    ,text,village,Village,yes,,,
    ,begin repeat,member,Household member,,,,
    ,text,name,Name,yes,,,
    ,integer,age,Age,yes,. >= 0 and . <= 120,,
    ,end repeat,,,,,,
    ,calculate,people,People,,,,count(${member})
    ,text,notes,Notes,,,,
    settings,,,,,,,
    ,form_id,version,,,,,
    ,roster,1,,,,,
    """

    private func survey(_ store: DocumentStore, _ id: String) throws -> Record? {
        try store.load("Field").get().records.first { $0.instanceID == id }
    }

    private func change(_ store: DocumentStore, _ id: String, _ body: (inout Record) -> Void) throws {
        var document = try store.load("Field").get()
        let i = try XCTUnwrap(document.records.firstIndex { $0.instanceID == id })
        body(&document.records[i])
        try store.save(document, as: "Field")
    }

    @discardableResult
    private func merge(_ into: DocumentStore, from other: DocumentStore) throws -> [SyncEvent] {
        try into.mergeOtherCopies([other.url(for: "Field")], into: "Field", write: true, at: Date()).events
    }

    func testAnIncompleteSurveyCrossesMarkedAndIsFinishedOnTheOtherLaptop() throws {
        let q = try FormTestSupport.questionnaire(Self.rosterForm)
        let device = DeviceMetadata(deviceID: "survey:a", username: "ana")
        // Laptop A kept a household half keyed: a member's name, not her age.
        var kept = q.keptIncomplete(Record(["village": .string("Mathare"), "member": .array([.dictionary(["name": .string("Ana")])])]),
                                    started: nil, device: device, clock: FormTestSupport.clock)
        kept[Record.instanceIDKey] = .string("uuid:h1")
        XCTAssertTrue(kept.isIncomplete)
        XCTAssertFalse(q.problems(in: kept, clock: FormTestSupport.clock).isEmpty, "it does not pass yet")
        for store in [laptopA, laptopB] { try FileManager.default.createDirectory(at: store.folder, withIntermediateDirectories: true) }
        try laptopA.save(SurveyDocument(records: [kept]), as: "Field")
        try laptopB.save(SurveyDocument(records: []), as: "Field")

        try merge(laptopB, from: laptopA)
        let arrived = try XCTUnwrap(try survey(laptopB, "uuid:h1"))
        XCTAssertTrue(arrived.isIncomplete, "it crosses marked")
        XCTAssertEqual(arrived.instances(of: "member"), [["name": .string("Ana")]], "the member half keyed with it")
        try merge(laptopA, from: laptopB)

        // A goes on keying it (still incomplete); B finishes it from the paper.
        try change(laptopA, "uuid:h1") { $0["notes"] = .string("call back on Tuesday") }
        try change(laptopB, "uuid:h1") { record in
            var answered = record
            answered["member"] = .array([.dictionary(["name": .string("Ana"), "age": .integer(29)])])
            let done = q.finished(answered, device: DeviceMetadata(deviceID: "survey:b", username: "ana"), clock: FormTestSupport.clock)
            XCTAssertEqual(q.problems(in: done, clock: FormTestSupport.clock).count, 0)
            record = done
        }
        XCTAssertFalse(try XCTUnwrap(try survey(laptopB, "uuid:h1")).isIncomplete)

        let events = try merge(laptopA, from: laptopB)
        XCTAssertFalse(events.contains { $0.kind == .conflicted }, "\(events)")
        XCTAssertTrue(events.contains { $0.kind == .merged }, "both changed it: merged answer by answer, the mark too: \(events)")
        try merge(laptopB, from: laptopA)
        for store in [laptopA, laptopB] {
            let done = try XCTUnwrap(try survey(store, "uuid:h1"))
            XCTAssertFalse(done.isIncomplete, "finished on B, complete on both")
            XCTAssertNil(done[Record.incompleteKey])
            XCTAssertEqual(done.instances(of: "member")[0]["age"], .integer(29))
            XCTAssertEqual(done["notes"], .string("call back on Tuesday"), "A's answer, keyed while it was incomplete, kept")
        }
        XCTAssertTrue(try laptopA.syncLedger(for: "Field").conflicts.isEmpty)
    }
}
