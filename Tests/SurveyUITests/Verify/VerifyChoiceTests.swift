import XCTest
import SurveyValues
import SurveyForms
@testable import SurveyUI

/// Which survey `v` verifies, from the verification record and the surveys alone (issue 29:
/// verify's own), with no `AppState` in sight.
final class VerifyChoiceTests: XCTestCase {
    private let records = RecordList([
        Record([Record.instanceIDKey: .string("uuid:a")]),
        Record([Record.instanceIDKey: .string("uuid:b")]),
        Record([Record.instanceIDKey: .string("uuid:c"), Record.incompleteKey: .bool(true)]),
    ])

    private func line(_ kind: VerificationEntry.Kind, _ survey: String, _ path: String = "") -> VerificationEntry {
        VerificationEntry(kind: kind, survey: survey, path: path, login: "v", date: Date(timeIntervalSince1970: 0))
    }

    private func choose(_ entries: [VerificationEntry], shown: Int?) -> VerifySession.Choice {
        VerifySession.choose(from: VerificationLog(entries), records: records, shown: shown, title: { "“\($0.instanceID ?? "")”" })
    }

    func testTheSurveyShownIsVerifiedWhenNoneIsChosenAndItIsNotVerifiedYet() {
        XCTAssertEqual(choose([], shown: 1), .begin("uuid:b", settled: [], waiting: [], resumes: [:], noteChosen: true))
        XCTAssertEqual(choose([line(.finished, "uuid:b")], shown: 1),
                       .tell("Nothing to verify: show a survey (or choose some with survey verify), then v"))
        XCTAssertEqual(choose([], shown: 2), .warn("This survey is incomplete: finish it before verifying it"))
        XCTAssertEqual(choose([], shown: nil), .tell("Nothing to verify: show a survey (or choose some with survey verify), then v"))
    }

    func testTheChosenWaitGoFirstAPartlyVerifiedOneResuming() {
        let log = [line(.chosen, "uuid:a"), line(.chosen, "uuid:b"), line(.chosen, "uuid:c"), line(.same, "uuid:b", "age")]
        // Shown: the New form. b is partly verified, so it comes first; c is incomplete and left out.
        XCTAssertEqual(choose(log, shown: nil),
                       .begin("uuid:b", settled: ["age"], waiting: ["uuid:a"], resumes: ["uuid:a": []], noteChosen: false))
        XCTAssertEqual(choose(log, shown: 0),
                       .begin("uuid:a", settled: [], waiting: ["uuid:b"], resumes: ["uuid:b": ["age"]], noteChosen: false),
                       "the survey shown, when it waits")
        XCTAssertEqual(choose(log + [line(.finished, "uuid:a"), line(.finished, "uuid:b")], shown: 0),
                       .tell("Every survey chosen for verification is verified"))
    }

    func testVStartsByReadingTheRecordOfADocumentWhollyReadWithSurveys() {
        var session = DocumentSession(questionnaire: .standard, documentName: "Plots")
        XCTAssertEqual(session.verificationStart(stillLoading: "Still loading… (40%)").effects, [], "no document")
        session.document = SurveyDocument(records: [])
        XCTAssertEqual(session.verificationStart(stillLoading: "").remark, .init("No surveys to verify yet"))
        session.document = SurveyDocument(records: Array(records))
        let start = session.verificationStart(stillLoading: "")
        XCTAssertEqual(start.effects, [.readVerification(thenVerify: true)])
        XCTAssertNil(start.remark)
        session.beginLoading(percent: 40, awaiting: nil, shownMeanwhile: nil)
        XCTAssertEqual(session.verificationStart(stillLoading: "Still loading… (40%)").remark,
                       .init("Still loading… (40%): verification starts once the whole document is read", kind: .error))
    }
}
