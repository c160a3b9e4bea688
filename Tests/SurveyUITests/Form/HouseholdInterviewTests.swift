import Foundation
import XCTest
import SurveyValues
import SurveyForms
import SurveyStorage
@testable import SurveyUI

/// Keying interviews with the example household form (Examples/household.csv) through the
/// real key table: heads-down Enter, skip logic, constraints and required with the form's
/// messages, the picker, cascading choices, calculations, languages and Add's gate.
final class HouseholdInterviewTests: XCTestCase {
    /// Ana Lima, 34, female, agrees; stops on Region's picker.
    private func startInterview(_ s: inout AppState) {
        s.press(.enter)                               // New form: editing First name
        s.type("Ana"); s.press(.enter)
        s.type("Lima"); s.press(.enter)
        s.type("34"); s.press(.enter)
        s.type("1")                                   // Sex: 1 Female
        s.type("1")                                   // Agrees: 1 Yes
    }

    func testOneInterviewKeyedHeadsDownThroughSkipLogicAndACascadingChoice() throws {
        var s = try householdState()
        XCTAssertEqual(s.formItem, .field(s.entry("fname")), "the first question asked, past the note and metadata")
        startInterview(&s)
        XCTAssertEqual(s.picker?.title, "Region", "the household group showed once consent was yes")
        s.type("2")                                   // South
        XCTAssertEqual(s.picker?.labels, ["Coast district", "Delta district"], "choice_filter: the south's districts only")
        s.type("2")                                   // Delta
        XCTAssertEqual(s.editing?.entry, s.entry("village"), "on to the next question, still editing")
        s.type("Riverside"); s.press(.enter)
        s.type("5"); s.press(.enter)
        s.type("2"); s.press(.enter)
        XCTAssertEqual(s.draft.values["adults"], .string("3"), "calculate: members - children")
        XCTAssertEqual(s.picker?.title, "Drinking water sources")
        s.type("2"); s.type("5")                      // tick Well and Other
        s.press(.enter)
        XCTAssertEqual(s.editing?.entry, s.entry("water_other"), "or_other: Other asks what")
        s.type("Bucket"); s.press(.enter)
        s.type("1.5"); s.press(.enter)
        s.type("2")                                   // Has a phone? No: the number is skipped
        XCTAssertEqual(s.editing?.entry, s.entry("location"), "past the phone (not relevant) to the geopoint, typed")
        s.type("-1.28 36.82"); s.press(.enter)
        XCTAssertEqual(s.editing?.entry, s.entry("visit_date"))
        s.type("2026-11-29"); s.press(.enter)
        s.type("09:30"); s.press(.enter)
        s.type("1")                                   // How did it go? Good
        s.press(.enter)                               // Notes: none
        s.type("1")                                   // Answers read back: OK
        XCTAssertEqual(s.formItem, .add, "after the last question the highlight rests on [ Add ]")
        XCTAssertNil(s.editing)
        let effects = s.press(.enter)
        XCTAssertEqual(effects.withoutKeyedNote, [.saveDocument, .saveDraft])
        XCTAssertEqual(s.recordCount, 1)
        let v = s.records[0].values
        XCTAssertEqual(v["fname"], .string("Ana"))
        XCTAssertEqual(v["age"], .integer(34), "integer as integer")
        XCTAssertEqual(v["sex"], .string("female"), "a choice by its name")
        XCTAssertEqual(v["region"], .string("south"))
        XCTAssertEqual(v["district"], .string("delta"))
        XCTAssertEqual(v["members"], .integer(5))
        XCTAssertEqual(v["water"], .string("well other"), "several choices separated by spaces")
        XCTAssertEqual(v["water_other"], .string("Bucket"))
        XCTAssertEqual(v["distance"], .real(1.5), "decimal as real")
        XCTAssertEqual(v["location"], .string("-1.28 36.82"), "a location as ODK stores it")
        XCTAssertEqual(v["has_phone"], .string("no"))
        XCTAssertNil(v["phone"])
        XCTAssertEqual(v["visit_date"], .string("2026-11-29"))
        XCTAssertEqual(v["visit_time"], .string("09:30"))
        XCTAssertEqual(v["confirm"], .string("OK"))
        XCTAssertNil(v["notes"], "an unanswered question is left out, as ODK does")
        XCTAssertEqual(v["formID"], .string("household"))
        XCTAssertEqual(v["formVersion"], .string("2026113001"))
        XCTAssertEqual(v["today"], .string("2026-11-30"))
        XCTAssertEqual(v["start"], .string("2026-11-30T10:00:00Z"))
        XCTAssertEqual(s.statusText, "Added survey 1: Lima, Ana", "instance_name titles the survey")
        XCTAssertTrue(s.screenText.contains("Lima, Ana"), "and its list row")
    }

