import XCTest
import SurveyValues
import SurveyForms
@testable import SurveyUI

/// Verify's chain of surveys as the session keeps it (issue 29: verify's own, with no
/// `AppState` in sight): once a survey is verified, the next one waiting that is still in the
/// document, resuming what it had verified, with the rest of the chain after it.
final class VerifyChainReducerTests: XCTestCase {
    private func session(waiting: [String], resumes: [String: Set<String>] = [:]) -> VerifySession {
        VerifySession(survey: "uuid:a", title: "“A”", questions: [], settled: [], waiting: waiting, resumes: resumes)
    }

    func testTheNextWaitingSurveyResumesWhatItHadWithTheRestAfterIt() {
        var verify = session(waiting: ["uuid:b", "uuid:c"], resumes: ["uuid:b": ["plot"], "uuid:c": []])
        XCTAssertEqual(verify.takeNext(where: { _ in true }),
                       VerifySession.Next(survey: "uuid:b", settled: ["plot"], waiting: ["uuid:c"],
                                          resumes: ["uuid:b": ["plot"], "uuid:c": []]))
        XCTAssertEqual(verify.waiting, ["uuid:c"])
        XCTAssertEqual(verify.takeNext(where: { _ in true })?.settled, [], "nothing verified yet: from the start")
        XCTAssertNil(verify.takeNext(where: { _ in true }), "the chain is done")
    }

    func testSurveysGoneFromTheDocumentAreSkipped() {
        var verify = session(waiting: ["uuid:gone", "uuid:c", "uuid:d"])
        let next = verify.takeNext(where: { $0 != "uuid:gone" })
        XCTAssertEqual(next?.survey, "uuid:c")
        XCTAssertEqual(next?.waiting, ["uuid:d"])
        var none = session(waiting: ["uuid:x", "uuid:y"])
        XCTAssertNil(none.takeNext(where: { _ in false }))
        XCTAssertEqual(none.waiting, [], "each looked at once")
    }
}
