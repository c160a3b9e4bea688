import XCTest
import SurveyValues
import SurveyForms
import SurveyStorage
@testable import SurveyUI

/// Correcting a stored roster, and members nobody answered (issue 27, items 2, 4 and 5): a
/// correction in the middle of a roster goes on to the next member instead of offering to add
/// one; a member that holds no answer is never stored; answers in a roster make the New form
/// worth keeping; every member deleted from the New form comes back, one Ctrl-Z at a time.
final class RosterCorrectionTests: XCTestCase {
    private let names = ["Ana", "Bo", "Cy", "Di"]

    /// A stored survey of Kibera with four members, aged 30 to 33.
    private func fourMembers() -> Record {
        Record(["village": .string("Kibera"), "instanceID": .string("uuid:4"), "people": .string("4"),
                "member": .array(names.enumerated().map { .dictionary(["name": .string($1), "age": .integer(30 + $0)]) })])
    }

    private func members(_ r: Record) -> [[String: PropertyValue]] { r.instances(of: "member") }

    /// The stored survey on the form, browsing member `index`'s question `key`.
    private func onMember(_ index: Int, _ key: String) throws -> AppState {
        var s = try rosterState([fourMembers()])
        s.press(.enter)
        let heading = try XCTUnwrap(s.outline.headingEntry("member"))
        s.form.highlight(.field(heading + 1))
        for _ in 0..<index { s.press(.pageDown) }
        let entry = try XCTUnwrap(s.outline.instanceEntries(of: heading).first { s.outline.field($0).key == key })
        s.form.highlight(.field(entry))
        XCTAssertTrue(s.screenText.contains("\(index + 1) of 4"), s.screenText)
        return s
    }

    func testEnterAfterCorrectingAMiddleMemberGoesOnToTheNextMember() throws {
        var s = try onMember(1, "age")                   // Bo, 31
        s.type("41")
        XCTAssertEqual(s.press(.enter), [.saveDocument])
        XCTAssertNotEqual(s.inputMode, .confirmingRoster, "no “Add another?” in the middle of the roster")
        XCTAssertNil(s.statusText)
        XCTAssertEqual(s.editing.map { s.outline.path($0.entry) },
                       AnswerPath([AnswerPath.Step(name: "member", index: 2)], "name"), "on to Cy's name")
        XCTAssertEqual(members(s.records[0]).count, 4)
        XCTAssertEqual(members(s.records[0])[1]["age"], .integer(41))
    }

    func testYesAfterTheLastMemberThenEscAndAwayStoresNoEmptyMember() throws {
        var s = try onMember(3, "age")
        s.press(.enter, .enter)                          // keep Di's age: the end of the roster
        XCTAssertEqual(s.statusText, "Add another Household member? y/n")
        XCTAssertEqual(s.press(.character("y")), [], "the new member is not saved")
        XCTAssertTrue(s.screenText.contains("5 of 5"))
        s.press(.escape)
        let effects = s.press(.pageUp)                   // away to Di
        XCTAssertFalse(effects.contains(.saveDocument))
        XCTAssertEqual(s.records[0], fourMembers(), "the survey is what its file holds")
        XCTAssertEqual(s.statusText, "Household member 5 held no answer: not kept")
        XCTAssertTrue(s.screenText.contains("4 of 4"), s.screenText)
    }

    func testControlOThenQuitStoresNoEmptyMember() throws {
        var s = try onMember(1, "name")
        XCTAssertEqual(s.press(.control("o")), [])
        XCTAssertEqual(members(s.records[0]).count, 5, "shown while it is keyed")
        let effects = s.press(.control("q"))
        XCTAssertEqual(effects, [.quit], "nothing is written for it")
        XCTAssertEqual(s.records[0], fourMembers(), "and it is gone before quitting")
    }

    func testEnterOnAnEmptyNewMemberEndsTheRoster() throws {
        var s = try onMember(3, "age")
        s.press(.enter, .enter)
        s.press(.character("y"))
        XCTAssertEqual(s.editing.map { s.outline.field($0.entry).key }, "name")
        XCTAssertEqual(s.press(.enter), [], "a blank first answer: the keyer is done with the roster")
        XCTAssertEqual(s.records[0], fourMembers())
        XCTAssertEqual(s.editing.map { s.outline.field($0.entry).key }, "notes", "on past the roster")
        XCTAssertEqual(s.statusText, "Household member 5 held no answer: not kept")
    }

