import XCTest
import SurveyValues
import SurveyForms
@testable import SurveyUI

/// The audit log's own reducer (issue 29: a child reducer): the trail follows the form's
/// place as the context states it, and says what to write and what to ask, with no
/// `AppState` in sight.
final class AuditTrailReducerTests: XCTestCase {
    private func form(_ parameters: String = "") throws -> Questionnaire {
        try questionnaire(csv: """
        survey,,,,,
        ,type,name,label,constraint,parameters
        ,audit,audit,,,\(parameters)
        ,text,plot,Plot,,
        ,integer,trees,Trees,,
        """)
    }

    private func ms(_ seconds: Int) -> Int64 { 1_796_032_800_000 + Int64(seconds) * 1000 }

    /// The New form on screen, `question` highlighted, at `seconds` past the pinned moment.
    private func context(_ form: Questionnaire, at seconds: Int, on question: String?, draft: Record = Record(),
                         records: [Record] = [], shown: AppState.Shown = .draft, typing: Bool = true) -> AuditTrail.Context {
        let field = question.flatMap { name in form.fields.first { $0.key == name } }
        return AuditTrail.Context(
            settings: AuditSettings(form: form.form), formEncrypts: false,
            clock: .pinned(Date(timeIntervalSince1970: 1_796_032_800 + TimeInterval(seconds))),
            documentName: "Plots", documentRead: true, shown: shown, records: RecordList(records), draft: draft,
            draftQuestionnaire: form, questionnaire: form, typing: typing, popoverOpen: false, login: "enumerator1",
            highlighted: { field.map { (AnswerPath($0.key), $0) } })
    }

    func testTheNewFormsQuestionsAreLoggedAndWrittenWhenItIsStored() throws {
        let form = try form()
        var trail = AuditTrail()
        XCTAssertEqual(trail.follow([], in: context(form, at: 0, on: "plot", typing: false)), .init(effects: []),
                       "nothing keyed yet: no log")
        XCTAssertNil(trail.draft)
        XCTAssertEqual(trail.follow([.rememberSession], in: context(form, at: 0, on: "plot")), .init(effects: [.rememberSession]))
        XCTAssertEqual(trail.draft?.open?.node, "/data/plot")
        let keyed = Record(["plot": .string("P1")])
        _ = trail.follow([], in: context(form, at: 2, on: "trees", draft: keyed))
        XCTAssertEqual(trail.draft?.open?.node, "/data/trees")
        trail.note(.constraintError, at: AnswerPath("trees"), in: context(form, at: 3, on: "trees", draft: keyed))

        let stored = Record(["plot": .string("P1"), "trees": .integer(12)])
        let effects = trail.draftStored(as: 0, finalized: true, in: context(form, at: 5, on: nil, records: [stored]))
        guard case .noteAudit(let document, let events, let added)? = effects.first, effects.count == 1 else {
            return XCTFail("one write: \(effects)")
        }
        XCTAssertEqual(document, "Plots")
        XCTAssertEqual(added?.near, 0)
        XCTAssertEqual(events.map { $0.collectLine(AuditSettings()) }, [
            "form start,,\(ms(0)),",
            "question,/data/plot,\(ms(0)),\(ms(2))",
            "question,/data/trees,\(ms(2)),\(ms(5))",
            "constraint error,/data/trees,\(ms(3)),",
            "form save,,\(ms(5)),",
            "form exit,,\(ms(5)),",
            "form finalize,,\(ms(5)),",
        ])
        XCTAssertNil(trail.draft)
    }

    func testLeavingAChangedStoredSurveyWritesItsLogBeforeAQuit() throws {
        let form = try form()
        let survey = Record(["plot": .string("P1"), Record.instanceIDKey: .string("uuid:a")])
        var trail = AuditTrail()
        _ = trail.follow([], in: context(form, at: 0, on: "plot", records: [survey], shown: .record(0)))
        XCTAssertEqual(trail.stored?.survey, "uuid:a")
        trail.changeSaved(in: context(form, at: 1, on: "plot", records: [survey], shown: .record(0)))
        let followed = trail.follow([.saveDocument, .quit], in: context(form, at: 4, on: "plot", records: [survey], shown: .record(0)))
        XCTAssertEqual(followed.effects.count, 3)
        XCTAssertEqual(followed.effects.first, .saveDocument)
        XCTAssertEqual(followed.effects.last, .quit, "the log is written before the quit")
        guard case .noteAudit(_, let events, nil) = followed.effects[1] else { return XCTFail("\(followed.effects)") }
        XCTAssertEqual(events.map { $0.collectLine(AuditSettings()) }, [
            "form resume,,\(ms(0)),",
            "question,/data/plot,\(ms(0)),\(ms(4))",
            "form save,,\(ms(4)),",
            "form exit,,\(ms(4)),",
        ])
        XCTAssertTrue(events.allSatisfy { $0.survey == "uuid:a" })
    }

    func testWhoIsKeyingIsAskedOnceAndAFormWithoutALogDropsItsEvents() throws {
        var trail = AuditTrail()
        let asking = try form("identify-user=true")
        let followed = trail.follow([], in: context(asking, at: 0, on: "plot"))
        XCTAssertEqual(followed.prompt, AuditPrompt(kind: .user, input: TextInput(text: "enumerator1", selectingAll: true)))
        trail.identify("Bea Ortiz")
        XCTAssertNil(trail.follow([], in: context(asking, at: 1, on: "plot")).prompt, "asked once per run")
        XCTAssertNotNil(trail.draft)

        let plain = try questionnaire(csv: "survey,,,\n,type,name,label\n,text,plot,Plot\n")
        XCTAssertEqual(trail.follow([], in: context(plain, at: 2, on: "plot")), .init(effects: []))
        XCTAssertNil(trail.draft, "a form without an audit row keeps no log")
        XCTAssertEqual(trail.user, "Bea Ortiz", "who is keying is still known")
    }
}
