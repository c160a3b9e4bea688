import Foundation
import XCTest
import SurveyValues
import SurveyForms
import SurveyStorage
@testable import SurveyUI

/// What a read-only document refuses is told by each effect itself, every case named (no
/// `default`), so a new effect that writes cannot slip past read-only mode (issue 29).
final class ReadOnlyEffectsTests: XCTestCase {
    private let kept = Recovery(documentName: "Field", fileName: ".Field.recovered-20270115-080000-42.plist",
                                date: Date(timeIntervalSince1970: 1_800_000_000), records: [])

    func testEffectsThatWriteTheOpenDocumentSaySo() {
        let writes: [Effect] = [
            .saveDocument, .saveDraft, .syncDocument, .keepDeleted([]), .forgetDeleted([]),
            .resolveConflict(id: "uuid:a", path: SyncFieldPath([.key("age")]), keepMine: true),
            // Put in the open document and saved; a member's answers kept beside it; a file
            // copied into its media folder for an answer: the list before forgot these three.
            .putAwayRecovery(kept, replaced: []),
            .keepDeletedMember(DeletedMemberEntry(answers: ["name": .string("Bo")], survey: "uuid:a", roster: "members",
                                                  deletedAt: Date(timeIntervalSince1970: 0))),
            .attachFile(path: "/tmp/photo.jpg"),
            .restoreRecovery(kept, theirsWhereBothChanged: false),
        ]
        for effect in writes { XCTAssertTrue(effect.writesSurveys(of: "Field"), "\(effect)") }
        let others: [Effect] = [
            .restoreRecovery(kept, theirsWhereBothChanged: false),          // into another document
            .quit, .listDocuments, .openDocument("Other"), .createDocument, .renameDocument(from: "Field", to: "Farm"),
            .deleteDocument("Field", records: 2), .restoreDocument, .saveDocumentAs("Field 2"), .rememberSession,
            .discardRecovery(kept), .lookForRecoveries, .keepUnsavedWork, .readSyncSummary, .buildSearchIndex,
        ]
        for effect in others { XCTAssertFalse(effect.writesSurveys(of: "Another"), "\(effect)") }
    }
}
