import Foundation
import XCTest
@testable import SurveyValues
@testable import SurveyForms
@testable import SurveyStorage

/// A row with a `trigger` through `survey merge`'s path (`DocumentStore.mergeOtherCopies`
/// with the form): it was set on the laptop where its trigger changed, with that laptop's
/// clock, so the merge fires no trigger, copies no triggered value from its own settling,
/// and a clash on one stays a conflict (while a plain calculation's clash is the form's).
final class TriggerMergeTests: TemporaryFolderTestCase {
    private static let form = """
        survey
        ,type,name,label,calculation,trigger
        ,integer,a,A
        ,integer,b,B
        ,calculate,a_at,,now(),${a}
        ,calculate,b_then,,${b},${a}
        ,calculate,twice,,${a} * 2
        """

    private var laptopA: DocumentStore { DocumentStore(folder: folder.appendingPathComponent("a", isDirectory: true)) }
    private var laptopB: DocumentStore { DocumentStore(folder: folder.appendingPathComponent("b", isDirectory: true)) }

    private func survey(_ id: String, _ values: [String: PropertyValue]) -> Record {
        var all = values
        all[Record.instanceIDKey] = .string(id)
        return Record(all)
    }

    private func edit(_ store: DocumentStore, _ id: String, _ change: [String: PropertyValue]) throws {
        var document = try store.load("Field").get()
        let place = try XCTUnwrap(document.records.firstIndex { $0.instanceID == id })
        for (key, value) in change { document.records[place][key] = value }
        try store.save(document, as: "Field")
    }

    private func answers(_ store: DocumentStore, _ id: String) throws -> Record? {
        try store.load("Field").get().records.first { $0.instanceID == id }
    }

    func testAMergeFiresNoTriggerAndKeepsAClashOnATriggeredRowAsAConflict() throws {
        let q = try FormTestSupport.questionnaire(Self.form)
        for store in [laptopA, laptopB] { try FileManager.default.createDirectory(at: store.folder, withIntermediateDirectories: true) }
        let common: [String: PropertyValue] = ["a": .integer(1), "b": .integer(5), "a_at": .string("2026-11-01T09:00:00+01:00"),
                                               "b_then": .string("5"), "twice": .string("2")]
        try laptopA.save(SurveyDocument(records: [survey("uuid:h1", common), survey("uuid:h2", common)]), as: "Field")
        try laptopB.save(SurveyDocument(records: []), as: "Field")
        let date = Date(timeIntervalSince1970: 1_800_000_000)
        _ = try laptopB.mergeOtherCopies([laptopA.url(for: "Field")], into: "Field", write: true, questionnaire: q, at: date)
        _ = try laptopA.mergeOtherCopies([laptopB.url(for: "Field")], into: "Field", write: true, questionnaire: q, at: date)

        // h1: B keys a (its trigger stamps B's time, copies b); A keys b only.
        try edit(laptopB, "uuid:h1", ["a": .integer(2), "a_at": .string("2026-11-02T10:00:00+01:00"), "twice": .string("4")])
        try edit(laptopA, "uuid:h1", ["b": .integer(7)])
        // h2: both key a = 2, each stamping its own time: a clash on the triggered row only.
        try edit(laptopA, "uuid:h2", ["a": .integer(2), "a_at": .string("2026-11-03T08:00:00+01:00"), "twice": .string("4")])
        try edit(laptopB, "uuid:h2", ["a": .integer(2), "a_at": .string("2026-11-04T08:00:00+01:00"), "twice": .string("4")])

        _ = try laptopA.mergeOtherCopies([laptopB.url(for: "Field")], into: "Field", write: true, questionnaire: q, at: date)
        let h1 = try XCTUnwrap(try answers(laptopA, "uuid:h1"))
        XCTAssertEqual(h1["a"], .integer(2))
        XCTAssertEqual(h1["b"], .integer(7))
        XCTAssertEqual(h1["a_at"], .string("2026-11-02T10:00:00+01:00"), "B's stamp, not this laptop's clock at the merge")
        XCTAssertEqual(h1["b_then"], .string("5"), "b as it was when a changed on B: no trigger fires in a merge")
        XCTAssertEqual(h1["twice"], .string("4"), "a plain calculation is the form's")

        let ledger = try laptopA.syncLedger(for: "Field")
        XCTAssertEqual(ledger.conflictList.map { "\($0.id) \($0.field.path)" }, ["uuid:h2 a_at"])
        XCTAssertEqual(try answers(laptopA, "uuid:h2")?["a_at"], .string("2026-11-03T08:00:00+01:00"), "mine held until resolved")
        XCTAssertFalse(q.isCalculation(at: SyncFieldPath(text: "a_at")!))
        XCTAssertTrue(q.isCalculation(at: SyncFieldPath(text: "twice")!))
    }
}
