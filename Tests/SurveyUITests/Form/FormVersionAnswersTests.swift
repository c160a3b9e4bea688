import XCTest
import SurveyValues
import SurveyForms
import SurveyStorage
@testable import SurveyUI

/// Answers outlive their form: a survey keyed under an older version of the questionnaire
/// keeps every answer the current version hides, no longer offers or no longer asks, whatever
/// field of it is edited. Only a change made in this session hides an answer (ODK's rule).
final class FormVersionAnswersTests: XCTestCase {
    /// Keyed with a version that had no consent question (so the Household group shows for it
    /// only now that consent decides), no has_phone question, and `delta` in the north.
    private func oldSurvey() -> Record {
        Record(["fname": .string("Old"), "lname": .string("Timer"), "age": .integer(40),
                "region": .string("north"), "district": .string("delta"), "members": .integer(5),
                "children": .integer(2), "adults": .string("3"), "phone": .string("555 1234"),
                "retired": .string("a dropped question"),
                Questionnaire.formIDKey: .string("household"), Questionnaire.formVersionKey: .string("2025010101"),
                Record.instanceIDKey: .string("uuid:7d1f0c7e-3a55-4a7e-9d7c-0a1b2c3d4e5f")])
    }

    /// Edits the first name of the shown survey to `text` and returns the effects.
    private func editFirstName(_ s: inout AppState, to text: String) -> [Effect] {
        s.form.highlight(.field(s.entry("fname")))
        var effects = s.press(.enter)
        for _ in 0..<3 { effects += s.press(.backspace) }
        effects += s.type(text)
        effects += s.press(.enter)                      // kept; Last name is being typed
        effects += s.press(.escape)
        return effects
    }

    func testEditingAnotherFieldKeepsAnswersTheNewFormHidesOrNoLongerOffers() throws {
        var s = try householdState([oldSurvey()])
        s.press(.enter)                                 // to the form
        XCTAssertFalse(s.formRelevance[s.fieldIndex("region")], "consent decides the Household group now")
        let effects = editFirstName(&s, to: "Neu")
        XCTAssertEqual(effects, [.saveDocument])
        let saved = s.records[0]
        XCTAssertEqual(saved["fname"], .string("Neu"))
        for key in ["region", "district", "members", "children", "adults", "phone", "retired"] {
            XCTAssertEqual(saved[key], oldSurvey()[key], "\(key) is the respondent's answer: kept")
        }
        XCTAssertEqual(saved[Questionnaire.formVersionKey], .string("2025010101"), "keyed with the old version")
    }

    func testAChoiceTheNewVersionNoLongerOffersIsKeptWhenAnotherFieldChanges() throws {
        var old = oldSurvey()
        old["consent"] = .string("yes")                 // the group shows; delta is not a northern district
        var s = try householdState([old])
        s.press(.enter)
        XCTAssertTrue(s.formRelevance[s.fieldIndex("district")])
        _ = editFirstName(&s, to: "Neu")
        XCTAssertEqual(s.records[0]["district"], .string("delta"))
        XCTAssertEqual(s.records[0]["phone"], .string("555 1234"), "has_phone was never asked: phone stays")
    }

    func testAChangeMadeNowStillHidesWhatItHidesAndBringsItBack() throws {
        var old = oldSurvey()
        old["consent"] = .string("yes")
        var s = try householdState([old])
        s.press(.enter)
        s.form.highlight(.field(s.entry("consent")))
        s.press(.enter)
        s.type("2")                                     // No: this session hides the Household group
        XCTAssertNil(s.records[0]["region"], "hidden by a change made now: not stored, as ODK")
        XCTAssertEqual(s.records[0]["retired"], .string("a dropped question"), "a question the form does not ask is not hidden by it")
        s.press(.escape)
        s.form.highlight(.field(s.entry("consent")))
        s.press(.enter)
        s.type("1")                                     // Yes again
        XCTAssertEqual(s.records[0]["region"], .string("north"), "comes back")
        XCTAssertEqual(s.records[0]["district"], .string("delta"), "even the choice the form no longer offers")
    }

