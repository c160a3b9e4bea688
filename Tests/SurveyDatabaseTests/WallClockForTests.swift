import FoundationEssentials
import SurveyForms

extension Questionnaire.Clock {
    /// The wall clock, read when the test asks: what the rules read in tests that do not pin
    /// a moment. The product has no such default (issue 29): every caller names its clock.
    static var wall: Questionnaire.Clock { Questionnaire.Clock(now: Date()) }
}