    func testAConstraintKeepsTheTypedTextAndSaysTheFormsMessage() throws {
        var s = try householdState()
        startInterview(&s)
        s.type("1"); s.type("1")                      // North, Hill district
        s.press(.enter)                               // Village: none
        s.type("5"); s.press(.enter)
        s.type("7")
        XCTAssertEqual(s.press(.enter), [], "nothing saved")
        XCTAssertEqual(s.statusText, "Cannot be more than the people living here")
        XCTAssertEqual(s.editing?.text, "7", "the typed text stays")
        XCTAssertNil(s.draft.values["children"])
        s.press(.backspace); s.type("2")
        XCTAssertEqual(s.press(.enter), [.saveDraft])
        XCTAssertEqual(s.draft.values["children"], .integer(2))
    }

    func testARequiredQuestionCannotBePassedByEnterButGoingBackIsFree() throws {
        var s = try householdState()
        s.press(.enter)
        s.type("Ana"); s.press(.enter)
        XCTAssertEqual(s.press(.enter), [], "Last name is required")
        XCTAssertEqual(s.statusText, "Ask for the respondent's last name")
        XCTAssertEqual(s.editing?.entry, s.entry("lname"))
        s.press(.up)
        XCTAssertEqual(s.editing?.entry, s.entry("fname"), "↑ goes back without judging")
        XCTAssertEqual(s.statusText, nil)
        // A type's rule too: a date that does not exist.
        s.press(.escape)
        var draft = s.draft
        draft.values["visit_date"] = nil
        s.form.setDraft(draft)
        s.form.highlight(.field(s.entry("age")))
        s.press(.enter, .character("x"), .enter)
        XCTAssertEqual(s.statusText, "Age must be a whole number")
    }

    func testAnAnswerHiddenByALaterChangeIsKeptInMemoryButNotStoredAndComesBack() throws {
        var s = try householdState()
        startInterview(&s)
        s.type("1")                                   // North
        XCTAssertEqual(s.draft.values["region"], .string("north"))
        s.press(.escape)
        s.form.highlight(.field(s.entry("consent")))
        s.press(.enter)
        s.type("2")                                   // No: the household group goes
        XCTAssertNil(s.draft.values["region"], "the hidden answer is not stored")
        XCTAssertFalse(s.formRelevance[s.fieldIndex("region")])
        XCTAssertFalse(s.screenText.contains("Region"), "nor shown")
        XCTAssertEqual(s.formItem, .field(s.entry("rating")), "the next question shown: Closing")
        s.press(.escape)
        s.form.highlight(.field(s.entry("consent")))
        s.press(.enter)
        s.type("1")                                   // Yes again
        XCTAssertEqual(s.draft.values["region"], .string("north"), "the answer comes back")
        XCTAssertTrue(s.screenText.contains("North"))
    }

    func testThePickerNarrowsByLabelOrNameIgnoringCaseAndAccents() throws {
        var s = try householdState()
        s.session.relabel(try householdQuestionnaire(language: "Français (fr)"))
        startInterview(&s)
        s.type("1"); s.type("1")                      // Nord, collines
        s.press(.enter)
        s.type("4"); s.press(.enter)
        s.type("1"); s.press(.enter)
        XCTAssertEqual(s.picker?.title, "Sources d'eau potable")
        s.type("RIVIERE")
        XCTAssertEqual(s.picker?.visible.map { s.picker!.labels[$0] }, ["Rivière"], "accent- and case-insensitive")
        s.press(.character(" "))                      // ticks it
        s.press(.backspace, .backspace, .backspace, .backspace, .backspace, .backspace, .backspace)
        XCTAssertEqual(s.picker?.visible.count, 5, "the whole list again")
        s.type("tap")                                 // by name
        XCTAssertEqual(s.picker?.visible.map { s.picker!.names[$0] }, ["tap"])
        s.press(.enter)
        XCTAssertEqual(s.draft.values["water"], .string("river"), "Enter keeps what is ticked")
        XCTAssertNil(s.picker, "and goes on")
    }

