import XCTest
import SurveyValues
import SurveyForms
@testable import SurveyUI

/// Issue 31's audit log in the core: a form with an `audit` row logs ODK Collect's events as
/// the keyer moves, times (milliseconds) from the state's pinned clock.
final class AuditLogTests: XCTestCase {
    private func form(_ parameters: String = "") -> String {
        """
        survey,,,,,
        ,type,name,label,constraint,parameters
        ,audit,audit,,,\(parameters)
        ,begin group,g,G,,
        ,text,plot,Plot,,
        ,integer,trees,Trees,. < 100,
        ,end group,,,,
        ,begin repeat,household,Household,,
        ,integer,age,Age,,
        ,end repeat,,,,
        """
    }

    private func at(_ s: inout AppState, _ seconds: Int) {
        s.environment.clock = .pinned(Date(timeIntervalSince1970: 1_796_032_800 + TimeInterval(seconds)))
    }

    private func ms(_ seconds: Int) -> Int64 { 1_796_032_800_000 + Int64(seconds) * 1000 }

    private func audits(_ effects: [Effect]) -> [(document: String, events: [AuditEvent], added: Int?)] {
        effects.compactMap { if case .noteAudit(let d, let e, let a) = $0 { (d, e, a?.near) } else { nil } }
    }

    func testANewFormKeyedLogsCollectsEvents() throws {
        var s = try formState(csv: form())
        var effects = s.press(.enter)                   // editing Plot: the log starts
        at(&s, 2)
        s.type("P1")
        effects += s.press(.enter)                      // Trees
        at(&s, 5)
        s.type("150")
        effects += s.press(.enter)                      // refused: the constraint
        at(&s, 7)
        s.press(.backspace, .backspace, .backspace)
        s.type("12")
        effects += s.press(.enter)                      // "Add another Household?"
        at(&s, 9)
        effects += s.press(.character("y"))             // a member
        at(&s, 11)
        s.type("40")
        effects += s.press(.enter)
        at(&s, 14)
        effects += s.press(.character("n"), .enter)     // no more; [ Add ]
        XCTAssertEqual(s.records.count, 1)
        let notes = audits(effects)
        XCTAssertEqual(notes.count, 1, "written once, when the survey is added")
        XCTAssertEqual(notes.first?.added, 0, "the runtime gives them the id survey 0 gets when saved")
        XCTAssertEqual(notes.first?.document, "Plots")
        let events = try XCTUnwrap(notes.first?.events)
        XCTAssertEqual(events.map { $0.collectLine(AuditSettings()) }, [
            "form start,,\(ms(0)),",
            "question,/data/g/plot,\(ms(0)),\(ms(2))",
            "question,/data/g/trees,\(ms(2)),\(ms(7))",
            "constraint error,/data/g/trees,\(ms(5)),",
            "add repeat,/data/household[1],\(ms(9)),\(ms(9))",
            "question,/data/household[1]/age,\(ms(9)),\(ms(11))",
            "form save,,\(ms(14)),",
            "form exit,,\(ms(14)),",
            "form finalize,,\(ms(14)),",
        ])
        XCTAssertTrue(events.allSatisfy { $0.survey.isEmpty && $0.user == nil })
        XCTAssertNil(s.audit.draft, "the next New form starts its own log")
    }

    func testAFormWithoutAnAuditRowLogsNothing() throws {
        var s = try formState(csv: form().replacingOccurrences(of: ",audit,audit,,,\n", with: ""))
        var effects = s.press(.enter)
        s.type("P1")
        effects += s.press(.enter)
        s.type("12")
        effects += s.press(.enter, .character("n"), .enter)
        XCTAssertEqual(s.records.count, 1)
        XCTAssertTrue(audits(effects).isEmpty)
        XCTAssertNil(s.audit.draft)
    }

    private func stored() -> [Record] {
        var r = Record(["g/plot": .string("P1"), "trees": .integer(12)])
        r[Record.instanceIDKey] = .string("uuid:one")
        var other = Record(["g/plot": .string("P2"), "trees": .integer(3)])
        other[Record.instanceIDKey] = .string("uuid:two")
        return [r, other]
    }

    /// Shows survey `index` on the form, the highlight on Plot.
    private func showing(_ index: Int, _ s: inout AppState) {
        s.shown = .record(index)
        s.screen.moveFocus(to: .form)
        s.form.highlight(s.firstFormItem)
    }

