import XCTest
import SurveyValues
import SurveyForms
import SurveyStorage
@testable import SurveyUI

/// Keying a roster heads-down (issue 18): the heading "Household member 2 of 2", each
/// member's questions under it, "Add another …? y/n" after a member's last question,
/// PgUp/PgDn between members, ^O and ^D, and the answers stored as the file keeps them: an
/// array of dictionaries under the repeat's name.
final class RosterKeyingTests: XCTestCase {
    private func members(_ s: AppState) -> [[String: PropertyValue]] { s.draft.instances(of: "member") }

    /// Village, then two members (the second young enough to be asked about school), then
    /// "n" goes on past the roster to the notes.
    private func keyTwoMembers(_ s: inout AppState) {
        s.press(.enter); s.type("Kibera"); s.press(.enter)
        XCTAssertEqual(s.inputMode, .confirmingRoster, "arriving at an empty roster asks")
        XCTAssertEqual(s.statusText, "Add a Household member? y/n")
        s.press(.character("y"))
        XCTAssertEqual(s.editing.map { s.outline.field($0.entry).key }, "name", "straight into the member's first question")
        s.type("Ana"); s.press(.enter)
        s.type("34"); s.press(.enter)
        XCTAssertEqual(s.statusText, "Add another Household member? y/n", "school is not asked at 34: the member ends")
        s.press(.character("y"))
        s.type("Bo"); s.press(.enter)
        s.type("12"); s.press(.enter)
        XCTAssertEqual(s.inputMode, .picking, "school is asked at 12")
        s.type("1")                                     // Yes, chosen at once
        XCTAssertEqual(s.statusText, "Add another Household member? y/n")
        s.press(.character("n"))
    }

    func testTwoMembersKeyedHeadsDownAreStoredAsTheFileKeepsThem() throws {
        var s = try rosterState()
        keyTwoMembers(&s)
        XCTAssertEqual(s.editing.map { s.outline.field($0.entry).key }, "notes", "n goes on past the roster")
        XCTAssertEqual(s.draft["village"], .string("Kibera"))
        XCTAssertEqual(members(s).count, 2)
        XCTAssertEqual(members(s)[0]["name"], .string("Ana"))
        XCTAssertEqual(members(s)[0]["age"], .integer(34))
        XCTAssertNil(members(s)[0]["school"])
        XCTAssertEqual(members(s)[1]["school"], .string("yes"))
        XCTAssertNil(s.draft["name"], "a member's answers never land at the top level")
        XCTAssertEqual(s.draft["people"], .string("2"), "count(${member}) outside the roster follows it")
        XCTAssertTrue(s.screenText.contains("Thank you: 2 people listed."), s.screenText)
    }

    func testTheHeadingNamesTheMemberShownAndPageKeysMoveBetweenMembers() throws {
        var s = try rosterState()
        keyTwoMembers(&s)
        s.press(.escape)
        XCTAssertTrue(s.screenText.contains("2 of 2"), s.screenText)
        XCTAssertTrue(s.screenText.contains("Household member"))
        s.press(.up)                                    // into the roster: member 2's questions
        XCTAssertEqual(s.inputMode, .rosterBrowsing)
        s.press(.pageUp)
        XCTAssertTrue(s.screenText.contains("1 of 2"))
        XCTAssertTrue(s.screenText.contains("Ana"))
        s.press(.pageUp)
        XCTAssertEqual(s.statusText, "Already at the first Household member")
        s.press(.pageDown)
        XCTAssertTrue(s.screenText.contains("Bo"))
        s.press(.pageDown)
        XCTAssertEqual(s.statusText, "Already at the last Household member: ^O adds another")
    }

    func testControlDDeletesTheMemberShownAfterAYes() throws {
        var s = try rosterState()
        keyTwoMembers(&s)
        s.press(.escape, .up)
        s.press(.control("d"))
        XCTAssertEqual(s.inputMode, .confirmingRoster)
        XCTAssertEqual(s.statusText, "Delete Household member 2 of 2 (“Bo”)? y/n")
        s.press(.character("n"))
        XCTAssertEqual(members(s).count, 2, "n keeps it")
        s.press(.control("d"), .character("y"))
        XCTAssertEqual(members(s).map { $0["name"] }, [.string("Ana")])
        XCTAssertTrue(s.screenText.contains("1 of 1"))
        XCTAssertEqual(s.statusText, "Deleted Household member 2: Ctrl-Z brings it back")
        // The New form keeps no undo history, but the member deleted from it comes back.
        XCTAssertEqual(s.press(.control("z")), [.saveDraft])
        XCTAssertEqual(members(s).map { $0["name"] }, [.string("Ana"), .string("Bo")])
        XCTAssertEqual(members(s)[1]["school"], .string("yes"), "with all its answers")
        XCTAssertEqual(s.statusText, "Put back Household member 2")
        XCTAssertEqual(s.press(.control("z")), [], "once")
    }

