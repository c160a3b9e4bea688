import Foundation
import XCTest
import SurveyTestSupport
@testable import SurveyValues
@testable import SurveyForms
@testable import SurveyStorage

/// `append(_:to:)`: all records in one save, to an existing document or a new one.
final class AppendTests: TemporaryFolderTestCase {
    func testAppendsToAnExistingDocumentKeepingItsRecords() throws {
        let old = Record(["firstName": .string("Old"), "notes": .string("kept")])
        try store.save(SurveyDocument(records: [old]), as: "Field")
        let count = try store.append([Record.sample(), Record.sample(first: "Bo")], to: .existing("Field"), questionnaire: .standard)
        XCTAssertEqual(count, 3)
        let records = try store.load("Field").get().records
        XCTAssertEqual(records.map(\.answers), [old.values, Record.sample().values, Record.sample(first: "Bo").values])
        XCTAssertTrue(records.allSatisfy { InstanceIDCheck.isFresh($0.instanceID) }, "each given an id at this save")
        XCTAssertEqual(try folderContents(), ["Field.plist"], "no temporary file left")
    }

    func testANewDocumentIsWrittenWithTheRecords() throws {
        let nested = DocumentStore(folder: folder.appendingPathComponent("a/b"))
        XCTAssertEqual(try nested.append([Record.sample()], to: .new("Fresh"), questionnaire: .standard), 1)
        XCTAssertEqual(try nested.load("Fresh").get().records.map(\.answers), [Record.sample().values])
    }

    func testANewNameTakenMeanwhileIsRefusedAndTheOtherDocumentKept() throws {
        try store.save(SurveyDocument(records: [Record.sample(first: "Theirs")]), as: "fresh")
        XCTAssertThrowsError(try store.append([Record.sample()], to: .new("Fresh"), questionnaire: .standard)) { error in
            XCTAssertEqual(error as? DocumentError, DocumentError("A document named “fresh” already exists"))
        }
        XCTAssertEqual(try store.load("fresh").get().records, [Record.sample(first: "Theirs")])
    }

    func testAnUnreadableDocumentIsNeverReplaced() throws {
        let garbage = Data("garbage".utf8)
        try garbage.write(to: store.url(for: "Broken"))
        XCTAssertThrowsError(try store.append([Record.sample()], to: .existing("Broken"), questionnaire: .standard))
        XCTAssertEqual(try Data(contentsOf: store.url(for: "Broken")), garbage)
    }
}

/// Records that reach a document through `append` (add, import, recovered surveys) carry an
/// `instanceID` afterwards; so do the document's older records found without one.
final class AppendInstanceIDTests: TemporaryFolderTestCase {
    func testANewRecordWithoutAnIDGetsAFreshOne() throws {
        try store.append([Record.sample(), Record.sample(first: "Bo")], to: .new("Field"), questionnaire: .standard)
        let records = try store.load("Field").get().records
        XCTAssertTrue(records.allSatisfy { InstanceIDCheck.isFresh($0.instanceID) }, "\(records)")
        XCTAssertNotEqual(records[0].instanceID, records[1].instanceID)
        XCTAssertEqual(records.map(\.answers), [Record.sample().answers, Record.sample(first: "Bo").answers])
    }

    func testAnImportedRecordKeepsItsOwnID() throws {
        var own = Record.sample()
        own.values[Record.instanceIDKey] = .string("uuid:from-the-export")
        try store.append([own], to: .new("Field"), questionnaire: .standard)
        XCTAssertEqual(try store.load("Field").get().records.first?.instanceID, "uuid:from-the-export")
    }

    func testAnEmptyIDIsReplacedByAFreshOne() throws {
        var empty = Record.sample()
        empty.values[Record.instanceIDKey] = .string("")
        try store.append([empty], to: .new("Field"), questionnaire: .standard)
        XCTAssertTrue(InstanceIDCheck.isFresh(try store.load("Field").get().records.first?.instanceID))
    }

    /// A survey found without an id gets, from `survey add` beside it, the id the app holding
    /// the document open derives for it, so the two agree which survey is which.
    func testAnOldSurveyGetsTheIDTheAppDerivesNotARandomOne() throws {
        let old = Record(["firstName": .string("Old"), "lastName": .string("Timer")])
        try store.save(SurveyDocument(records: [old]), as: "Field")
        var asTheAppOpensIt = try store.load("Field").get()
        _ = asTheAppOpensIt.identifyRecordsFoundWithoutIDs()
        let derived = try XCTUnwrap(asTheAppOpensIt.records[0].instanceID)
        try store.append([Record.sample()], to: .existing("Field"), questionnaire: .standard)
        XCTAssertEqual(try store.load("Field").get().records[0].instanceID, derived)
    }

    func testOlderRecordsWithoutAnIDGetOneAtTheSameSaveAndThoseWithOneKeepIt() throws {
        var kept = Record.sample(first: "Kept")
        kept.values[Record.instanceIDKey] = .string("uuid:11111111-1111-4111-8111-111111111111")
        let old = Record(["firstName": .string("Old"), "notes": .string("kept")])
        try store.save(SurveyDocument(records: [old, kept]), as: "Field")
        try store.append([Record.sample()], to: .existing("Field"), questionnaire: .standard)
        let records = try store.load("Field").get().records
        XCTAssertEqual(records.count, 3)
        XCTAssertTrue(records.allSatisfy { InstanceIDCheck.isFresh($0.instanceID) })
        XCTAssertEqual(records[0].answers, old.values, "only the id was added to the old record")
        XCTAssertEqual(records[1], kept)
    }

    /// However a survey arrives, an id already in the document (or twice in what is added)
    /// is refused and nothing is written.
    func testAnIDTheDocumentAlreadyHasIsRefusedAndNothingWritten() throws {
        var old = Record.sample(first: "Old")
        old.values[Record.instanceIDKey] = .string("uuid:one")
        try store.save(SurveyDocument(records: [old]), as: "Field")
        let before = try Data(contentsOf: store.url(for: "Field"))
        var again = Record.sample(first: "Again")
        again.values[Record.instanceIDKey] = .string("uuid:one")
        XCTAssertThrowsError(try store.append([again], to: .existing("Field"), questionnaire: .standard)) { error in
            XCTAssertEqual(error as? DocumentError,
                           DocumentError("Not added: “Field” already has a survey with the id uuid:one; nothing was written"))
        }
        XCTAssertEqual(try Data(contentsOf: store.url(for: "Field")), before)
        var twin = Record.sample(first: "Twin")
        twin.values[Record.instanceIDKey] = .string("uuid:two")
        XCTAssertThrowsError(try store.append([twin, twin], to: .new("Twins"), questionnaire: .standard))
        XCTAssertFalse(FileManager.default.fileExists(atPath: store.url(for: "Twins").path))
    }
}
