import Foundation
import XCTest
import SurveyTestSupport
@testable import SurveyValues
@testable import SurveyForms
@testable import SurveyStorage

/// Kept surveys put back: merged into the survey their document still has (three ways,
/// against the version a save clash kept beside them), never appended as a second survey
/// with the same id; what clashed named, and the version not taken kept in .trash.
final class RecoveryMergeTests: TemporaryFolderTestCase {
    private static func withID(_ record: Record, _ id: String = "uuid:aaaaaaaa-0000-4000-8000-000000000001") -> Record {
        var copy = record
        copy[Record.instanceIDKey] = .string(id)
        return copy
    }

    private let before = withID(Record.sample(first: "Ana", address: "Rua 1", phone: "555"))
    private let here = withID(Record.sample(first: "Ana", address: "Rua 1", phone: "777"))
    private let there = withID(Record.sample(first: "Ana", address: "Rua 9", phone: "000"))
    private let bo = withID(Record.sample(first: "Bo"), "uuid:bbbbbbbb-0000-4000-8000-000000000002")

    private func trashContents() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: store.trashFolder.path).sorted()
    }

    func testAClashKeepsTheVersionBothStartedFromBesideTheKeptSurvey() throws {
        let file = try store.saveRecovery([there], bases: [before], for: "Site", at: Date())
        let base = String(file.dropLast(".plist".count)) + ".base.plist"
        XCTAssertEqual(try folderContents(), [file, base].sorted())
        let kept = store.recoveries()
        XCTAssertEqual(kept.count, 1, "the base is no recovery of its own")
        XCTAssertEqual(kept.first?.records, [there])
        XCTAssertEqual(kept.first?.bases, [before.instanceID!: before])
        XCTAssertEqual(kept.first?.keptFromClash, true)
    }

    func testPuttingItBackMergesIntoTheSurveyTheDocumentStillHas() throws {
        try store.save(SurveyDocument(records: [here, bo]), as: "Site")
        try store.saveRecovery([there], bases: [before], for: "Site", at: Date())
        let kept = try XCTUnwrap(store.recoveries().first)
        let done = try store.restore(kept, clock: .wall)
        let records = try store.load("Site").get().records
        XCTAssertEqual(records.count, 2, "no second survey with the same id")
        XCTAssertEqual(records[0].values["phone"], .string("777"), "yours where both changed")
        XCTAssertEqual(records[0].values["address"], .string("Rua 9"), "theirs where only they changed")
        XCTAssertEqual(records[1], bo)
        XCTAssertEqual(done.merge.clashes, [RecoveryMerge.Clash(survey: "Lima, Ana", field: "Phone", yours: .string("777"), theirs: .string("000"))])
        XCTAssertEqual(done.merge.summary(into: done.name),
                       "Merged 1 kept survey into “Site”; took theirs for Address; kept yours where both changed: Phone (theirs was 000); the other version is in .trash")
        XCTAssertEqual(store.recoveries(), [])
        XCTAssertEqual(try folderContents(), [".trash", "Site.plist"])
        XCTAssertEqual(try trashContents(), [kept.fileName, Recovery.baseFileName(of: kept.fileName)].sorted(),
                       "theirs is kept whole, never erased")
    }

    func testTakingTheirsWhereBothChangedKeepsYoursInTheTrash() throws {
        try store.save(SurveyDocument(records: [here]), as: "Site")
        try store.saveRecovery([there], bases: [before], for: "Site", at: Date())
        let kept = try XCTUnwrap(store.recoveries().first)
        try store.restore(kept, theirsWhereBothChanged: true, clock: .wall)
        let records = try store.load("Site").get().records
        XCTAssertEqual(records.map { $0.values["phone"] }, [.string("000")])
        XCTAssertEqual(records.map { $0.values["address"] }, [.string("Rua 9")])
        let yours = String(kept.fileName.dropLast(".plist".count)) + ".yours.plist"
        XCTAssertEqual(try trashContents(), [kept.fileName, Recovery.baseFileName(of: kept.fileName), yours].sorted())
        let replaced = try SurveyDocument(propertyListData: Data(contentsOf: store.trashFolder.appendingPathComponent(yours)))
        XCTAssertEqual(replaced.records, [here], "yours as it was")
    }

    /// Without the version both started from (an older recovery), every answer the two hold
    /// differently clashes: yours stay, theirs are named, and nothing is guessed.
    func testWithoutABaseEveryDifferentAnswerClashesAndYoursStay() throws {
        let kept = Recovery(documentName: "Site", fileName: ".Site.recovered-1.plist", date: Date(), records: [there])
        let merge = kept.merge(into: SurveyDocument(records: [here]), questionnaire: .standard, theirsWhereBothChanged: false, clock: .wall)
        XCTAssertEqual(merge.document.records, [here])
        XCTAssertEqual(merge.clashes.map(\.field), ["Address", "Phone"])
    }

    func testASurveyTheDocumentNoLongerHasGoesBackAsNew() throws {
        try store.save(SurveyDocument(records: [bo]), as: "Site")
        try store.saveRecovery([there], bases: [before], for: "Site", at: Date())
        let done = try store.restore(try XCTUnwrap(store.recoveries().first), clock: .wall)
        XCTAssertEqual(try store.load("Site").get().records, [bo, there])
        XCTAssertEqual(done.merge.summary(into: "Site"), "Put 1 survey back into “Site” as new")
    }
}
