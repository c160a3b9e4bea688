import XCTest
import SurveyValues
import SurveyForms
import SurveyUITestSupport
@testable import SurveyUI

/// A keyer error's correction as the form begins it (issue 29: the form's own, with no
/// `AppState` in sight): the question verified is highlighted, its member shown, and the
/// verifier's answer typed over the stored one for the form's commit to judge; a question
/// the form does not show now, or that is not the keyer's to change, is not typed into.
final class VerifyCorrectionReducerTests: XCTestCase {
    private let clock = Questionnaire.Clock(now: Date(timeIntervalSince1970: 1_796_032_800), timeZone: .utc)

    /// The roster form with Ana (34) and Bo (12) (`TwoMemberRoster`).
    private func context() throws -> (FormState.Context, Record) {
        let roster = try TwoMemberRoster(clock: clock)
        return (roster.context, roster.record)
    }

    func testTheVerifiersAnswerIsTypedOverTheStoredOneInItsMember() throws {
        let (context, record) = try context()
        var form = FormState(draft: Record(), showingDraft: false)
        let path = AnswerPath([AnswerPath.Step(name: "member", index: 1)], "age")
        XCTAssertTrue(form.beginCorrecting(path, to: "13", of: record, in: context))
        guard case .field(let entry) = form.formItem else { return XCTFail("\(form.formItem)") }
        XCTAssertEqual(context.walk(form.instances).path(entry), path, "Bo's age, Bo shown")
        XCTAssertEqual(form.editing?.entry, entry)
        XCTAssertEqual(form.editing?.text, "13")
        XCTAssertEqual(form.editing?.original, "12", "over what is stored, so the commit sees a change")
    }

    func testAQuestionNotShownOrNotTheKeyersIsNotTypedInto() throws {
        let (context, record) = try context()
        var form = FormState(draft: Record(), showingDraft: false)
        XCTAssertFalse(form.beginCorrecting(AnswerPath("nosuch"), to: "1", of: record, in: context))
        XCTAssertEqual(form.formItem, .field(EntryNumber(0)), "nothing to go to: the highlight stays")
        XCTAssertFalse(form.beginCorrecting(AnswerPath("summary"), to: "1", of: record, in: context), "a note is read, not keyed")
        XCTAssertNil(form.editing)
    }
}
