import XCTest
import SurveyValues
@testable import SurveyUI

/// The audit prompts' own reducer (issue 29): Enter and Esc decided from the prompt alone.
final class AuditPromptReducerTests: XCTestCase {
    private let waiting = ChangeAwaitingReason(action: .form(.commitField), survey: "uuid:a", rule: .form,
                                               popover: .list, rosterQuestion: nil, question: nil)

    func testWhoIsKeyingIsTakenTrimmedAndRefusedEmpty() {
        let named = AuditPrompt(kind: .user, input: TextInput(text: "  Bea Ortiz "))
        XCTAssertEqual(named.reduce(.commitPrompt), .identify("Bea Ortiz"))
        XCTAssertEqual(named.reduce(.cancelPrompt), .keyNothing)
        XCTAssertEqual(AuditPrompt(kind: .user, input: TextInput(text: "   ")).reduce(.commitPrompt),
                       .warn("Type who is keying: the form logs a name with every answer"))
    }

    func testAReasonGoesWithTheChangeItWaitsFor() {
        let given = AuditPrompt(kind: .reason, input: TextInput(text: "misread the paper"), waiting: waiting)
        XCTAssertEqual(given.reduce(.commitPrompt), .giveReason("misread the paper", for: waiting))
        XCTAssertEqual(given.reduce(.cancelPrompt), .keepUnsaved(waiting))
        XCTAssertEqual(AuditPrompt(kind: .reason, input: TextInput(text: ""), waiting: waiting).reduce(.commitPrompt),
                       .warn("Type why the survey is changed (Esc: not now, nothing is saved)"))
    }
}
