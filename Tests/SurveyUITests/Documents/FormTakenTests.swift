import XCTest
import SurveyValues
import SurveyForms
import SurveyStorage
@testable import SurveyUI
import SurveyUITestSupport

/// Issue 28: a form version F9's sync took is used by the open app at once: the list's
/// rules, the form of a stored survey and new surveys; a New form in progress is finished
/// under the version it was started with, and the status says so; an answer of a stored
/// survey being typed is never put into another version's question.
final class FormTakenTests: XCTestCase {
    /// Version 2 allows an age under 120; version 3 under 100, and asks for a phone.
    private func version(_ number: Int) throws -> Questionnaire {
        let csv = """
        survey,,,,
        ,type,name,label,constraint
        ,text,name,Name,
        ,integer,age,Age,\(number == 2 ? ". < 120" : ". < 100")
        \(number == 3 ? ",text,phone,Phone," : "")
        settings,,,,
        ,form_id,version,,
        ,household,\(number),,
        """
        let read = XLSForm.read(try XLSFormSheets.csv(csv))
        return Questionnaire(form: try XCTUnwrap(read.form, "\(read.errors)"))
    }

    private let old = Record(["name": .string("Elder"), "age": .integer(110), Record.instanceIDKey: .string("uuid:e"),
                              Questionnaire.formIDKey: .string("household"), Questionnaire.formVersionKey: .string("2")])

    private func state() throws -> AppState {
        var s = AppState(documentName: "Households", loaded: .success(SurveyDocument(records: [old])),
                         size: Size(width: 100, height: 30), questionnaire: try version(2), environment: .forTests)
        s.environment.clock = .pinned(Date(timeIntervalSince1970: 1_796_032_800))
        return s
    }

    /// F9, and the sync's end bringing version 3.
    private func syncTakingVersion3(_ s: inout AppState) throws {
        XCTAssertEqual(s.press(.function(9)), [.syncDocument])
        try finishSyncTakingVersion3(&s)
    }

    private func finishSyncTakingVersion3(_ s: inout AppState) throws {
        s.send(.outcome(.sync(.finished(document: "Households", message: "Synced “Households”: 0 in, 0 out, form household version 3 taken",
                                      isError: false, reloaded: nil, summary: nil, form: DocumentForm(questionnaire: try version(3))))))
    }

    func testATakenVersionIsUsedAtOnceByTheListTheFormAndNewSurveys() throws {
        var s = try state()
        XCTAssertFalse(s.screenText.contains("⚠"), s.screenText)
        try syncTakingVersion3(&s)
        XCTAssertEqual(s.statusText, "Synced “Households”: 0 in, 0 out, form household version 3 taken")
        XCTAssertTrue(s.screenText.contains("⚠ Elder"), "the list's rules are version 3's: age under 100\n\(s.screenText)")
        s.press(.enter)                                  // the stored survey on the form
        XCTAssertTrue(s.screenText.contains("Phone"), s.screenText)
        // A new survey is version 3's.
        s.press(.control("n"))
        s.type("Neu"); s.press(.enter)
        s.type("40"); s.press(.enter)
        s.type("555"); s.press(.enter)
        XCTAssertEqual(s.formItem, .add)
        s.press(.enter)
        XCTAssertEqual(s.recordCount, 2)
        XCTAssertEqual(s.records[1][Questionnaire.formVersionKey], .string("3"))
        XCTAssertEqual(s.records[1]["phone"], .string("555"))
    }

    func testANewFormInProgressIsFinishedUnderTheVersionItStartedWith() throws {
        var s = try state()
        s.press(.control("n"))
        s.type("Ana"); s.press(.enter)                   // committed; Age is being typed
        s.press(.escape)
        XCTAssertEqual(s.press(.function(9)), [.syncDocument])
        s.press(.enter)                                  // Age is typed while the sync runs
        try finishSyncTakingVersion3(&s)
        XCTAssertEqual(s.statusText, "Synced “Households”: 0 in, 0 out, form household version 3 taken; this new survey keeps version 2")
        XCTAssertEqual(s.editing?.entry, 1, "still typing Age")
        XCTAssertEqual(s.session.questionnaire.form?.version, "3", "the document's form is version 3")
        XCTAssertFalse(s.screenText.contains("Phone"), "the New form is still version 2's\n\(s.screenText)")
        XCTAssertTrue(s.screenText.contains("⚠ Elder"), "the list is version 3's\n\(s.screenText)")
        s.type("110"); s.press(.enter)                   // under 120: version 2's rule
        XCTAssertEqual(s.formItem, .add)
        s.press(.enter)
        XCTAssertEqual(s.recordCount, 2)
        XCTAssertEqual(s.records[1][Questionnaire.formVersionKey], .string("2"))
        XCTAssertEqual(s.records[1]["age"], .integer(110))
        // The next New form is version 3's.
        s.press(.control("n"))
        XCTAssertTrue(s.screenText.contains("Phone"), s.screenText)
        XCTAssertNil(s.form.draftForm)
    }