    func testDigitsChooseByNumberAndTenOrMoreWaitForASecondDigit() throws {
        let csv = "survey,,,\n,type,name,label\n,select_one twelve,q,Q\nchoices,,,\n,list_name,name,label\n"
            + (1...12).map { ",twelve,c\($0),Choice \($0)\n" }.joined()
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("twelve-\(UUID().uuidString).csv")
        try csv.write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        let choices = try XCTUnwrap(XLSForm.read(try XLSFormSheets.read(fileAt: file.path)).form?.choices["twelve"])
        XCTAssertEqual(choices.count, 12)
        var p = ChoicePicker(entry: 0, title: "T", choices: choices, labels: [:], multiple: false, current: "")
        XCTAssertEqual(p.typeDigit("3"), ChoicePicker.DigitOutcome.chose(3), "no choice 30 or more: 3 at once")
        XCTAssertEqual(p.typeDigit("1"), .waiting, "1 could be 10, 11 or 12")
        XCTAssertEqual(p.typeDigit("2"), .chose(12))
        XCTAssertEqual(p.highlightedName, "c12")
        XCTAssertEqual(p.typeDigit("1"), .waiting)
        XCTAssertTrue(p.takePendingDigits(), "Enter takes 1")
        XCTAssertEqual(p.highlightedName, "c1")
        XCTAssertEqual(p.typeDigit("0"), .outOfRange)
        XCTAssertEqual(p.typeDigit("1"), .waiting)
        XCTAssertEqual(p.typeDigit("3"), .outOfRange, "13 is past the list")
    }

    func testF7SwitchesTheLanguageOfLabelsHintsAndChoices() throws {
        var s = try householdState()
        XCTAssertTrue(s.screenText.contains("First name *"))
        s.press(.function(7))
        XCTAssertEqual(s.statusText, "Language: Français (fr)")
        XCTAssertTrue(s.screenText.contains("Prénom *"))
        s.form.highlight(.field(s.entry("sex")))
        s.press(.enter)
        XCTAssertEqual(s.picker?.labels, ["Femme", "Homme", "Autre"])
        s.press(.function(7))
        XCTAssertEqual(s.picker?.labels, ["Female", "Male", "Other"], "the open picker follows")
    }

    func testAddIsRefusedWithTheFirstProblemAndTheHighlightGoesThere() throws {
        var s = try householdState()
        s.press(.enter)
        s.type("Ana"); s.press(.enter, .escape)
        s.form.highlight(.add)
        XCTAssertEqual(s.press(.enter), [])
        XCTAssertEqual(s.statusText, "Not added: Ask for the respondent's last name (and 3 other problems: F8 goes to each, ^G lists them)",
                       "last name, age, consent and the read-back are required; the household group is not asked")
        XCTAssertEqual(s.recordCount, 0)
        XCTAssertEqual(s.formItem, .field(s.entry("lname")))
    }

    func testAStoredAnswerTheFormRefusesShowsWhyAndIsNotRewritten() throws {
        let old = Record(["fname": .string("Old"), "lname": .string("Timer"), "age": .integer(200), "consent": .string("yes"),
                          "retired": .string("a question a newer form dropped")])
        var s = try householdState([old])
        s.press(.enter)                               // to the form
        XCTAssertTrue(s.screenText.contains("Respondents are 15 to 120 years old"), s.screenText)
        s.press(.right, .left, .down, .down)
        XCTAssertEqual(s.records[0], old, "browsing rewrites nothing")
        XCTAssertTrue(s.screenText.contains("Timer, Old"))
    }

    func testF4NamesTheFormAndShowsAnswersItNoLongerAsks() throws {
        var old = Record(["fname": .string("Old"), "lname": .string("Timer"), "retired": .string("dropped question")])
        old.values["formVersion"] = .string("2025010101")
        var s = try householdState([old])
        s.press(.enter, .function(4))
        let screen = s.screenText
        XCTAssertTrue(screen.contains("Household survey, id household, version 2026113001"), screen)
        XCTAssertTrue(screen.contains("languages English (en), Français (fr) (F7)"), screen)
        XCTAssertTrue(screen.contains("Keyed with   version 2025010101"), screen)
        XCTAssertTrue(screen.contains("Not in this form version"), screen)
        XCTAssertTrue(screen.contains("retired: dropped question"), screen)
    }

