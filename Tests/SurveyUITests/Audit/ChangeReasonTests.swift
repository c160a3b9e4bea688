import XCTest
import SurveyValues
import SurveyForms
@testable import SurveyUI

/// Issue 31: a reason is asked before any change to a stored survey is saved when the form
/// says `track-changes-reasons`, and always when the survey's review known here is
/// `approved` (with no `audit` row at all). Every path that changes the survey asks first;
/// Esc saves nothing and leaves the entry where it was; Enter with a reason resumes the key
/// that waited, exactly.
final class ChangeReasonTests: XCTestCase {
    /// The two rules: the form's setting (an audit row), or a supervisor's approval.
    enum Rule: CaseIterable { case form, approved }

    private func csv(audit parameters: String?) -> String {
        """
        survey,,,,
        ,type,name,label,parameters
        \(parameters.map { ",audit,audit,,\($0)\n" } ?? ""),text,plot,Plot,
        ,integer,trees,Trees,
        ,select_one yn,ok,All fine?,
        ,begin repeat,household,Household,
        ,integer,age,Age,
        ,end repeat,,,
        choices,,,,
        ,list_name,name,label,
        ,yn,yes,Yes,
        ,yn,no,No,
        """
    }

    private func stored() -> [Record] {
        [Record(["plot": .string("P1"), "trees": .integer(12), "ok": .string("yes"),
                 "household": .array([.dictionary(["age": .integer(40)]), .dictionary(["age": .integer(50)])]),
                 Record.instanceIDKey: .string("uuid:one")]),
         Record(["plot": .string("P2"), "trees": .integer(3), Record.instanceIDKey: .string("uuid:two")])]
    }

    /// Survey 1 on the form, the highlight on Plot: its form asks why (`.form`), or a plain
    /// form with survey 1 approved by a supervisor (`.approved`); `nil`: neither.
    private func state(_ rule: Rule?) throws -> AppState {
        var s = try formState(csv: csv(audit: rule == .form ? "track-changes-reasons=on-form-edit" : nil), records: stored())
        if rule == .approved {
            s.send(.outcome(.sync(.summaryRead(document: "Plots", SyncSummary(reviews: [
                "uuid:one": SyncReview(.approved), "uuid:two": SyncReview(.hasIssues, comment: "trees?"),
            ])))))
        }
        showing(0, &s)
        return s
    }

    private func showing(_ index: Int, _ s: inout AppState) {
        s.shown = .record(index)
        s.screen.moveFocus(to: .form)
        s.form.stopEditing()
        s.form.highlight(s.firstFormItem)
    }

    private func highlight(_ key: String, _ s: inout AppState) {
        s.form.highlight(.field(s.outline.indices.first { s.outline.heading($0) == nil && s.outline.field($0).key == key }!))
    }

    private func highlightHousehold(_ s: inout AppState) {
        s.form.highlight(.field(s.outline.indices.first { s.outline.heading($0) != nil }!))
    }

    /// The reason prompt is open, saying which rule asks it.
    private func assertAsked(_ s: AppState, _ rule: Rule, file: StaticString = #filePath, line: UInt = #line) {
        guard case .audit(let prompt) = s.popover else {
            return XCTFail("no reason asked (\(String(describing: s.popover)))", file: file, line: line)
        }
        XCTAssertEqual(prompt.kind, .reason, file: file, line: line)
        XCTAssertEqual(s.inputMode, .auditPrompt, "the prompt takes the keys", file: file, line: line)
        let screen = s.screenText
        switch rule {
        case .approved:
            XCTAssertTrue(screen.contains("A supervisor approved it: why is it changed?"), screen, file: file, line: line)
        case .form:
            XCTAssertTrue(screen.contains("Why is it changed?"), screen, file: file, line: line)
            XCTAssertFalse(screen.contains("supervisor"), screen, file: file, line: line)
        }
    }

    private func giveReason(_ text: String, _ s: inout AppState) -> [Effect] {
        s.type(text)
        return s.press(.enter)
    }

    // MARK: Each path, under both rules

