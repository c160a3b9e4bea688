import Foundation
import XCTest
import SurveyValues
import SurveyForms
import SurveyStorage
@testable import SurveyUI

/// Issue 30: incomplete interviews, as many as the keyer wants (ODK Collect's drafts,
/// CSEntry's partial save). A New form left before it passes the form's rules is kept in the
/// document marked incomplete, the list marks it `…`, F4 counts it, and `[ Finish ]` is
/// [ Add ]'s gate that makes it complete.
final class IncompleteSurveyTests: XCTestCase {
    /// One complete survey already stored, by id.
    private func ana() -> Record {
        Record(["fname": .string("Ana"), "lname": .string("Lima"), "age": .integer(34), "consent": .string("no"),
                "confirm": .string("OK"), Record.instanceIDKey: .string("uuid:ana")])
    }

    /// Bo Okafor's first two answers keyed on a New form; Age is being typed, left empty.
    private func startBo(_ s: inout AppState) {
        s.press(.control("n"))
        s.type("Bo"); s.press(.enter)
        s.type("Okafor"); s.press(.enter)
        XCTAssertEqual(s.editing?.entry, s.entry("age"))
    }

    /// What the runtime feeds back after a save: the ids given, then the save.
    private func saved(_ s: inout AppState) {
        var identified = s.document!
        for i in identified.records.indices where identified.records[i].instanceID == nil {
            identified.records[i][Record.instanceIDKey] = .string("uuid:kept\(i)")
        }
        s.send(.outcome(.saving(.instanceIDsAssigned(identified))))
        s.send(.outcome(.saving(.saved(replacedCharacters: 0))))
    }

    private func listText(_ s: inout AppState) -> String {
        if !s.isSplit, s.popover != .list { s.press(.function(2)) }
        defer { if !s.isSplit, s.popover == .list { s.press(.function(2)) } }
        return s.screenText
    }

    func testLeavingANewFormThatDoesNotPassKeepsItIncompleteAndEmptiesTheNewForm() throws {
        for (width, height) in [(120, 40), (80, 24), (60, 20), (40, 12)] {
            let size = "\(width)x\(height)"
            var s = try householdState([ana()], width: width, height: height)
            startBo(&s)
            s.press(.escape)
            let effects = s.press(.left)                         // back to the survey the list highlights
            XCTAssertEqual(effects, [.saveDocument, .saveDraft], size)
            XCTAssertEqual(s.shown, .record(0), "the survey gone to is shown: \(size)")
            XCTAssertEqual(s.recordCount, 2, size)
            let kept = s.records[1]
            XCTAssertTrue(kept.isIncomplete, size)
            XCTAssertEqual(kept[Record.incompleteKey], .bool(true), "stored as <true/>: \(size)")
            XCTAssertEqual(kept["fname"], .string("Bo"))
            XCTAssertEqual(kept["lname"], .string("Okafor"))
            XCTAssertNil(kept["age"], "nothing made up for what was not keyed")
            XCTAssertEqual(kept["formID"], .string("household"), "stamped as Add stamps a survey")
            XCTAssertEqual(kept["formVersion"], .string("2026113001"))
            XCTAssertEqual(kept["start"], .string("2026-11-30T10:00:00Z"), "when the interview began")
            XCTAssertNil(kept.instanceID, "its id comes at its save, as an added survey's")
            XCTAssertTrue(s.draft.isBlank(in: s.draftQuestionnaire), "the New form is empty for the next interview: \(size)")
            XCTAssertEqual(s.statusText, "Kept “Okafor, Bo” as incomplete survey 2 (… in the list; [ Finish ] there when it is done): the New form is empty")
            XCTAssertTrue(listText(&s).contains("… Okafor, Bo"), "the list marks it: \(size)\n\(s.screenText)")
            XCTAssertFalse(listText(&s).contains("⚠ Okafor, Bo"), "incomplete, not a rule break: \(size)")
            s.press(.control("n"))
            XCTAssertEqual(s.editing?.entry, s.entry("fname"), "Ctrl-N: the next interview at once: \(size)")
            XCTAssertEqual(s.editing?.text, "")
        }
    }