    /// A New form holding answers but not shown keeps its version too; cleared, it is gone.
    func testANewFormKeptAsideKeepsItsVersionUntilCleared() throws {
        var s = try state()
        s.press(.control("n"))
        s.type("Ana"); s.press(.enter)
        s.press(.escape)
        s.send(.form(.previousRecord))                   // the stored survey on the form
        XCTAssertEqual(s.shown, .record(0))
        try syncTakingVersion3(&s)
        XCTAssertEqual(s.statusText, "Synced “Households”: 0 in, 0 out, form household version 3 taken; this new survey keeps version 2")
        XCTAssertTrue(s.screenText.contains("Phone"), "the stored survey is shown under version 3\n\(s.screenText)")
        XCTAssertEqual(s.draftQuestionnaire.form?.version, "2")
        s.press(.function(4))
        XCTAssertTrue(s.screenText.contains("id household, version 3"), s.screenText)
        XCTAssertTrue(s.screenText.contains("keeps version 2 until it is added or cleared"), s.screenText)
        s.press(.escape)
        s.press(.control("n"))
        XCTAssertFalse(s.screenText.contains("Phone"), s.screenText)
        s.form.highlight(.clear)
        s.press(.enter)
        XCTAssertEqual(s.statusText, "The form is empty")
        XCTAssertTrue(s.screenText.contains("Phone"), "an empty New form is version 3's\n\(s.screenText)")
    }

    /// Version 3 with Phone before Age.
    private func phoneFirst() throws -> Questionnaire {
        let csv = """
        survey,,,,
        ,type,name,label,constraint
        ,text,name,Name,
        ,text,phone,Phone,
        ,integer,age,Age,. < 100
        settings,,,,
        ,form_id,version,,
        ,household,3,,
        """
        return Questionnaire(form: try XCTUnwrap(XLSForm.read(try XLSFormSheets.csv(csv)).form))
    }

    /// The question highlighted on a stored survey stays highlighted where the new version puts it.
    func testTheHighlightedQuestionStaysHighlighted() throws {
        var s = try state()
        s.press(.enter)
        s.form.highlight(.field(1))                      // Age
        XCTAssertEqual(s.press(.function(9)), [.syncDocument])
        s.send(.outcome(.sync(.finished(document: "Households", message: "Synced", isError: false, reloaded: nil, summary: nil,
                                      form: DocumentForm(questionnaire: try phoneFirst())))))
        XCTAssertEqual(s.formItem, .field(2))
        XCTAssertEqual(s.outline.field(2).key, "age")
    }

    /// An answer of a stored survey being typed when the version comes goes into its own
    /// question; the version is taken once the field is left.
    func testAnAnswerBeingTypedIsNeverPutIntoAnotherVersionsQuestion() throws {
        var s = try state()
        s.press(.enter)                                  // the stored survey on the form
        s.form.highlight(.field(1))                      // Age
        XCTAssertEqual(s.press(.function(9)), [.syncDocument])
        s.press(.enter)
        s.press(.backspace)
        s.type("5")                                      // 110 becomes 115
        // Version 3 puts a question before Age.
        let three = try phoneFirst()
        s.send(.outcome(.sync(.finished(document: "Households", message: "Synced “Households”: 0 in, 0 out, form household version 3 taken",
                                      isError: false, reloaded: nil, summary: nil, form: DocumentForm(questionnaire: three)))))
        XCTAssertEqual(s.questionnaire.form?.version, "2", "waits while Age is typed")
        XCTAssertEqual(s.editing?.entry, 1)
        s.press(.enter)
        XCTAssertEqual(s.records[0]["age"], .integer(115), "typed into Age")
        XCTAssertNil(s.records[0]["phone"])
        XCTAssertEqual(s.questionnaire.form?.version, "3", "taken once the field is left")
        XCTAssertNil(s.session.formWaiting)
    }
}