    func testATypedChangeWaitsEscKeepsTheEntryAndTheReasonResumesTheEnter() throws {
        for rule in Rule.allCases {
            var s = try state(rule)
            highlight("trees", &s)
            s.type("20")                                  // typed over the answer
            XCTAssertEqual(s.press(.enter), [], "\(rule): nothing saved before the reason")
            assertAsked(s, rule)
            XCTAssertEqual(s.statusText?.hasPrefix(rule == .approved ? "A supervisor approved “" : "Why is “"), true,
                           s.statusText ?? "")
            s.press(.escape)
            XCTAssertNil(s.popover)
            XCTAssertEqual(s.editing?.text, "20", "\(rule): Esc keeps the entry in its box")
            XCTAssertEqual(s.records[0]["trees"], .integer(12))
            s.press(.enter)
            assertAsked(s, rule)
            let effects = giveReason("miscounted", &s)
            XCTAssertTrue(effects.contains(.saveDocument), "\(rule)")
            XCTAssertEqual(s.records[0]["trees"], .integer(20))
            XCTAssertEqual(s.audit.reason(for: "uuid:one"), "miscounted")
            // The Enter that waited went on heads-down, as Enter does: editing All fine?.
            XCTAssertEqual(s.picker?.title, "All fine?", "\(rule): the waiting Enter moved on")
            XCTAssertEqual(audits(effects).count, 0, "\(rule): no log written mid-survey")
        }
    }

    func testDelWaitsEscLeavesTheAnswerAndTheReasonClearsIt() throws {
        for rule in Rule.allCases {
            var s = try state(rule)
            highlight("trees", &s)
            XCTAssertEqual(s.press(.delete), [])
            assertAsked(s, rule)
            s.press(.escape)
            XCTAssertNil(s.editing)
            XCTAssertEqual(s.records[0]["trees"], .integer(12), "\(rule): Esc clears nothing")
            XCTAssertEqual(s.inputMode, .formBrowsing)
            s.press(.delete)
            assertAsked(s, rule)
            XCTAssertEqual(giveReason("not counted", &s), [.saveDocument])
            XCTAssertNil(s.records[0]["trees"], "\(rule): cleared once the reason is given")
            XCTAssertEqual(s.statusText, "Cleared Trees: Ctrl-Z brings it back")
        }
    }

    func testAChoicePickedWaitsEscKeepsThePickerAndTheReasonSavesThePick() throws {
        for rule in Rule.allCases {
            var s = try state(rule)
            highlight("ok", &s)
            s.press(.enter)                               // the picker
            s.type("2")                                   // No
            assertAsked(s, rule)
            XCTAssertEqual(s.records[0]["ok"], .string("yes"))
            s.press(.escape)
            XCTAssertEqual(s.picker?.title, "All fine?", "\(rule): Esc puts the picker back")
            XCTAssertEqual(s.records[0]["ok"], .string("yes"))
            s.type("2")
            assertAsked(s, rule)
            let effects = giveReason("respondent corrected it", &s)
            XCTAssertTrue(effects.contains(.saveDocument))
            XCTAssertEqual(s.records[0]["ok"], .string("no"), "\(rule): the choice picked is saved")
            XCTAssertNil(s.picker)
        }
    }

    func testDeletingAMemberWaitsAfterYesAndTheReasonDeletesIt() throws {
        for rule in Rule.allCases {
            var s = try state(rule)
            highlightHousehold(&s)
            s.press(.control("d"))
            XCTAssertEqual(s.inputMode, .confirmingRoster)
            XCTAssertEqual(s.press(.character("y")), [])
            assertAsked(s, rule)
            s.press(.escape)
            XCTAssertEqual(s.records[0].instanceCount(of: "household"), 2, "\(rule): Esc deletes nothing")
            XCTAssertNil(s.form.rosterQuestion, "Esc answers the question no")
            XCTAssertEqual(s.inputMode, .rosterBrowsing)
            s.press(.control("d"), .character("y"))
            assertAsked(s, rule)
            let effects = giveReason("moved out", &s)
            XCTAssertTrue(effects.contains(.saveDocument), "\(rule)")
            XCTAssertTrue(effects.contains { if case .keepDeletedMember = $0 { true } else { false } })
            XCTAssertEqual(s.records[0].instances(of: "household").map { $0["age"] }, [.integer(50)])
        }
    }