    /// A New form that passes every rule is one Add away: leaving it keeps it as the New form,
    /// as before (Ctrl-N brings it back); once an answer it needs is cleared, leaving keeps it
    /// as an incomplete survey.
    func testANewFormThatPassesStaysTheNewFormWhenLeftAndIsKeptOnceItDoesNot() throws {
        let q = try householdQuestionnaire()
        var s = AppState(documentName: "Households", loaded: .success(SurveyDocument(records: [ana()])),
                         draft: Record(["fname": .string("Bo"), "lname": .string("Okafor"), "age": .integer(20),
                                        "consent": .string("no"), "confirm": .string("OK")]),
                         size: Size(width: 120, height: 40), questionnaire: q, environment: .forTests)
        s.press(.control("n"))
        XCTAssertEqual(s.statusText, "The New form holds an unsaved survey (Okafor, Bo): press Enter to edit it, or [ Clear ] to start afresh")
        XCTAssertEqual(s.press(.left), [])
        XCTAssertEqual(s.recordCount, 1)
        XCTAssertEqual(s.draft["fname"], .string("Bo"))
        // Back on it, consent turned to yes: the household's region is asked and required now,
        // so it no longer passes, and leaving keeps it.
        s.press(.control("n"))
        s.form.highlight(.field(s.entry("consent")))
        s.press(.enter)
        XCTAssertEqual(s.type("1"), [.saveDraft])
        XCTAssertEqual(s.picker?.title, "Region", "heads-down on to the question it showed")
        s.press(.escape)
        XCTAssertEqual(s.press(.left), [.saveDocument, .saveDraft])
        XCTAssertEqual(s.recordCount, 2)
        XCTAssertTrue(s.records[1].isIncomplete)
        XCTAssertTrue(s.draft.isBlank(in: s.draftQuestionnaire))
    }

    /// The original five have no rules: their New form is kept as it always was.
    func testTheOriginalFiveKeepTheirNewForm() {
        var s = makeState()
        s.press(.control("n"))
        s.type("Half")
        s.press(.enter)
        XCTAssertEqual(s.press(.escape, .left), [])
        XCTAssertEqual(s.recordCount, 2)
        XCTAssertEqual(s.draft["firstName"], .string("Half"))
        s.press(.control("n"))
        XCTAssertEqual(s.press(.control("s")), [])
        XCTAssertEqual(s.statusText, "The original five fields have no rules to finish later: [ Add ] stores the survey")
        XCTAssertEqual(s.recordCount, 2)
    }

    func testControlNOnANewFormThatDoesNotPassKeepsItAndStartsTheNextOne() throws {
        var s = try householdState([ana()])
        startBo(&s)
        s.type("3")
        XCTAssertEqual(s.press(.control("n")), [], "a refused answer being typed stops Ctrl-N, as it stops any way out")
        XCTAssertEqual(s.statusText, "Respondents are 15 to 120 years old")
        s.press(.escape)
        let effects = s.press(.control("n"))
        XCTAssertEqual(effects, [.saveDocument, .saveDraft])
        XCTAssertEqual(s.recordCount, 2)
        XCTAssertNil(s.records[1]["age"], "3 was refused by Age's constraint: never stored")
        XCTAssertEqual(s.shown, .draft)
        XCTAssertEqual(s.editing?.entry, s.entry("fname"))
        XCTAssertTrue(s.draft.isBlank(in: s.questionnaire))
    }

    func testControlNKeepsTheAnswerBeingTypedWhenItPasses() throws {
        var s = try householdState([ana()])
        startBo(&s)
        s.type("33")
        XCTAssertEqual(s.press(.control("n")), [.saveDocument, .saveDraft])
        XCTAssertEqual(s.records[1]["age"], .integer(33))
        XCTAssertTrue(s.records[1].isIncomplete, "consent and the read-back are still missing")
    }