    func testControlOAddsAMemberAfterTheOneShown() throws {
        var s = try rosterState()
        keyTwoMembers(&s)
        s.press(.escape, .up, .pageUp)                   // member 1
        let effects = s.press(.control("o"))
        XCTAssertEqual(effects, [], "an empty member is not saved: its first answer saves it (issue 27)")
        XCTAssertEqual(members(s).count, 3)
        XCTAssertEqual(members(s)[1], [:], "the new member is the second, after the one shown")
        XCTAssertEqual(s.editing.map { s.outline.field($0.entry).key }, "name")
        XCTAssertTrue(s.screenText.contains("2 of 3"))
    }

    func testARefusedAgeInsideAMemberKeepsWhatWasTypedAndSaysWhy() throws {
        var s = try rosterState()
        s.press(.enter); s.type("Kibera"); s.press(.enter)
        s.press(.character("y"))
        s.type("Ana"); s.press(.enter)
        s.type("200"); s.press(.enter)
        XCTAssertEqual(s.statusText, "Ages are 0 to 120")
        XCTAssertEqual(s.editing?.text, "200", "what was typed stays")
        XCTAssertNil(members(s)[0]["age"])
    }

    /// A stored member's answer its form refuses (keyed by another tool) shows under that
    /// member's own question, without the path, as a top-level answer's does.
    func testAStoredMembersRefusedAnswerIsShownUnderItsQuestion() throws {
        let stored = Record(["village": .string("Kibera"), "instanceID": .string("uuid:1"),
                             "member": .array([.dictionary(["name": .string("Ana"), "age": .integer(200)])])])
        var s = try rosterState([stored])
        s.press(.enter)
        let heading = try XCTUnwrap(s.outline.headingEntry("member"))
        let problems = s.shownForm.storedAnswerProblems
        XCTAssertEqual(problems[heading + 2], "Ages are 0 to 120", "\(problems)")
        XCTAssertNil(problems[heading + 1], "Ana's name is fine")
        XCTAssertTrue(s.screenText.contains("Ages are 0 to 120"), s.screenText)
    }

    /// An older form's answer under the roster's name (`member` was a text question): the
    /// heading says it is kept, instead of offering ^O, and ^O refuses with the reason.
    func testAnotherAnswerUnderTheRostersNameIsKeptAndSaidSo() throws {
        let stored = Record(["village": .string("Kibera"), "instanceID": .string("uuid:1"), "member": .string("Ana and Bo")])
        var s = try rosterState([stored])
        s.press(.enter)
        let heading = try XCTUnwrap(s.outline.headingEntry("member"))
        XCTAssertEqual(s.outline.heading(heading)?.holdsOtherValue, true)
        XCTAssertTrue(s.screenText.contains("none: the survey holds another answer here (kept)"), s.screenText)
        XCTAssertFalse(s.screenText.contains("^O adds one"))
        s.form.highlight(.field(heading))
        s.press(.control("o"))
        XCTAssertEqual(s.statusText, "Household member could not be added: the survey holds something else than answers under “member”")
        XCTAssertEqual(s.records[0]["member"], .string("Ana and Bo"))
        // Heads-down from the village, the roster is passed by, not offered.
        s.form.highlight(.field(try XCTUnwrap(s.outline.indices.first { s.outline.field($0).key == "village" })))
        s.press(.enter, .enter)
        XCTAssertNotEqual(s.inputMode, .confirmingRoster, s.statusText ?? "")
    }