    func testF4ListsAnswersNotInThisFormVersion() throws {
        var s = try householdState([oldSurvey()])
        s.press(.enter, .function(4))
        let screen = s.screenText
        XCTAssertTrue(screen.contains("Not in this form version"), screen)
        for fragment in ["retired: a dropped question", "phone: 555 1234", "district: delta", "region: north"] {
            XCTAssertTrue(screen.contains(fragment), "\(fragment):\n\(screen)")
        }
    }

    func testXInF4ClearsThemOnPurposeAfterAYesAndCtrlZBringsThemBack() throws {
        var s = try householdState([oldSurvey()])
        s.press(.enter, .function(4))
        XCTAssertEqual(s.press(.character("x")), [])
        let asked = try XCTUnwrap(s.statusText)
        XCTAssertTrue(asked.hasPrefix("Clear 7 answers this form version does not ask ("), asked)
        XCTAssertTrue(asked.hasSuffix(") from “Timer, Old”? y/n"), asked)
        XCTAssertEqual(s.inputMode, .confirmingAnswersClear)
        s.press(.character("n"))
        XCTAssertEqual(s.records[0], oldSurvey(), "n keeps them")
        s.press(.character("x"))
        XCTAssertEqual(s.press(.character("y")), [.saveDocument])
        XCTAssertEqual(s.statusText, "Cleared 7 answers from “Timer, Old”: Ctrl-Z brings them back")
        for key in ["region", "district", "members", "children", "adults", "phone", "retired"] {
            XCTAssertNil(s.records[0][key], key)
        }
        XCTAssertEqual(s.records[0]["fname"], .string("Old"), "what the form asks stays")
        XCTAssertEqual(s.records[0][Record.instanceIDKey], oldSurvey()[Record.instanceIDKey])
        _ = s.send(.outcome(.saving(.saved(replacedCharacters: 0))))
        XCTAssertFalse(s.screenText.contains("Not in this form version"), s.screenText)
        _ = s.press(.control("z"))
        XCTAssertEqual(s.records[0], oldSurvey(), "undone")
    }

    func testXSaysSoWhenTheSurveyHoldsNothingTheFormDoesNotAsk() throws {
        var s = try householdState([Record(["fname": .string("New"), "lname": .string("Comer"),
                                            Record.instanceIDKey: .string("uuid:new")])])
        s.press(.enter, .function(4))
        s.press(.character("x"))
        XCTAssertEqual(s.statusText, "“Comer, New” holds no answer this form version does not ask")
        XCTAssertNil(s.form.pendingQuestion)
    }

    /// A choice this session's change withdrew (its parent moved) stays aside through later
    /// edits of other fields: it comes back only if the parent comes back.
    func testAChoiceWithdrawnNowDoesNotComeBackOnTheNextUnrelatedEdit() throws {
        let survey = Record(["fname": .string("Ana"), "lname": .string("Lima"), "age": .integer(34),
                             "consent": .string("yes"), "region": .string("north"), "district": .string("hill"),
                             Record.instanceIDKey: .string("uuid:ana")])
        var s = try householdState([survey])
        s.press(.enter)
        s.form.highlight(.field(s.entry("region")))
        s.press(.enter)
        s.type("2")                                     // South: Hill district is not offered there
        XCTAssertNil(s.records[0]["district"], "withdrawn by this change")
        s.press(.escape)
        _ = editFirstName(&s, to: "Anna")
        XCTAssertEqual(s.records[0]["fname"], .string("Anna"))
        XCTAssertNil(s.records[0]["district"], "still aside: a southern survey does not get a northern district back")
        s.form.highlight(.field(s.entry("region")))
        s.press(.enter)
        s.type("1")                                     // North again
        XCTAssertEqual(s.records[0]["district"], .string("hill"), "back with its parent")
    }
}