    func testControlSKeepsAnyNewFormAndSaysWhatItDoesElsewhere() throws {
        var s = try householdState([ana()])
        s.press(.control("n"))
        XCTAssertEqual(s.press(.control("s")), [])
        XCTAssertEqual(s.statusText, "The New form is empty: nothing to keep")
        s.type("Bo")
        XCTAssertEqual(s.press(.control("s")), [.saveDocument, .saveDraft], "while typing: the answer is kept in it")
        XCTAssertEqual(s.records[1]["fname"], .string("Bo"))
        XCTAssertTrue(s.records[1].isIncomplete)
        XCTAssertEqual(s.editing?.entry, s.entry("fname"), "the next interview starts")
        s.press(.escape, .left)
        XCTAssertEqual(s.shown, .record(0))
        XCTAssertEqual(s.press(.control("s")), [])
        XCTAssertEqual(s.statusText, "“Lima, Ana” is complete: Ctrl-S keeps the New form as an incomplete survey")
        s.press(.right)
        XCTAssertEqual(s.shown, .record(1))
        s.press(.control("s"))
        XCTAssertEqual(s.statusText, "“, Bo” is incomplete already: each answer is saved as it is keyed; [ Finish ] when it is done")
    }

    /// A New form that passes is still kept by Ctrl-S (the keyer says it is not finished).
    func testControlSKeepsANewFormThatPasses() throws {
        let q = try householdQuestionnaire()
        var s = AppState(documentName: "Households", loaded: .success(SurveyDocument(records: [])),
                         draft: Record(["fname": .string("Bo"), "lname": .string("Okafor"), "age": .integer(20),
                                        "consent": .string("no"), "confirm": .string("OK")]),
                         size: Size(width: 120, height: 40), questionnaire: q, environment: .forTests)
        XCTAssertEqual(s.press(.control("s")), [.saveDocument, .saveDraft])
        XCTAssertEqual(s.recordCount, 1)
        XCTAssertTrue(s.records[0].isIncomplete)
    }

    /// Opened again: its answers with its problems, `[ Finish ]` in [ Add ]'s place; refused
    /// while a rule fails (it stays incomplete), each answer keyed saved as usual; once every
    /// rule passes it is complete, its start kept; Ctrl-Z makes it incomplete again.
    func testReopenedItShowsItsProblemsAndFinishIsTheGate() throws {
        for (width, height) in [(120, 40), (80, 24), (60, 20), (30, 12), (24, 12)] {
            let size = "\(width)x\(height)"
            var s = try householdState([ana()], width: width, height: height)
            startBo(&s)
            s.press(.escape, .left)
            saved(&s)
            s.environment.clock = .pinned(Date(timeIntervalSince1970: 1_796_036_400))   // an hour later
            s.press(.right)
            XCTAssertEqual(s.shown, .record(1), size)
            XCTAssertTrue(s.screenText.contains(width >= 30 ? "incomplete" : "2 of 2 · inco…"),
                          "the heading or the title bar says so: \(size)\n\(s.screenText)")
            XCTAssertEqual(s.shownForm.storedAnswerProblems[s.entry("age")], "Age is required",
                           "what is left to key is shown under each question: \(size)")
            let button = s.formGeometry.addButtonLabel
            XCTAssertTrue([FormGeometry.finishLabel, FormGeometry.shortFinishLabel].contains(button), size)
            XCTAssertFalse(s.screenText.contains("[ Add ]") || s.screenText.contains("[Add]"), size)
            s.press(.end, .down, .down)
            XCTAssertEqual(s.formItem, .add, size)
            XCTAssertTrue(s.screenText.contains(button), "its button finishes it: \(size)\n\(s.screenText)")
            XCTAssertEqual(s.formGeometry.item(at: Point(x: s.formGeometry.addButton.x, y: s.formGeometry.addButton.y)), .add)
            XCTAssertEqual(TextWidth.width(of: s.formGeometry.addButtonLabel), s.formGeometry.addButton.width, size)
            // Refused: it stays incomplete, the first problem highlighted.
            XCTAssertEqual(s.press(.enter), [], size)
            XCTAssertTrue(s.records[1].isIncomplete, size)
            XCTAssertEqual(s.statusText, "Not finished, still incomplete: Age is required (and 2 other problems: F8 goes to each, ^G lists them)")
            XCTAssertEqual(s.formItem, .field(s.entry("age")))
            // Answers keyed into it are saved at once; a refused one never is.
            s.press(.enter)
            s.type("12")
            XCTAssertEqual(s.press(.enter), [], "the constraint refuses 12 on an incomplete survey too")
            XCTAssertEqual(s.statusText, "Respondents are 15 to 120 years old")
            s.press(.escape)
            s.type("41")
            XCTAssertEqual(s.press(.enter), [.saveDocument], size)
            saved(&s)
            XCTAssertEqual(s.records[1]["age"], .integer(41))
            XCTAssertTrue(s.records[1].isIncomplete, "an answer keyed does not finish it: \(size)")
            s.press(.escape)
            s.form.highlight(.add)
            s.press(.enter)
            XCTAssertEqual(s.statusText, "Not finished, still incomplete: Agrees to the interview? is required (and 1 other problem: F8 goes to each, ^G lists them)")
            // The rest from the paper, then Finish.
            s.press(.enter); s.type("2")                         // Agrees? No
            XCTAssertEqual(s.picker?.title, "How did it go?", "heads-down on to the next question asked")
            s.press(.escape)
            s.form.highlight(.field(s.entry("confirm")))
            s.press(.enter); s.type("1")                         // Answers read back: OK
            s.form.highlight(.add)
            XCTAssertEqual(s.press(.enter), [.saveDocument], size)
            let done = s.records[1]
            XCTAssertFalse(done.isIncomplete, size)
            XCTAssertNil(done[Record.incompleteKey], "the key goes: a complete survey looks like any other")
            XCTAssertEqual(done["start"], .string("2026-11-30T10:00:00Z"), "the interview began then, not when finished")
            XCTAssertEqual(s.statusText, "Finished “Okafor, Bo”: survey 2 is complete")
            XCTAssertFalse(listText(&s).contains("… Okafor, Bo"), size)
            XCTAssertTrue([FormGeometry.addLabel, FormGeometry.shortAddLabel].contains(s.formGeometry.addButtonLabel), size)
            XCTAssertTrue(s.screenText.contains(s.formGeometry.addButtonLabel), "a complete survey's button again: \(size)")
            saved(&s)
            s.press(.control("z"))
            saved(&s)
            XCTAssertTrue(s.records[1].isIncomplete, "Ctrl-Z: incomplete again: \(size)")
            XCTAssertEqual(s.statusText, "Undid finishing of “Okafor, Bo”")
        }
    }

