import Foundation
import XCTest
import SurveyTestSupport
@testable import SurveyValues
@testable import SurveyForms

/// A finished survey of a form with a `public_key` made the encrypted survey the document
/// keeps (issue 31): only the readable keys in clear, the rest inside the submission, which
/// opens with the private key to what the export writes; the `#` keys no question can take;
/// and the merge of an encrypted survey is whole.
final class SealedSurveyTests: XCTestCase {
    static let key = try! RSAPrivateKey.generate()

    private func questionnaire(publicKey: String) throws -> Questionnaire {
        let result = XLSForm.read(try XLSFormSheets.markdown("""
            | survey |
            | | type | name | label | publishable | required |
            | | start | start | | | |
            | | deviceid | deviceid | | | |
            | | text | respondent | Respondent | | yes |
            | | text | village | Village | true | |
            | | begin repeat | member | Member | | |
            | | text | name | Name | yes | |
            | | end repeat | | | | |
            | settings |
            | | form_id | version | public_key |
            | | household | 7 | \(publicKey) |
            """))
        XCTAssertEqual(result.errors, [])
        return Questionnaire(form: try XCTUnwrap(result.form))
    }

    func testOnlyTheReadableKeysStayInClearAndTheSubmissionOpensWithTheKey() throws {
        let q = try questionnaire(publicKey: try Self.key.publicKey.base64)
        XCTAssertEqual(q.form?.questions.first { $0.name == "village" }?.publishable, true, "the publishable column, yes/true")
        XCTAssertEqual(q.form?.questions.first { $0.name == "respondent" }?.publishable, false)
        let survey = Record(["start": .string("2026-03-01T09:00:00Z"), "deviceid": .string("laptop-7"),
                             "respondent": .string("Ana Lima"), "village": .string("Kijiji"),
                             "member": .array([.dictionary(["name": .string("Bo")])]),
                             "formID": .string("household"), "formVersion": .string("7"),
                             Record.instanceIDKey: .string("uuid:5")])
        XCTAssertTrue(SealedSurvey.needsSealing(survey))
        let sealed = try SealedSurvey.seal(survey, questionnaire: q, key: try Self.key.publicKey)
        XCTAssertTrue(sealed.isSealed)
        XCTAssertFalse(SealedSurvey.needsSealing(sealed))
        XCTAssertEqual(sealed.readableValues, ["start": .string("2026-03-01T09:00:00Z"), "village": .string("Kijiji"),
                                               "formID": .string("household"), "formVersion": .string("7"),
                                               Record.instanceIDKey: .string("uuid:5")],
                       "the device id and a member's publishable answer are not top-level readable answers")
        XCTAssertEqual(Set(sealed.keys.filter(Record.Sealed.isSealedKey)),
                       ["#formID", "#version", "#base64EncryptedKey", "#submission.xml.enc", "#base64EncryptedElementSignature"])
        XCTAssertEqual(q.title(of: sealed), "Kijiji")
        // Judged when finished: its required respondent is not readable, and breaks no rule here
        // (the list marks no ⚠, F4 counts nothing).
        XCTAssertTrue(FormInstance(q, record: sealed, clock: .wall).problems().isEmpty)
        XCTAssertFalse(FormInstance(q, record: Record(["village": .string("Kijiji")]), clock: .wall).problems().isEmpty)

        let opened = try SealedSurvey.open(sealed, with: Self.key)
        XCTAssertTrue(opened.isValidated)
        XCTAssertEqual(opened.manifest.formID, "household")
        XCTAssertEqual(opened.manifest.version, "7")
        XCTAssertEqual(opened.manifest.instanceID, "uuid:5")
        XCTAssertEqual(String(decoding: opened.submissionXML, as: UTF8.self), try ODKSubmission.xml(survey, questionnaire: q),
                       "the submission the export writes")
        // The folder's files rebuilt from the stored fields alone, as the export writes them.
        let files = try SealedSurvey.submission(of: sealed)
        XCTAssertEqual(files.manifest.base64EncryptedKey, opened.manifest.base64EncryptedKey)
        XCTAssertEqual(files.files.map(\.name), ["submission.xml.enc"])
    }