    /// The first answer kept in a new member stores it, with an undo step that takes the
    /// whole member away (never back to an empty one).
    func testTheFirstAnswerStoresTheNewMemberAndUndoTakesItAway() throws {
        var s = try onMember(3, "name")
        s.press(.control("o"))
        s.type("Eve")
        XCTAssertEqual(s.press(.enter), [.saveDocument])
        s.send(.outcome(.saving(.saved(replacedCharacters: 0))))
        XCTAssertEqual(members(s.records[0]).map { $0["name"] }, (names + ["Eve"]).map { .string($0) })
        XCTAssertNil(s.form.unsavedMember)
        s.press(.escape)
        XCTAssertEqual(s.press(.control("z")), [.saveDocument])
        XCTAssertEqual(members(s.records[0]).count, 4, "undo leaves no empty member behind")
        XCTAssertEqual(members(s.records[0]).map { $0["name"] }, names.map { .string($0) })
    }

    /// A member deleted from the New form, twice: each Ctrl-Z brings one back, newest first,
    /// before anything else is undone (issue 27, item 5).
    func testEveryMemberDeletedFromTheNewFormComesBackInTurn() throws {
        var s = try rosterState([fourMembers()])
        s.press(.control("n"))
        s.type("Mathare"); s.press(.enter)
        s.press(.character("y")); s.type("Ana"); s.press(.enter); s.type("34"); s.press(.enter)
        s.press(.character("y")); s.type("Bo"); s.press(.enter); s.type("40"); s.press(.enter)
        s.press(.character("n"))
        s.press(.escape)
        s.form.highlight(.field(try XCTUnwrap(s.outline.headingEntry("member"))))
        s.press(.control("d"), .character("y"))         // Bo
        s.press(.control("d"), .character("y"))         // Ana
        XCTAssertEqual(s.draft.instances(of: "member").count, 0)
        XCTAssertEqual(s.press(.control("z")), [.saveDraft])
        XCTAssertEqual(s.draft.instances(of: "member").map { $0["name"] }, [.string("Ana")])
        XCTAssertEqual(s.press(.control("z")), [.saveDraft], "the second Ctrl-Z brings back the first member deleted")
        XCTAssertEqual(s.draft.instances(of: "member").map { $0["name"] }, [.string("Ana"), .string("Bo")])
        XCTAssertEqual(s.records.count, 1, "the stored survey's Add is not what was undone")
    }

    /// A New form whose only answers are a roster's is not empty (item 4): `isBlank`, which
    /// decides whether the draft file is kept and whether [ Add ] has anything to add, counts
    /// the members' answers.
    func testAnswersInARosterAloneMakeTheNewFormWorthKeeping() throws {
        let q = try rosterQuestionnaire()
        var draft = Record()
        XCTAssertTrue(draft.isBlank(in: q))
        draft.insertInstance(of: "member")
        XCTAssertTrue(draft.isBlank(in: q), "an empty member is no answer")
        draft.setValue(.string("Ana"), at: AnswerPath([AnswerPath.Step(name: "member", index: 0)], "name"))
        XCTAssertFalse(draft.isBlank(in: q), "a member's answer is an answer")
        XCTAssertTrue(Record(["people": .string("1")]).isBlank(in: q), "a calculated value alone is no answer")
        // The rule the draft file, [ Add ] ("Nothing to add") and clearing an answer all ask.
        var s = try rosterState()
        s.send(.form(.addInstance))                      // nothing: the highlight is not in the roster
        s.form.setDraft(draft)
        s.form.highlight(.add)
        s.press(.enter)
        XCTAssertNotEqual(s.statusText, "Nothing to add: the form is empty")
        XCTAssertEqual(s.statusText?.hasPrefix("Not added: Village is required"), true, "judged like any survey, its member counted")
    }

    /// F4's "Rule breaks" names each survey and the field and why; the list marks it `⚠`.
    func testRuleBreaksNameTheSurveyAndTheFieldAndTheListMarksIt() throws {
        var broken = fourMembers()
        broken["instanceID"] = .string("uuid:5")
        broken["village"] = .string("Mathare")
        broken.setValue(nil, at: AnswerPath([AnswerPath.Step(name: "member", index: 2)], "age"))
        var s = try rosterState([fourMembers(), broken])
        let facts = DocumentInfoView.facts(of: s)
        XCTAssertTrue(facts.contains { $0.0 == "Rule breaks" && $0.1.hasPrefix("1 record") && $0.1.contains("marked") }, "\(facts)")
        XCTAssertTrue(facts.contains { $0.0 == "" && $0.1.contains("“Mathare”") && $0.1.contains("member[3]/age") }, "\(facts)")
        let list = s.screenText.split(separator: "\n")
        XCTAssertTrue(list.contains { $0.contains("⚠ Mathare") }, s.screenText)
        XCTAssertFalse(list.contains { $0.contains("⚠ Kibera") }, "a survey that keeps every rule is not marked")
        // Mended, the mark goes.
        s.press(.down)
        XCTAssertEqual(s.shown, .record(1))
        var mended = s.records[1]
        mended.setValue(.integer(20), at: AnswerPath([AnswerPath.Step(name: "member", index: 2)], "age"))
        s.document?.records[1] = mended
        XCTAssertFalse(s.screenText.contains("⚠ Mathare"), s.screenText)
    }
}