    /// Ctrl-Z after a New form was kept (a → pressed too soon) puts it back on the New form,
    /// not among the deleted surveys; Ctrl-Y keeps it again.
    func testUndoPutsAKeptNewFormBackWhereItWasKeyed() throws {
        var s = try householdState([ana()])
        startBo(&s)
        s.press(.escape, .left)
        saved(&s)
        XCTAssertEqual(s.recordCount, 2)
        let undo = s.press(.control("z"))
        XCTAssertEqual(undo, [.saveDocument, .saveDraft], "no copy among the deleted surveys: it is on the New form")
        saved(&s)
        XCTAssertEqual(s.recordCount, 1)
        XCTAssertEqual(s.shown, .draft)
        XCTAssertEqual(s.draft["fname"], .string("Bo"))
        XCTAssertEqual(s.draft["lname"], .string("Okafor"))
        XCTAssertFalse(s.draft.isIncomplete)
        XCTAssertNil(s.draft.instanceID)
        XCTAssertEqual(s.statusText, "Undid keeping of “Okafor, Bo” as incomplete")
        XCTAssertEqual(s.press(.control("y")), [.saveDocument, .saveDraft])
        saved(&s)
        XCTAssertEqual(s.recordCount, 2)
        XCTAssertTrue(s.records[1].isIncomplete)
        XCTAssertTrue(s.draft.isBlank(in: s.questionnaire), "kept once, never twice")
    }

    func testF4CountsThemApartFromRuleBreaks() throws {
        var s = try householdState([ana()])
        startBo(&s)
        s.press(.escape, .left)
        let facts = DocumentInfoView.facts(of: s)
        XCTAssertTrue(facts.contains { $0.0 == "Incomplete" && $0.1 == "1 survey, marked … in the list: open one, [ Finish ] when it is done" },
                      "\(facts)")
        XCTAssertTrue(facts.contains { $0.0 == "Rule breaks" && $0.1.hasPrefix("0 records") }, "an incomplete survey lacks answers by design: \(facts)")
        s.press(.function(4))
        XCTAssertTrue(s.screenText.contains("1 survey, marked … in the list"), s.screenText)
    }