    func testASurveyWithoutPublishableAnswersIsNamedEncryptedAndADamagedOneSaysSo() throws {
        let q = try questionnaire(publicKey: try Self.key.publicKey.base64)
        var survey = Record(["respondent": .string("Ana"), Record.instanceIDKey: .string("uuid:6")])
        let sealed = try SealedSurvey.seal(survey, questionnaire: q, key: try Self.key.publicKey,
                                           media: [ODKSubmissionFile(name: "audit.csv", bytes: Array("event\n".utf8))])
        XCTAssertEqual(q.title(of: sealed), "(encrypted)")
        XCTAssertEqual(sealed[Record.Sealed.mediaNamesKey], .array([.string("audit.csv.enc")]))
        let opened = try SealedSurvey.open(sealed, with: Self.key)
        XCTAssertEqual(opened.media.map(\.name), ["audit.csv"])
        var damaged = sealed
        damaged[Record.Sealed.encryptedKeyKey] = nil
        XCTAssertThrowsError(try SealedSurvey.submission(of: damaged)) { error in
            XCTAssertTrue("\(error)".contains("has no base64EncryptedKey: it is damaged"), "\(error)")
        }
        // A survey being keyed is never sealed; nor one without its id.
        survey.setIncomplete(true)
        XCTAssertFalse(SealedSurvey.needsSealing(survey))
        XCTAssertFalse(SealedSurvey.needsSealing(Record(["respondent": .string("Ana")])))
    }

    func testAKeyThatIsNoKeyIsRefusedWithTheReason() throws {
        let q = try questionnaire(publicKey: "QUJD")
        XCTAssertThrowsError(try SealedSurvey.publicKey(of: q)) { error in
            XCTAssertTrue("\(error)".contains("public_key is not a usable RSA public key"), "\(error)")
        }
        var document = SurveyDocument(records: [Record(["respondent": .string("Ana"), Record.instanceIDKey: .string("uuid:7")])])
        XCTAssertThrowsError(try document.sealFinishedSurveys(at: document.records.indices, questionnaire: q))
        XCTAssertEqual(document.records.first?.text(forKey: "respondent"), "Ana", "nothing changed")
    }

    /// No XLSForm name can be one of the encrypted submission's keys.
    func testTheSealedKeysAreNoQuestionsName() {
        for key in Record.Sealed.keys {
            XCTAssertFalse(XLSFormReader.isXMLName(key), key)
            XCTAssertTrue(Record.Sealed.isSealedKey(key))
        }
    }

    /// Taken whole from the side that changed it; changed on both, one conflict of the whole.
    func testAnEncryptedSurveyMergesWhole() throws {
        let q = try questionnaire(publicKey: try Self.key.publicKey.base64)
        let draft: [String: PropertyValue] = ["respondent": .string("Ana"), "incomplete": .bool(true)]
        var finished = Record(draft)
        finished.setIncomplete(false)
        finished[Record.instanceIDKey] = .string("uuid:8")
        var sealed = try SealedSurvey.seal(finished, questionnaire: q, key: try Self.key.publicKey).values
        sealed[Record.instanceIDKey] = nil
        var edited = draft
        edited["village"] = .string("Kijiji")

        XCTAssertEqual(AnswerMerge.merge(base: draft, mine: draft, theirs: sealed), .init(answers: sealed, conflicts: []))
        XCTAssertEqual(AnswerMerge.merge(base: draft, mine: sealed, theirs: draft), .init(answers: sealed, conflicts: []))
        let both = AnswerMerge.merge(base: draft, mine: edited, theirs: sealed)
        XCTAssertEqual(both.answers, edited, "mine kept until someone chooses")
        XCTAssertEqual(both.conflicts, [FieldConflict(path: SyncFieldPath(), base: .dictionary(draft),
                                                      mine: .dictionary(edited), theirs: .dictionary(sealed))])
    }

    /// Media names stored in an encrypted survey (a teammate's, synced) are checked whole:
    /// a name that is a path, or lacks `.enc`, makes the survey damaged, never a file path.
    func testMediaNamesThatArePathsAreRefusedWhole() throws {
        let q = try questionnaire(publicKey: try Self.key.publicKey.base64)
        let sealed = try SealedSurvey.seal(Record(["respondent": .string("Ana"), Record.instanceIDKey: .string("uuid:m")]),
                                           questionnaire: q, key: try Self.key.publicKey,
                                           media: [ODKSubmissionFile(name: "audit.csv", bytes: Array("event\n".utf8))])
        XCTAssertEqual(try SealedSurvey.submission(of: sealed).manifest.mediaFiles, ["audit.csv.enc"])
        for bad in ["a/bcd", "x/../", "../x.enc", "audit.csv", ".enc", "..\\.enc"] {
            var damaged = sealed
            damaged.values[Record.Sealed.mediaNamesKey] = .array([.string(bad)])
            XCTAssertThrowsError(try SealedSurvey.submission(of: damaged), bad)
        }
    }
}
