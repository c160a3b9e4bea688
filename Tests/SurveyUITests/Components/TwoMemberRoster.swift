import XCTest
import SurveyValues
import SurveyForms
import SurveyUITestSupport
@testable import SurveyUI

/// The roster form (`Examples/roster.csv`) with two members, Ana (34) and Bo (12), as a form
/// reducer's `Context` reads it (a 60×30 form, scrolling), for the tests of the form's child
/// reducers that need no `AppState`.
struct TwoMemberRoster {
    let record: Record
    let context: FormState.Context
    /// The walk with no member chosen (the first of each roster shown).
    let walk: FormWalk

    init(clock: Questionnaire.Clock) throws {
        let q = try rosterQuestionnaire()
        let record = Record(["village": .string("Kibera"), "member": .array([
            .dictionary(["name": .string("Ana"), "age": .integer(34)]),
            .dictionary(["name": .string("Bo"), "age": .integer(12)]),
        ])])
        let cache = FormRuleCache()
        self.record = record
        context = FormState.Context(walk: { cache.outline(q, record, clock, selection: $0) },
                                    geometry: { _ in FormGeometry(form: Rect(x: 0, y: 0, width: 60, height: 30), labels: []) },
                                    scrolls: true)
        walk = cache.outline(q, record, clock, selection: [:])
    }
}