    /// Where features meet: a household member half keyed (a name, no age) travels in the
    /// incomplete survey; a member added by hand and left empty does not; reopened, the
    /// member's missing age is its problem, and keyed, the survey finishes.
    func testARosterMemberHalfKeyedIsKeptAndFinishedLater() throws {
        let other = Record(["village": .string("Kibera"), "member": .array([.dictionary(["name": .string("Zed"), "age": .integer(40)])]),
                            Record.instanceIDKey: .string("uuid:zed")])
        var s = try rosterState([other])
        s.press(.control("n"))
        s.type("Mathare"); s.press(.enter)
        s.press(.character("y"))
        s.type("Ana"); s.press(.enter)                           // her age is not on the paper yet
        s.press(.escape)
        s.press(.control("o"))                                   // another member, left empty
        XCTAssertEqual(s.editing.map { s.outline.field($0.entry).key }, "name")
        XCTAssertEqual(s.draft.instances(of: "member").count, 2)
        s.press(.escape)
        let effects = s.press(.left)
        XCTAssertEqual(effects, [.saveDocument, .saveDraft])
        let kept = s.records[1]
        XCTAssertTrue(kept.isIncomplete)
        XCTAssertEqual(kept.instances(of: "member").count, 1, "the empty member is never stored")
        XCTAssertEqual(kept.instances(of: "member")[0]["name"], .string("Ana"))
        XCTAssertNil(kept.instances(of: "member")[0]["age"])
        saved(&s)
        s.press(.right)
        XCTAssertEqual(s.shown, .record(1))
        s.form.highlight(.add)
        XCTAssertEqual(s.press(.enter), [])
        XCTAssertEqual(s.statusText, "Not finished, still incomplete: member[1]/age: Age is required")
        XCTAssertEqual(s.editing, nil)
        XCTAssertEqual(s.outline.path(s.fieldIndexOfHighlight).description, "member[1]/age", "the member's question at fault")
        s.press(.enter); s.type("29")
        XCTAssertEqual(s.press(.enter), [.saveDocument], "the member's age, saved at once")
        XCTAssertEqual(s.statusText, "Add another Household member? y/n")
        s.press(.character("n"), .escape)
        saved(&s)
        s.form.highlight(.add)
        XCTAssertEqual(s.press(.enter), [.saveDocument])
        XCTAssertFalse(s.records[1].isIncomplete)
        XCTAssertEqual(s.records[1].instances(of: "member")[0]["age"], .integer(29))
        XCTAssertEqual(s.records[1]["people"], .string("1"))
    }

    /// One paper keyed twice is asked about when it is finished, as Add asks.
    func testFinishingAsksWhenAnotherSurveyHasTheSameIDItems() throws {
        let plots = """
        survey,,,,
        ,type,name,label,required
        ,text,plot_id,Plot id,yes
        ,integer,trees,Trees,yes
        settings,,,,
        ,form_id,id_items,,
        ,plots,plot_id,,
        """
        var s = try formState(csv: plots, records: [Record(["plot_id": .string("12"), "trees": .integer(3),
                                                             Record.instanceIDKey: .string("uuid:p12")])])
        s.press(.control("n"))
        s.type("12"); s.press(.enter)
        s.press(.escape, .left)
        XCTAssertTrue(s.records[1].isIncomplete, "kept without asking: it is not finished")
        saved(&s)
        s.press(.right)
        s.form.highlight(.field(s.entry("trees")))
        s.press(.enter); s.type("4"); s.press(.enter)
        saved(&s)
        s.form.highlight(.add)
        XCTAssertEqual(s.press(.enter), [])
        XCTAssertEqual(s.statusText, "Survey 1, “12”, has the same plot_id 12: finish this one too? y/n")
        s.press(.character("n"))
        XCTAssertEqual(s.statusText, "Not finished: the survey stays incomplete (correct its ID items, or finish it as it is)")
        XCTAssertTrue(s.records[1].isIncomplete)
        s.press(.enter)
        XCTAssertEqual(s.press(.character("y")), [.saveDocument])
        XCTAssertFalse(s.records[1].isIncomplete)
    }
}
private extension AppState { var fieldIndexOfHighlight: EntryNumber { if case .field(let i) = formItem { return i }; return 0 } }
