import Foundation
import XCTest
@testable import SurveyValues
@testable import SurveyForms
@testable import SurveyStorage

final class DraftTests: TemporaryFolderTestCase {
    func testSaveLoadRemove() throws {
        var draft = Record.sample(first: "Half", last: "", address: "", phone: "", age: nil)
        draft.values["extra"] = .date(Date(timeIntervalSince1970: 86_400))
        try store.saveDraft(draft, for: "Doc", in: .standard)
        XCTAssertEqual(try folderContents(), [".Doc.draft.plist"])
        XCTAssertEqual(store.loadDraft(for: "Doc"), draft)

        try store.saveDraft(Record(["firstName": .string("")]), for: "Doc", in: .standard)
        XCTAssertEqual(try folderContents(), [], "blank draft removes the file")
        XCTAssertEqual(store.loadDraft(for: "Doc"), Record())
        XCTAssertNoThrow(try store.saveDraft(Record(), for: "Doc", in: .standard), "removing a missing draft is fine")
    }

    func testDraftIsAOneRecordDocument() throws {
        try store.saveDraft(Record.sample(), for: "Doc", in: .standard)
        let data = try Data(contentsOf: store.draftURL(for: "Doc"))
        XCTAssertEqual(try SurveyDocument(propertyListData: data).records, [Record.sample()])
    }

    func testMissingOrUnreadableDraftIsEmpty() throws {
        XCTAssertEqual(store.loadDraft(for: "Nothing"), Record())
        try Data("garbage".utf8).write(to: store.draftURL(for: "Broken"))
        XCTAssertEqual(store.loadDraft(for: "Broken"), Record())
        try Data(#"<?xml version="1.0"?><plist version="1.0"><dict/></plist>"#.utf8).write(to: store.draftURL(for: "Dict"))
        XCTAssertEqual(store.loadDraft(for: "Dict"), Record())
    }

    func testDraftSaveKeepsPermissionsAndLeavesNoTemporaries() throws {
        try store.saveDraft(Record.sample(), for: "Doc", in: .standard)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: store.draftURL(for: "Doc").path)
        try store.saveDraft(Record.sample(first: "Again"), for: "Doc", in: .standard)
        XCTAssertEqual(try permissions(of: store.draftURL(for: "Doc")), 0o600)
        XCTAssertEqual(try folderContents(), [".Doc.draft.plist"])
        XCTAssertEqual(store.loadDraft(for: "Doc"), Record.sample(first: "Again"))
    }

    func testBlankIsJudgedByTheGivenQuestionnaire() throws {
        let onlyNotes = Questionnaire(fields: [FieldSpec(key: "notes", label: "Notes", kind: .text(maxLength: 10), info: "")])
        try store.saveDraft(Record(["notes": .string("n")]), for: "Doc", in: onlyNotes)
        XCTAssertEqual(store.loadDraft(for: "Doc"), Record(["notes": .string("n")]))
    }

    /// The search for a marked id in a document's bytes (issue 31), read a megabyte at a
    /// time: an id across two parts, one only in the journal, and near misses (one byte off,
    /// cut by the end of the file) that must not count.
    func testDocumentBytesHoldAnIdAcrossPartsInTheJournalAndNotANearMiss() throws {
        let id = "uuid:0f3c-marked"
        let part = 1 << 20
        for offset in [part - 1, part - 5, part - id.utf8.count, part, 2 * part - 3] {
            var bytes = [UInt8](repeating: UInt8(ascii: "x"), count: offset)
            bytes += Array(id.utf8) + [UInt8](repeating: UInt8(ascii: "y"), count: 100)
            try Data(bytes).write(to: store.url(for: "Doc"))
            XCTAssertTrue(store.documentBytesHold(id, in: "Doc"), "at \(offset)")
            XCTAssertFalse(store.documentBytesHold(id + "z", in: "Doc"), "at \(offset): a longer id")
        }
        var nearMiss = [UInt8](repeating: UInt8(ascii: "x"), count: part - 4)
        nearMiss += Array(id.dropLast().utf8) + [UInt8(ascii: "X")] + Array(id.dropLast().utf8)
        try Data(nearMiss).write(to: store.url(for: "Doc"))
        XCTAssertFalse(store.documentBytesHold(id, in: "Doc"), "one byte off, then cut by the end")

        try Data("<plist/>".utf8).write(to: store.url(for: "Doc"))
        XCTAssertFalse(store.documentBytesHold(id, in: "Doc"))
        try Data(([UInt8](repeating: 0, count: part - 3) + Array(id.utf8)) ).write(to: store.journalURL(for: "Doc"))
        XCTAssertTrue(store.documentBytesHold(id, in: "Doc"), "only in the journal, across its parts")
        try FileManager.default.removeItem(at: store.url(for: "Doc"))
        XCTAssertTrue(store.documentBytesHold(id, in: "Doc"), "the journal alone")
        XCTAssertFalse(store.documentBytesHold("", in: "Doc"))
        XCTAssertFalse(store.documentBytesHold(id, in: "../Doc"), "not a document name")
        XCTAssertFalse(store.documentBytesHold(id, in: "Missing"))
    }
}