    func testAStoredSurveysRosterEditIsSavedWithAnUndoStep() throws {
        let stored = Record(["village": .string("Kibera"), "instanceID": .string("uuid:1"),
                             "member": .array([.dictionary(["name": .string("Ana"), "age": .integer(34)])])])
        var s = try rosterState([stored])
        s.press(.enter)                                   // the list's survey, on the form
        XCTAssertEqual(s.shown, .record(0))
        let heading = try XCTUnwrap(s.outline.headingEntry("member"))
        s.form.highlight(.field(heading + 1))             // Ana's name
        XCTAssertEqual(s.inputMode, .rosterBrowsing, s.modeDescription)
        s.press(.enter); s.press(.control("u")); s.type("Ana Maria")
        XCTAssertEqual(s.press(.tab), [.saveDocument])
        XCTAssertEqual(s.records[0].instances(of: "member")[0]["name"], .string("Ana Maria"))
        s.send(.outcome(.saving(.saved(replacedCharacters: 0))))
        XCTAssertEqual(s.session.history.undo.last?.label, "edit of Name of “Kibera”")
    }

    func testEveryScreenSizeDrawsTheRoster() throws {
        for (w, h) in [(120, 40), (80, 24), (40, 12), (24, 9)] {
            var s = try rosterState(width: w, height: h)
            keyTwoMembers(&s)
            s.press(.escape, .up)
            let grid = Screen.render(s)
            XCTAssertEqual(grid.lines.count, h)
            // The member's heading is kept in view with the highlighted question where both fit.
            if h >= 12 { XCTAssertTrue(grid.lines.joined().contains("2 of 2"), "\(w)x\(h)\n" + grid.lines.joined(separator: "\n")) }
        }
    }
}

/// Labels and notes show the answers they name (`${people}`), as ODK's `<output>` does.
final class LabelOutputTests: XCTestCase {
    func testANoteShowsTheAnswerItNames() throws {
        let survey = Record(["village": .string("Kibera"), "people": .string("2"), "instanceID": .string("uuid:1")])
        var s = try rosterState([survey])
        s.press(.enter)
        XCTAssertTrue(s.screenText.contains("Thank you: 2 people listed."), s.screenText)
        XCTAssertFalse(s.screenText.contains("${people}"))
    }

    func testAnUnansweredNameShowsNothingAndTextWithoutOneIsUntouched() throws {
        let q = try rosterQuestionnaire()
        XCTAssertEqual(q.filledIn("Thank you: ${people} people listed.", from: Record()), "Thank you:  people listed.")
        XCTAssertEqual(q.filledIn("No names here {x} $", from: Record()), "No names here {x} $")
        XCTAssertEqual(q.filledIn("Open ${people", from: Record(["people": .string("3")])), "Open ${people")
    }
}

extension RosterKeyingTests {
    /// Fifty members: one shown at a time, PgDn walks to the last with its heading in view.
    func testFiftyMembersArePagedWithTheHeadingInView() throws {
        let members = (1...50).map { PropertyValue.dictionary(["name": .string("M\($0)"), "age": .integer(30)]) }
        let survey = Record(["village": .string("Kibera"), "member": .array(members), "instanceID": .string("uuid:1")])
        for (w, h) in [(120, 40), (24, 9)] {
            var s = try rosterState([survey], width: w, height: h)
            s.shown = .record(0)
            s.screen.moveFocus(to: .form)
            let heading = try XCTUnwrap(s.outline.headingEntry("member"))
            s.form.highlight(.field(heading + 1))
            for _ in 1..<50 { s.press(.pageDown) }
            XCTAssertEqual(s.outline.heading(heading)?.shown, 49)
            XCTAssertTrue(s.screenText.contains("M50"), "\(w)x\(h)\n" + s.screenText)
            if h >= 12 { XCTAssertTrue(s.screenText.contains("50 of 50")) }
            XCTAssertEqual(s.formItem, .field(heading + 1), "the same question of the other member")
        }
    }
}

/// Nested rosters (plots, their trees) and a roster a `relevant` hides, as ODK keys them.
final class NestedRosterTests: XCTestCase {
    private func state(_ csv: String) throws -> AppState {
        try formState(csv: csv)
    }

    private let plots = """
    survey,,,,
    ,type,name,label,relevant
    ,text,site,Site,
    ,begin repeat,plot,Plot,
    ,text,plot_id,Plot id,
    ,begin repeat,tree,Tree,
    ,text,species,Species,
    ,end repeat,,,
    ,end repeat,,,
    ,text,done,Done,
    """

