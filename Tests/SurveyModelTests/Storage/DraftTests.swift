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
}
