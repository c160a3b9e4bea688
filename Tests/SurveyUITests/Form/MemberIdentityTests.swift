import XCTest
import SurveyValues
import SurveyForms
import SurveyStorage
@testable import SurveyUI

/// An answer typed for one roster member lands on that person or nowhere (issue 27, item 6).
/// Two windows: this one edits Ana's age while the other deletes (or moves) Ana; the save
/// finds the file changed, the merge cannot place the edit, and the entry goes back on the
/// form: on Ana wherever she now is, or, if she is gone, not on whoever took her place.
final class MemberIdentityTests: XCTestCase {
    private let ana: [String: PropertyValue] = ["name": .string("Ana"), "age": .integer(30)]
    private let bo: [String: PropertyValue] = ["name": .string("Bo"), "age": .integer(31)]
    private let cy: [String: PropertyValue] = ["name": .string("Cy"), "age": .integer(9)]

    private func survey(_ members: [[String: PropertyValue]]) -> Record {
        Record(["village": .string("Kibera"), "instanceID": .string("uuid:k"), "people": .string("\(members.count)"),
                "member": .array(members.map { .dictionary($0) })])
    }

    /// Ana's age typed as 41 and Enter pressed: the save is on its way.
    private func editingAnasAge() throws -> AppState {
        var s = try rosterState([survey([ana, bo])])
        s.press(.enter)
        let heading = try XCTUnwrap(s.outline.headingEntry("member"))
        let age = try XCTUnwrap(s.outline.instanceEntries(of: heading).first { s.outline.field($0).key == "age" })
        s.form.highlight(.field(age))
        s.type("41")
        XCTAssertEqual(s.press(.tab), [.saveDocument])
        return s
    }

    func testAnEditOfADeletedMemberIsNotPutOnTheMemberNowInItsPlace() throws {
        var s = try editingAnasAge()
        // The other window deleted Ana: the file holds Bo alone.
        let theirs = SurveyDocument(records: [survey([bo])])
        XCTAssertEqual(s.send(.outcome(.documents(.changedOnDisk(theirs)))), [])
        XCTAssertEqual(s.records[0], survey([bo]), "Bo is as the other window left him")
        XCTAssertNil(s.editing, "nothing of Ana's is left on Bo's form to save")
        XCTAssertEqual(s.statusText?.contains("that member is gone"), true, s.statusText ?? "")
        XCTAssertEqual(s.statusText?.contains("“41” was not saved"), true, s.statusText ?? "")
        // Saving again cannot write Ana's age onto Bo.
        s.press(.enter)
        XCTAssertEqual(s.records[0].instances(of: "member").first?["age"], .integer(31))
    }

    func testAnEditFollowsItsMemberWhereverItMoved() throws {
        var s = try editingAnasAge()
        // The other window added Cy before Ana.
        let theirs = SurveyDocument(records: [survey([cy, ana, bo])])
        s.send(.outcome(.documents(.changedOnDisk(theirs))))
        XCTAssertEqual(s.editing?.text, "41", "the entry is back on the form")
        XCTAssertEqual(s.editing.map { s.outline.path($0.entry) },
                       AnswerPath([AnswerPath.Step(name: "member", index: 1)], "age"), "on Ana, now the second member")
        XCTAssertEqual(s.press(.tab), [.saveDocument])
        let members = s.records[0].instances(of: "member")
        XCTAssertEqual(members.map { $0["name"] }, [.string("Cy"), .string("Ana"), .string("Bo")])
        XCTAssertEqual(members.map { $0["age"] }, [.integer(9), .integer(41), .integer(31)], "Cy keeps her age")
    }
}