    /// ^O adds a member in memory only; its first answer saves it, and that asks.
    func testAMemberAddedWaitsWithItsFirstAnswerAndEscKeepsTheEntry() throws {
        for rule in Rule.allCases {
            var s = try state(rule)
            highlightHousehold(&s)
            XCTAssertEqual(s.press(.control("o")), [], "a member alone is not saved")
            XCTAssertNil(s.popover, "\(rule): nothing asked before an answer")
            s.type("7")
            XCTAssertEqual(s.press(.enter), [])
            assertAsked(s, rule)
            s.press(.escape)
            XCTAssertEqual(s.editing?.text, "7", "\(rule): the entry stays")
            XCTAssertEqual(s.records[0].instanceCount(of: "household"), 3, "the new member still on the form")
            XCTAssertEqual(s.press(.enter), [])
            assertAsked(s, rule)
            XCTAssertTrue(giveReason("a baby", &s).contains(.saveDocument))
            XCTAssertEqual(s.records[0].instances(of: "household").map { $0["age"] }, [.integer(40), .integer(7), .integer(50)])
            XCTAssertNil(s.form.unsavedMember, "stored with its answer")
        }
    }

    /// Ctrl-Z of a saved change is a change too: asked when the reason given no longer holds
    /// (the keyer left the survey), and Esc keeps the step to undo.
    func testUndoOfASavedChangeAsksOnceTheKeyerCameBack() throws {
        for rule in Rule.allCases {
            var s = try state(rule)
            highlight("trees", &s)
            s.type("20")
            s.press(.enter)
            _ = giveReason("miscounted", &s)
            s.press(.escape)                              // the picker the Enter went on to
            s.send(.outcome(.saving(.saved(replacedCharacters: 0))))
            XCTAssertEqual(s.press(.control("z")), [.saveDocument], "\(rule): the reason holds on the same survey")
            s.send(.outcome(.saving(.saved(replacedCharacters: 0))))
            XCTAssertEqual(s.records[0]["trees"], .integer(12))
            XCTAssertEqual(s.press(.control("y")), [.saveDocument])
            s.send(.outcome(.saving(.saved(replacedCharacters: 0))))
            s.press(.right, .left)                        // left survey 1 and came back
            XCTAssertNil(s.audit.reason(for: "uuid:one"), "\(rule): forgotten once left")
            XCTAssertEqual(s.press(.control("z")), [])
            assertAsked(s, rule)
            s.press(.escape)
            XCTAssertEqual(s.records[0]["trees"], .integer(20), "\(rule): Esc undoes nothing")
            s.press(.control("z"))
            assertAsked(s, rule)
            XCTAssertEqual(giveReason("the first count was right", &s), [.saveDocument])
            XCTAssertEqual(s.records[0]["trees"], .integer(12))
        }
    }

    /// A paste puts text in the box and saves nothing; its Enter asks, and Esc keeps the text.
    func testAPasteSavesNothingAndItsEnterAsks() throws {
        for rule in Rule.allCases {
            var s = try state(rule)
            XCTAssertEqual(s.send(.text(.paste("P9"))), [])
            XCTAssertNil(s.popover)
            XCTAssertEqual(s.editing?.text, "P9")
            s.press(.enter)
            assertAsked(s, rule)
            s.press(.escape)
            XCTAssertEqual(s.editing?.text, "P9", "\(rule): the pasted entry stays")
            XCTAssertEqual(s.records[0]["plot"], .string("P1"))
        }
    }

    // MARK: When nothing is asked, and how long a reason holds

    func testAFormWithoutTheSettingAndASurveyNotApprovedAskNothing() throws {
        // Survey 2 of the approved document is `has issues`, not approved; the plain form asks nothing.
        for (rule, survey) in [(Rule?.none, 0), (.approved, 1)] {
            var s = try state(rule)
            showing(survey, &s)
            highlight("trees", &s)
            s.type("30")
            XCTAssertTrue(s.press(.tab).contains(.saveDocument))
            XCTAssertEqual(s.picker?.title, "All fine?", "\(String(describing: rule)): on to the next question, nothing asked")
            XCTAssertEqual(s.records[survey]["trees"], .integer(30))
            s.press(.escape)
            highlight("trees", &s)
            XCTAssertEqual(s.press(.delete), [.saveDocument])
            XCTAssertNil(s.popover)
            XCTAssertNil(s.audit.reason, "no reason kept")
        }
        // The New form is not a stored survey: nothing asked under either rule.
        for rule in Rule.allCases {
            var s = try state(rule)
            s.shown = .draft
            s.form.highlight(s.firstFormItem)
            s.press(.enter)
            s.type("P3")
            XCTAssertEqual(s.press(.enter), [.saveDraft])
            XCTAssertNil(s.popover)
        }
    }