    func testAnEditOfAStoredSurveyWithTrackChangesLogsOldAndNewValues() throws {
        var s = try formState(csv: form("track-changes=true"), records: stored())
        showing(0, &s)
        var effects = s.press(.enter)                   // editing Plot of survey 1: resumed
        at(&s, 3)
        effects += s.press(.enter)                      // unchanged, on to Trees
        at(&s, 4)
        s.type("15")
        effects += s.press(.enter)
        at(&s, 10)
        effects += s.press(.escape)
        effects += s.press(.right)                      // another survey: the log is written
        let notes = audits(effects)
        XCTAssertEqual(notes.count, 1)
        XCTAssertNil(notes.first?.added)
        let settings = try XCTUnwrap(AuditSettings(form: s.session.questionnaire.form))
        XCTAssertTrue(settings.trackChanges)
        let events = try XCTUnwrap(notes.first?.events)
        XCTAssertEqual(events.map { $0.collectLine(settings) }, [
            "form resume,,\(ms(0)),,,",
            "question,/data/g/plot,\(ms(0)),\(ms(3)),,",
            "question,/data/g/trees,\(ms(3)),\(ms(4)),12,15",     // Enter went on to the roster
            "form save,,\(ms(10)),,,",
            "form exit,,\(ms(10)),,,",
        ])
        XCTAssertTrue(events.allSatisfy { $0.survey == "uuid:one" })
    }

    func testIdentifyUserAsksWhoIsKeyingOnceBeforeTheFirstAnswer() throws {
        var s = try formState(csv: form("identify-user=true"))
        s.environment.device = DeviceMetadata(deviceID: "survey:test", username: "ana")
        s.press(.enter)
        guard case .audit(let prompt) = s.popover else { return XCTFail("no prompt: \(String(describing: s.popover))") }
        XCTAssertEqual(prompt.kind, .user)
        XCTAssertEqual(prompt.input.text, "ana", "the login name is offered")
        XCTAssertEqual(s.inputMode, .auditPrompt)
        s.press(.escape)
        XCTAssertNil(s.popover)
        XCTAssertNil(s.editing, "Esc keys nothing")
        s.press(.enter)                                   // asked again
        s.type("Bea Ortiz")                               // replaces the offered name
        s.press(.enter)
        XCTAssertNil(s.popover)
        XCTAssertEqual(s.audit.user, "Bea Ortiz")
        XCTAssertNotNil(s.editing, "keying goes on")
        s.type("P1")
        var effects = s.press(.enter)
        s.type("12")
        effects += s.press(.enter, .character("n"), .enter)
        effects += s.press(.enter)                        // the next New form: not asked again
        XCTAssertNil(s.popover)
        let events = try XCTUnwrap(audits(effects).first?.events)
        XCTAssertTrue(events.allSatisfy { $0.user == "Bea Ortiz" })
        let settings = AuditSettings(identifyUser: true)
        XCTAssertEqual(settings.header, "event,node,start,end,user")
        XCTAssertEqual(events.first?.collectLine(settings), "form start,,\(ms(0)),,Bea Ortiz")
    }

    func testChangingAStoredSurveyAsksWhyFirstAndEscSavesNothing() throws {
        var s = try formState(csv: form("track-changes-reasons=on-form-edit"), records: stored())
        showing(0, &s)
        s.press(.enter, .tab)                             // editing Trees of survey 1
        s.type("20")
        var effects = s.press(.enter)
        guard case .audit(let prompt) = s.popover else { return XCTFail("no prompt") }
        XCTAssertEqual(prompt.kind, .reason)
        XCTAssertFalse(effects.contains(.saveDocument), "nothing is saved before the reason")
        s.press(.escape)
        XCTAssertEqual(s.editing?.text, "20", "Esc: the entry stays on the form")
        XCTAssertEqual(s.records[0]["trees"], .integer(12))
        effects = s.press(.enter)                         // asked again
        s.type("misread the paper")
        at(&s, 6)
        effects += s.press(.enter)
        XCTAssertNil(s.popover)
        XCTAssertTrue(effects.contains(.saveDocument))
        XCTAssertEqual(s.records[0]["trees"], .integer(20))
        XCTAssertEqual(s.inputMode, .confirmingRoster, "the Enter that waited went on heads-down, as Enter does")
        s.press(.character("n"))
        if s.editing != nil { s.press(.escape) }
        s.press(.home, .enter, .tab)
        s.type("21")
        effects = s.press(.tab)                           // the same session: asked once
        XCTAssertNil(s.popover)
        XCTAssertEqual(s.records[0]["trees"], .integer(21))
        if s.editing != nil { effects += s.press(.escape) }
        effects += s.press(.right)
        let events = try XCTUnwrap(audits(effects).first?.events)
        let reason = try XCTUnwrap(events.first { $0.kind == .changeReason })
        XCTAssertEqual(reason.changeReason, "misread the paper")
        XCTAssertEqual(reason.start, ms(6))
        XCTAssertEqual(reason.collectLine(AuditSettings(changeReasons: true)), "change reason,,\(ms(6)),,misread the paper")
        XCTAssertEqual(events.last?.kind, .formExit)
    }