    func testTreesAreKeyedInsideTheirPlot() throws {
        var s = try state(plots)
        s.press(.enter); s.type("North ridge"); s.press(.enter)
        s.press(.character("y"))                          // Add a Plot? y
        s.type("P1"); s.press(.enter)
        XCTAssertEqual(s.statusText, "Add a Tree? y/n", "the plot's nested roster is asked next")
        s.press(.character("y"))
        s.type("Acacia"); s.press(.enter)
        XCTAssertEqual(s.statusText, "Add another Tree? y/n")
        s.press(.character("y"))
        s.type("Baobab"); s.press(.enter)
        s.press(.character("n"))                          // no more trees: the plot ends
        XCTAssertEqual(s.statusText, "Add another Plot? y/n")
        s.press(.character("n"))
        XCTAssertEqual(s.editing.map { s.outline.field($0.entry).key }, "done")
        let plots = s.draft.instances(of: "plot")
        XCTAssertEqual(plots.count, 1)
        XCTAssertEqual(plots[0]["plot_id"], .string("P1"))
        XCTAssertEqual(s.draft.instances(of: "tree", in: [AnswerPath.Step(name: "plot", index: 0)]).map { $0["species"] },
                       [.string("Acacia"), .string("Baobab")])
        XCTAssertTrue(s.screenText.contains("Tree"))
    }

    func testARosterItsRelevantHidesIsNotAskedNorShown() throws {
        var s = try state("""
        survey,,,,
        ,type,name,label,relevant
        ,integer,size,Household size,
        ,begin repeat,member,Member,${size} > 1
        ,text,name,Name,
        ,end repeat,,,
        ,text,done,Done,
        """)
        s.press(.enter); s.type("1"); s.press(.enter)
        XCTAssertEqual(s.editing.map { s.outline.field($0.entry).key }, "done", "a household of one has no roster to ask")
        XCTAssertFalse(s.screenText.contains("Member"))
    }

    func testRepeatCountSetsHowManyAndEnterGoesFromOneToTheNext() throws {
        var s = try state("""
        survey,,,,
        ,type,name,label,repeat_count
        ,integer,size,Household size,
        ,begin repeat,member,Member,${size}
        ,text,name,Name,
        ,end repeat,,,
        ,text,done,Done,
        """)
        s.press(.enter); s.type("2"); s.press(.enter)
        XCTAssertNil(s.form.rosterQuestion, "no question: the form says how many")
        s.type("Ana"); s.press(.enter)
        XCTAssertTrue(s.screenText.contains("2 of 2"), s.screenText)
        s.type("Bo"); s.press(.enter)
        XCTAssertEqual(s.editing.map { s.outline.field($0.entry).key }, "done")
        XCTAssertEqual(s.draft.instances(of: "member").map { $0["name"] }, [.string("Ana"), .string("Bo")])
        s.press(.escape, .up)
        s.press(.control("o"))
        XCTAssertEqual(s.statusText, "The form sets how many: 2 Members; none is added by hand")
    }

    /// The biomass form's shape: a tree's stems are counted by the form and are the tree's
    /// last rows, so the end of the last stem is the end of the tree, which asks for another.
    /// The stems' heading names the tree (`${tag}`) it is in.
    func testTheLastCountedMemberEndsTheMemberAroundItToo() throws {
        var s = try state("""
        survey,,,,
        ,type,name,label,repeat_count
        ,begin repeat,tree,Tree,
        ,integer,tag,Tag,
        ,integer,stem_count,Stems,
        ,begin repeat,stem,Stems of tree ${tag},${stem_count}
        ,integer,cbh,Circumference,
        ,end repeat,,,
        ,end repeat,,,
        ,text,done,Done,
        """)
        s.press(.enter)                                   // on the heading: a first tree
        s.type("101"); s.press(.enter)
        s.type("2"); s.press(.enter)
        XCTAssertTrue(s.screenText.contains("Stems of tree 101"), s.screenText)
        s.type("30"); s.press(.enter)
        s.type("25"); s.press(.enter)
        XCTAssertEqual(s.statusText, "Add another Tree? y/n")
        s.press(.character("n"))
        XCTAssertEqual(s.editing.map { s.outline.field($0.entry).key }, "done")
        XCTAssertEqual(s.draft.instances(of: "stem", in: [AnswerPath.Step(name: "tree", index: 0)]).map { $0["cbh"] },
                       [.integer(30), .integer(25)])
    }
}
