import XCTest
import SurveyValues
import SurveyForms
@testable import SurveyUI

/// Ctrl-Z that takes away the member the highlight is in, on a form with an `audit` row: the
/// audit log follows the key before the highlight is settled back into the walk, and read an
/// entry past its end ("Index out of range", the app stopped, the undo never saved).
final class AuditUndoMemberTests: XCTestCase {
    private let csv = """
        survey,,,,,
        ,type,name,label,constraint,parameters
        ,audit,audit,,,track-changes=true
        ,begin group,g,G,,
        ,text,plot,Plot,,
        ,integer,trees,Trees,. < 100,
        ,end group,,,,
        ,begin repeat,household,Household,,
        ,integer,age,Age,,
        ,end repeat,,,,
        """

    func testUndoingAMemberAddedToAStoredSurveyWhileInItDoesNotCrash() throws {
        try undoMember(csv: csv)
    }

    /// The same form without its `audit` row: the highlight is settled after the key
    /// (`followQuestionnaire`), and nothing reads it before.
    func testWithoutAnAuditRowTheSameKeysAreFine() throws {
        try undoMember(csv: csv.replacingOccurrences(of: ",audit,audit,,,track-changes=true\n", with: ""))
    }

    private func undoMember(csv: String) throws {
        var r = Record(["g/plot": .string("P1"), "trees": .integer(12)])
        r[Record.instanceIDKey] = .string("uuid:one")
        var s = try formState(csv: csv, records: [r])
        s.shown = .record(0)
        s.screen.moveFocus(to: .form)
        let walk = s.outline
        let heading = try XCTUnwrap(walk.indices.first { walk.heading($0) != nil })
        s.form.highlight(.field(heading))
        s.press(.control("o"))                       // a member added by hand, the highlight in it
        s.type("7")
        if s.press(.enter).contains(.saveDocument) {  // its age saved: the member is kept
            s.send(.outcome(.saving(.saved(replacedCharacters: 0))))
        }
        s.press(.character("n"))                     // no other member
        let now = s.outline
        let age = try XCTUnwrap(now.indices.first { now.heading($0) == nil && now.field($0).key == "age" })
        s.form.highlight(.field(age))                // back on the member's age (↑, or a click)
        s.press(.control("z"))                       // undone: the member goes, with the walk's entries in it
        if case .field(let i) = s.formItem { XCTAssertTrue(s.outline.indices.contains(i)) }
        XCTAssertNil(s.outline.indices.first { s.outline.heading($0) == nil && s.outline.field($0).key == "age" },
                     "the member is gone with its question")
    }
}