    func testAReasonHoldsUntilTheKeyerLeavesTheSurvey() throws {
        for rule in Rule.allCases {
            var s = try state(rule)
            highlight("trees", &s)
            s.press(.delete)
            _ = giveReason("not counted", &s)
            highlight("plot", &s)
            XCTAssertEqual(s.press(.delete), [.saveDocument], "\(rule): not asked twice")
            XCTAssertEqual(s.audit.reason(for: "uuid:one"), "not counted")
            s.press(.right, .left)
            highlight("ok", &s)
            s.press(.delete)
            assertAsked(s, rule)
        }
    }

    /// An empty reason is refused on the prompt; ^Q on the prompt quits, the change unsaved.
    func testAnEmptyReasonIsRefusedAndQuitOnThePromptQuitsWithoutTheChange() throws {
        var s = try state(.approved)
        highlight("trees", &s)
        s.type("20")
        XCTAssertEqual(s.press(.control("q")), [], "^Q asks the reason first: Enter saves and quits")
        assertAsked(s, .approved)
        XCTAssertEqual(s.press(.enter), [])
        assertAsked(s, .approved)
        XCTAssertEqual(s.statusText, "Type why the survey is changed (Esc: not now, nothing is saved)")
        let effects = s.press(.control("q"))
        XCTAssertTrue(effects.contains(.quit))
        XCTAssertFalse(effects.contains(.saveDocument), "quitting twice keeps no change without its reason")
        XCTAssertEqual(s.records[0]["trees"], .integer(12))

        var t = try state(.approved)
        highlight("trees", &t)
        t.type("20")
        t.press(.control("q"))
        let resumed = giveReason("miscounted", &t)
        XCTAssertEqual(resumed.filter { $0 == .saveDocument || $0 == .quit }, [.saveDocument, .quit], "the ^Q that waited quits")
    }

    /// With an audit row the reason also goes in the log (`change reason`); without one, no log.
    func testTheReasonIsLoggedOnlyWithAnAuditRow() throws {
        for rule in Rule.allCases {
            var s = try state(rule)
            highlight("trees", &s)
            var effects = s.press(.delete)
            effects += giveReason("not counted", &s)
            effects += s.press(.right)
            let events = audits(effects).flatMap { $0 }
            switch rule {
            case .form: XCTAssertEqual(events.first { $0.kind == .changeReason }?.changeReason, "not counted")
            case .approved: XCTAssertEqual(events, [], "no audit row: no log")
            }
        }
    }

    private func audits(_ effects: [Effect]) -> [[AuditEvent]] {
        effects.compactMap { if case .noteAudit(_, let events, _) = $0 { events } else { nil } }
    }

    /// F3 and F4 save a typed answer before they leave the form: they ask first too.
    func testF3WhileTypingAsksBeforeItSaves() throws {
        for rule in Rule.allCases {
            var s = try state(rule)
            highlight("trees", &s)
            s.type("30")
            XCTAssertFalse(s.press(.function(3)).contains(.saveDocument), "\(rule): nothing saved before the reason")
            assertAsked(s, rule)
            XCTAssertEqual(s.records[0]["trees"], .integer(12))
            XCTAssertTrue(giveReason("recount", &s).contains(.saveDocument), "\(rule)")
            XCTAssertEqual(s.records[0]["trees"], .integer(30))
        }
    }

    /// The surveys moved while the reason was typed (another window removed the first): the
    /// key that waited is not replayed onto the survey now in its place.
    func testAKeyWaitingIsNotReplayedOntoAnotherSurvey() throws {
        for rule in Rule.allCases {
            var s = try state(rule)
            highlight("trees", &s)
            XCTAssertEqual(s.press(.delete), [])
            assertAsked(s, rule)
            var moved = stored()
            moved.removeFirst()
            s.send(.outcome(.documents(.changedOnDisk(SurveyDocument(records: moved)))))
            s.type("not counted")
            XCTAssertFalse(s.press(.enter).contains(.saveDocument), "\(rule)")
            XCTAssertEqual(s.records.first?["trees"], .integer(3), "\(rule): the survey now first keeps its answer")
        }
    }
}
