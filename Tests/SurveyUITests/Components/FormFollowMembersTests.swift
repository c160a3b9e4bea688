import XCTest
import SurveyValues
import SurveyForms
@testable import SurveyUI

/// After a clash the form follows the person typed about to wherever they stand in the new
/// version, or lets go of the entry (issue 27; issue 29: the form's own), with no `AppState`.
final class FormFollowMembersTests: XCTestCase {
    private let clock = Questionnaire.Clock(now: Date(timeIntervalSince1970: 1_796_032_800), timeZone: .utc)
    private let key = FormWalk.RepeatHeading.selectionKey(parent: [], name: "member")
    private let ana: PropertyValue = .dictionary(["name": .string("Ana"), "age": .integer(34)])
    private let bo: PropertyValue = .dictionary(["name": .string("Bo"), "age": .integer(42)])
    private let cy: PropertyValue = .dictionary(["name": .string("Cy"), "age": .integer(7)])

    private func survey(_ members: [PropertyValue]) -> Record { Record(["village": .string("Kibera"), "member": .array(members)]) }

    private func context(_ q: Questionnaire, _ record: Record) -> FormState.Context {
        let cache = FormRuleCache()
        return FormState.Context(walk: { cache.outline(q, record, self.clock, selection: $0) },
                                 geometry: { _ in FormGeometry(form: Rect(x: 0, y: 0, width: 60, height: 30), labels: []) },
                                 scrolls: true)
    }

    /// The entry of `name` in member `member` of the walk of `record`.
    private func age(of member: Int, _ q: Questionnaire, _ record: Record) throws -> (entry: EntryNumber, walk: FormWalk) {
        let walk = FormRuleCache().outline(q, record, clock, selection: [key: member])
        let entry = try XCTUnwrap(walk.indices.first { walk.heading($0) == nil && walk.field($0).key == "age" && !walk.steps($0).isEmpty })
        return (entry, walk)
    }

    func testTheEntryFollowsThePersonWhoMovedAndIsLetGoWhenTheyAreGone() throws {
        let q = try rosterQuestionnaire()
        let original = survey([ana, bo])
        // Bo's age being typed: member 2 of the original.
        let (entry, walk) = try age(of: 1, q, original)
        let typed = try XCTUnwrap(EntryAnchor(entry, in: walk))
        var form = FormState(draft: Record(), showingDraft: false)
        form.showInstance(1, of: key)
        form.highlight(.field(entry))
        form.beginEditing(EditBuffer(entry: entry, text: "43", original: "42"))

        // Elsewhere Cy was put first: Bo is member 3 now.
        let moved = survey([cy, ana, bo])
        var following = form
        XCTAssertTrue(following.followMembers(of: original, in: moved, typed: typed, highlighted: typed, in: context(q, moved)))
        XCTAssertEqual(following.instances[key], 2)
        let (now, _) = try age(of: 2, q, moved)
        XCTAssertEqual(following.editing?.entry, now)
        XCTAssertEqual(following.editing?.text, "43")
        XCTAssertEqual(following.formItem, .field(now))

        // Elsewhere Bo was deleted: the entry is not put on whoever stands there now.
        let gone = survey([ana, cy])
        var letGo = form
        XCTAssertFalse(letGo.followMembers(of: original, in: gone, typed: typed, highlighted: typed, in: context(q, gone)))
        let heading = try XCTUnwrap(context(q, gone).walk(letGo.instances).headingEntry(key))
        XCTAssertEqual(letGo.formItem, .field(heading), "the highlight goes to the roster's heading")
    }
}
