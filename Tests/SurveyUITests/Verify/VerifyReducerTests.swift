import XCTest
import SurveyValues
import SurveyForms
import SurveyUITestSupport
@testable import SurveyUI

/// Verify mode's own reducer (issue 29: a child reducer, as the form's): CSPro's rules for
/// an answer keyed again from paper, Tab's both answers and Esc, decided from the session and
/// what it reads of the app (the verifier's login, the clock), and what it asks of the app as
/// a value, with no `AppState` in sight.
final class VerifyReducerTests: XCTestCase {
    private let moment = Date(timeIntervalSince1970: 1_796_032_800)
    private var context: VerifySession.Context { .init(login: "verifier1", clock: .pinned(moment)) }

    /// A survey of two questions, Plot “P1” and Trees 12 (`. < 100`), none verified yet.
    private func session(settled: Set<String> = []) throws -> VerifySession {
        let q = try questionnaire(csv: """
        survey,,,,
        ,type,name,label,constraint
        ,text,plot,Plot,
        ,integer,trees,Trees counted,. < 100
        """)
        let record = Record(["instanceID": .string("uuid:a"), "plot": .string("P1"), "trees": .integer(12)])
        let clock = Questionnaire.Clock(now: moment, timeZone: .utc)
        return VerifySession(survey: "uuid:a", title: "“P1”", questions: VerifySession.questions(of: record, in: q, clock: clock),
                             settled: settled, waiting: [])
    }

    private func key(_ text: String, into session: inout VerifySession) -> VerifySession.Request {
        session.edit { $0 = TextInput(text: text) }
        return session.reduce(.keep, in: context)
    }

    private func entry(_ kind: VerificationEntry.Kind, _ path: String, stored: String, keyed: String) -> VerificationEntry {
        VerificationEntry(kind: kind, survey: "uuid:a", path: path, login: "verifier1", date: moment, stored: stored, keyedValue: keyed)
    }

    func testTheStoredAnswerKeyedAgainIsVerifiedAndWrittenWithTheVerifierAndTheMoment() throws {
        var s = try session()
        XCTAssertEqual(key("P1", into: &s), .settled(entry(.same, "plot", stored: "P1", keyed: "P1"), remark: nil))
        XCTAssertEqual(s.currentQuestion?.path.description, "trees", "on to the next question")
        XCTAssertEqual(s.input.text, "", "its field blank")
        XCTAssertEqual(s.tally.same, 1)
    }

    func testADifferenceIsAskedAgainThenTheStoredAnswerIsAVerifierError() throws {
        var s = try session()
        XCTAssertEqual(key("P7", into: &s), .warn("Not what was keyed: key it again from the paper (Tab shows both)"))
        XCTAssertEqual(s.currentQuestion?.path.description, "plot", "the same question")
        XCTAssertEqual(s.firstTryText, "P7")
        XCTAssertEqual(s.input.text, "", "asked again with the field blank")
        XCTAssertEqual(key("P1", into: &s), .settled(entry(.verifierError, "plot", stored: "P1", keyed: "P1"),
                                                     remark: "Kept Plot: “P1” as stored (a verifier error)"))
        XCTAssertEqual(s.tally.verifierErrors, 1)
        XCTAssertTrue(s.firstTry == nil)
    }

    func testTheSameNewAnswerTwiceAsksTheAppToCorrectItAndSettlesOnlyOnceItStood() throws {
        var s = try session()
        _ = key("P7", into: &s)
        let request = key("P7", into: &s)
        let question = try XCTUnwrap(s.currentQuestion)
        XCTAssertEqual(request, .correct(question, text: "P7", typed: "P7"))
        XCTAssertEqual(s.verifiedCount, 0, "not verified until the form kept the correction")
        let (line, remark) = s.corrected(question, typed: "P7", in: context)
        XCTAssertEqual(line, entry(.keyerError, "plot", stored: "P1", keyed: "P7"))
        XCTAssertEqual(remark, "Replaced Plot: “P1” → “P7” (a keyer error)")
        XCTAssertEqual(s.tally.keyerErrors, 1)
        XCTAssertEqual(s.currentQuestion?.path.description, "trees")
    }

    func testAnAnswerThatIsNotANumberIsRefusedAndChangesNothing() throws {
        var s = try session(settled: ["plot"])
        let before = s
        guard case .warn = key("twelve", into: &s) else { return XCTFail("refused with a reason") }
        XCTAssertEqual(s.questions, before.questions)
        XCTAssertTrue(s.firstTry == nil, "no first try kept")
        XCTAssertEqual(s.verifiedCount, 1)
    }

    func testTabShowsBothOnlyAfterADifference() throws {
        var s = try session()
        XCTAssertEqual(s.reduce(.toggleBoth, in: context),
                       .tell("Key the answer first: both are shown once what you key differs from what is stored"))
        XCTAssertFalse(s.showsBoth)
        _ = key("P7", into: &s)
        XCTAssertEqual(s.reduce(.toggleBoth, in: context), .none)
        XCTAssertTrue(s.showsBoth)
    }

    func testEscStopsSayingHowFarItGotAndTheSummaryCountsEachOutcome() throws {
        var s = try session()
        _ = key("P1", into: &s)
        XCTAssertEqual(s.reduce(.close, in: context), .stop("Verification stopped with 1 of 2 questions verified in “P1”: v on the list resumes it"))
        _ = key("13", into: &s)
        _ = key("12", into: &s)
        XCTAssertTrue(s.isComplete)
        XCTAssertEqual(s.summary, "“P1” is verified: 1 the same, 0 keyer errors, 1 verifier error")
    }
}