    func testCollectsQuotingOfAnswersUsersAndReasons() {
        let e = AuditEvent(kind: .question, node: "/data/q", start: 1, end: 2, oldValue: "a, b", newValue: "say \"hi\"",
                           user: "Ortiz, Bea", changeReason: "two\nlines")
        XCTAssertEqual(e.collectLine(AuditSettings(trackChanges: true, identifyUser: true, changeReasons: true)),
                       "question,/data/q,1,2,\"a, b\",\"say \"\"hi\"\"\",\"Ortiz, Bea\",\"two\nlines\"")
    }

    /// A choice changed on a stored survey of a form that asks why: the reason prompt shows
    /// (not the picker over it), and its answer saves the choice picked.
    func testAChoicePickedOnAStoredSurveyWaitsForItsReasonThenIsSaved() throws {
        let csv = """
        survey,,,,
        ,type,name,label,parameters
        ,audit,audit,,track-changes-reasons=on-form-edit
        ,select_one yn,ok,All fine?,
        choices,,,,
        ,list_name,name,label,
        ,yn,yes,Yes,
        ,yn,no,No,
        """
        var r = Record(["ok": .string("yes")])
        r[Record.instanceIDKey] = .string("uuid:one")
        var s = try formState(csv: csv, records: [r])
        showing(0, &s)
        s.press(.enter)                                   // the picker on All fine?
        s.type("2")                                       // No
        guard case .audit(let prompt) = s.popover else { return XCTFail("the reason is asked: \(String(describing: s.popover))") }
        XCTAssertEqual(prompt.kind, .reason)
        XCTAssertEqual(s.records[0]["ok"], .string("yes"), "nothing saved before the reason")
        s.type("respondent corrected it")
        let effects = s.press(.enter)
        XCTAssertNil(s.popover)
        XCTAssertTrue(effects.contains(.saveDocument))
        XCTAssertEqual(s.records[0]["ok"], .string("no"), "the choice picked is saved")
    }

    /// The document renamed while a stored survey's log is open: the log goes on under the
    /// new name, and is written there (not to a fresh file under the old one).
    func testARenameMidSurveyKeepsTheLogOnTheRenamedDocument() throws {
        var s = try formState(csv: form("track-changes=true"), records: stored())
        showing(0, &s)
        var effects = s.press(.enter)
        s.send(.outcome(.documents(.renamed(from: s.documentName, to: "Renamed"))))
        effects += s.press(.escape, .right)
        let notes = audits(effects)
        XCTAssertEqual(notes.map(\.document), ["Renamed"])
        XCTAssertEqual(notes.first?.events.first?.kind, .formResume, "one log, not ended at the rename")
    }

    /// A line break written CRLF is quoted as Collect quotes it (a CRLF is one Character).
    func testACRLFAnswerIsQuoted() {
        let e = AuditEvent(kind: .question, node: "/data/q", start: 1, end: 2, oldValue: "a\r\nb", newValue: "c")
        XCTAssertEqual(e.collectLine(AuditSettings(trackChanges: true)), "question,/data/q,1,2,\"a\r\nb\",c")
    }

    // MARK: Ctrl-Z of a member the highlight is in

    /// Ctrl-Z that takes away the member the highlight is in, on a form with an `audit` row:
    /// the log follows the key before the highlight is settled back into the walk, and read an
    /// entry past its end ("Index out of range", the app stopped, the undo never saved).
    func testUndoingAMemberAddedToAStoredSurveyWhileInItDoesNotCrash() throws {
        try undoMember(csv: form("track-changes=true"))
    }

    /// The same form without its `audit` row: the highlight is settled after the key
    /// (`followQuestionnaire`), and nothing reads it before.
    func testWithoutAnAuditRowUndoingTheMemberIsTheSame() throws {
        try undoMember(csv: form().replacingOccurrences(of: ",audit,audit,,,\n", with: ""))
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
