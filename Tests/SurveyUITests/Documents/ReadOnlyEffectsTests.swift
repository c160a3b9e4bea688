import Foundation
import XCTest
import SurveyValues
import SurveyForms
import SurveyStorage
import SurveyUITestSupport
@testable import SurveyUI

/// What a read-only document refuses is told by each effect itself, every case named (no
/// `default`, `Effect.swift`), so a new effect that writes cannot slip past read-only mode
/// (issue 29). These tests hold a sample of every case of `Effect`: `ordinal` names each case
/// with no `default` either, so a new case does not compile here until it is counted, and
/// then `testTheSamplesHoldEveryCase` fails until it has a sample.
final class ReadOnlyEffectsTests: XCTestCase {
    private static let kept = Recovery(documentName: "Field Day", fileName: ".Field Day.recovered-20270115-080000-42.plist",
                                       date: Date(timeIntervalSince1970: 1_800_000_000), records: [])
    private static let elsewhere = Recovery(documentName: "Farm", fileName: ".Farm.recovered-20270115-080000-42.plist",
                                            date: Date(timeIntervalSince1970: 1_800_000_000), records: [])

    /// The number of cases of `Effect`, and each case's place among them.
    private static let caseCount = 33
    private static func ordinal(_ effect: Effect) -> Int {
        switch effect {
        case .saveDocument: 0
        case .saveDraft: 1
        case .syncDocument: 2
        case .readSyncSummary: 3
        case .resolveConflict: 4
        case .quit: 5
        case .listDocuments: 6
        case .openDocument: 7
        case .createDocument: 8
        case .renameDocument: 9
        case .deleteDocument: 10
        case .restoreDocument: 11
        case .saveDocumentAs: 12
        case .rememberSession: 13
        case .restoreRecovery: 14
        case .putAwayRecovery: 15
        case .discardRecovery: 16
        case .lookForRecoveries: 17
        case .keepDeleted: 18
        case .keepDeletedMember: 19
        case .forgetDeleted: 20
        case .keepUnsavedWork: 21
        case .buildSearchIndex: 22
        case .searchAhead: 23
        case .finishSearch: 24
        case .cancelSearch: 25
        case .attachFile: 26
        case .readHistory: 27
        case .readVerification: 28
        case .noteKeyed: 29
        case .noteVerification: 30
        case .noteCorrection: 31
        case .noteAudit: 32
        }
    }

    /// A search left to finish, as a key on a long list leaves one (`SearchJob` has no public
    /// way in).
    private func unfinishedSearch() throws -> SearchJob {
        var s = makeState((0..<400).map { Record(["firstName": .string("Ana"), "lastName": .string("Lima \($0)")]) })
        s.list.useWindow(SearchWindow(threshold: 10, limit: 5, budget: 10))
        s.press(.character("/"))
        s.type("a")
        return try XCTUnwrap(s.list.searchToFinish)
    }

    /// Every effect, each with whether it writes the open document ("Field Day"): the oracle,
    /// stated here case by case rather than read from `writesSurveys`.
    private func samples() throws -> [(effect: Effect, writes: Bool)] {
        let entry = VerificationEntry(kind: .keyed, survey: "uuid:a", login: "ana", date: Date(timeIntervalSince1970: 0))
        let added = AddedSurvey(Record(["age": .integer(4)]), near: 0)
        return [
            (.saveDocument, true), (.saveDraft, true), (.syncDocument, true), (.readSyncSummary, false),
            (.resolveConflict(id: "uuid:a", path: SyncFieldPath([.key("age")]), keepMine: true), true),
            (.resolveConflict(id: "uuid:a", path: SyncFieldPath([.key("age")]), keepMine: false), true),
            (.quit, false), (.listDocuments, false), (.openDocument("Farm"), false), (.createDocument, false),
            (.renameDocument(from: "Field Day", to: "Farm"), false), (.deleteDocument("Field Day", records: 2), false),
            (.restoreDocument, false), (.saveDocumentAs("Field Day 2"), false), (.rememberSession, false),
            (.restoreRecovery(Self.kept, theirsWhereBothChanged: false), true),
            (.restoreRecovery(Self.kept, theirsWhereBothChanged: true), true),
            (.restoreRecovery(Self.elsewhere, theirsWhereBothChanged: false), false),   // into another document
            (.putAwayRecovery(Self.kept, replaced: []), true), (.discardRecovery(Self.kept), false),
            (.lookForRecoveries, false), (.keepDeleted([Record(["age": .integer(4)])]), true),
            (.keepDeletedMember(DeletedMemberEntry(answers: ["name": .string("Bo")], survey: "uuid:a", roster: "members",
                                                   deletedAt: Date(timeIntervalSince1970: 0))), true),
            (.forgetDeleted(["uuid:a"]), true), (.keepUnsavedWork, false), (.buildSearchIndex, false),
            (.searchAhead("ana"), false), (.finishSearch(try unfinishedSearch()), false), (.cancelSearch, false),
            (.attachFile(path: "/tmp/photo.jpg"), true), (.readHistory(survey: "uuid:a"), false),
            (.readVerification(thenVerify: true), false), (.noteKeyed(added, entry), true), (.noteVerification([entry]), true),
            (.noteCorrection(entry, path: AnswerPath("age"), value: .integer(5)), true),
            (.noteAudit(document: "Field Day", [AuditEvent(kind: .formStart, start: 0)], addedSurvey: added), true),
        ]
    }

    func testTheSamplesHoldEveryCase() throws {
        XCTAssertEqual(Set(try samples().map { Self.ordinal($0.effect) }), Set(0..<Self.caseCount),
                       "each case of Effect has a sample (a new one: count it in `ordinal` and add one)")
    }

    func testEffectsThatWriteTheOpenDocumentSaySo() throws {
        for (effect, writes) in try samples() {
            XCTAssertEqual(effect.writesSurveys(of: "Field Day"), writes, "\(effect)")
        }
    }

    /// Read-only mode itself: with nothing else changed by the key, each writing effect is
    /// refused and each other one let through.
    func testReadOnlyModeRefusesEveryWritingEffect() throws {
        let s = AppState(documentName: "Field Day", loaded: .success(SurveyDocument(records: sampleRecords())),
                         size: Size(width: 120, height: 40), formTrouble: .missing(formID: "household"), environment: .forTests)
        XCTAssertFalse(s.refusesReadOnly(s, []), "a key that changes nothing is taken")
        for (effect, writes) in try samples() {
            XCTAssertEqual(s.refusesReadOnly(s, [effect]), writes, "\(effect)")
            XCTAssertEqual(s.refusesReadOnly(s, [.listDocuments, effect]), writes, "\(effect) after another")
        }
    }
}