    /// `s` and F6 go by the form's titles (its instance_name): the form's questions are
    /// not the original five's last and first name.
    func testSortAndSectionsGoByTheFormsTitles() throws {
        func person(_ first: String, _ last: String) -> Record {
            Record(["fname": .string(first), "lname": .string(last), Record.instanceIDKey: .string("uuid:\(last)")])
        }
        var s = try householdState([person("Ana", "Lima"), person("Bo", "Zulu"), person("Cy", "Adams")])
        XCTAssertEqual(s.screen.focus, .list)
        s.press(.character("s"))
        XCTAssertEqual(s.statusText, "Sorted by name")
        XCTAssertEqual(s.list.projection.shownRecords.map { s.session.title(of: s.records[$0]) }, ["Adams, Cy", "Lima, Ana", "Zulu, Bo"])
        s.press(.character("s"))
        XCTAssertEqual(s.statusText, "Sorted by entry order", "a form has entry order and its titles only")
        s.press(.function(6))
        XCTAssertEqual(s.statusText, "Sections A–Z by name (F6 again for entry order)")
        let screen = s.screenText
        for header in [" A", " L", " Z"] { XCTAssertTrue(screen.contains(header), "\(header):\n\(screen)") }
        XCTAssertFalse(screen.contains(" #"), "no survey under # for want of a lastName")
    }

    func testF5MakesAddGoOnToTheNextEmptyNewForm() throws {
        var s = try householdState()
        s.press(.function(5))
        XCTAssertTrue(s.form.addStartsNextForm)
        startInterview(&s)
        s.type("1"); s.type("1")
        for _ in 0..<4 { s.press(.enter) }           // village, members, children: empty; water: none
        s.press(.escape)
        s.form.highlight(.field(s.entry("confirm")))
        s.press(.enter); s.type("1")
        XCTAssertEqual(s.formItem, .add)
        s.press(.enter)
        XCTAssertEqual(s.recordCount, 1)
        XCTAssertEqual(s.shown, .draft, "the next New form")
        XCTAssertEqual(s.editing?.entry, s.entry("fname"), "editing its first question")
        XCTAssertTrue(s.draft.isBlank(in: s.questionnaire))
    }

    func testReadOnlyQuestionsAndNotesAreShownButNeverHighlighted() throws {
        let csv = "survey,,,,,,\n,type,name,label,read_only,default,calculation\n,note,hello,Read this first,,,\n"
            + ",text,site,Site,yes,Camp 4,\n,text,who,Who,,,\n,calculate,shout,Shout,,,\"concat(${who}, '!')\"\n"
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("ro-\(UUID().uuidString).csv")
        try csv.write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        let read = XLSForm.read(try XLSFormSheets.read(fileAt: file.path))
        guard let form = read.form else { return XCTFail("\(read.errors)") }
        var s = AppState(documentName: "RO", loaded: .success(SurveyDocument()), size: Size(width: 80, height: 24),
                         questionnaire: Questionnaire(form: form), environment: .forTests)
        XCTAssertEqual(s.formItem, .field(2), "past the note and the read-only site")
        s.press(.down)
        XCTAssertEqual(s.formItem, .clear)
        s.press(.up, .up)
        XCTAssertEqual(s.formItem, .field(2), "↑ stops at the first question one can answer")
        let screen = s.screenText
        XCTAssertTrue(screen.contains("Read this first"))
        XCTAssertTrue(screen.contains("Site  Camp 4"), "its default shows:\n\(screen)")
    }

    func testAClickOnAPickerRowChoosesIt() throws {
        var s = try householdState()
        s.form.highlight(.field(s.entry("sex")))
        s.press(.enter)
        let g = ChoicePickerView.geometry(s.picker!, state: s)
        s.send(.app(.click(Point(x: g.rows.x + 2, y: g.rows.y + 1))))
        XCTAssertEqual(s.draft.values["sex"], .string("male"))
        XCTAssertEqual(s.picker?.title, "Agrees to the interview?", "and on to the next question")
    }

    func testALongFormScrollsToKeepTheHighlightInViewAtEverySize() throws {
        for (w, h) in [(120, 40), (80, 24), (60, 20), (40, 12), (30, 10)] {
            var s = try householdState(width: w, height: h)
            startInterview(&s)
            s.type("1"); s.type("1")
            for _ in 0..<12 where s.editing != nil || s.picker != nil {
                if s.picker != nil { s.press(.escape); s.press(.down) } else { s.press(.enter) }
                let g = s.formGeometry
                let grid = Screen.render(s)
                if case .field(let entry) = s.formItem, s.picker == nil {
                    let i = entry.index     // the geometry goes by row, one per entry
                    XCTAssertFalse(g.values[i].isEmpty, "\(w)x\(h): the highlighted question is on screen")
                    XCTAssertTrue(g.viewport.contains(Point(x: g.values[i].x, y: g.values[i].y)), "\(w)x\(h)")
                    XCTAssertEqual(grid.cursor?.y, g.values[i].y, "\(w)x\(h): the caret is on it")
                }
            }
        }
    }
}
