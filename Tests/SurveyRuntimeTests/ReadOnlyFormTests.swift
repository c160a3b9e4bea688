import Foundation
import XCTest
import SurveyTestSupport
import SurveyValues
import SurveyForms
import SurveyStorage
@testable import SurveyUI
@testable import SurveyRuntime

/// A document whose form cannot be used, as the Program opens it on a real folder: a form
/// with errors, or surveys keyed with a form (`formID`) that is no longer beside them. Their
/// surveys are listed, named by their answers and browsable, every change is refused with
/// the reason and the way to mend it, and the file is never written. Also: surveys are
/// named by their document's form wherever they are named (the recovery popover).
final class ReadOnlyFormTests: XCTestCase {
    var folder: URL!
    var store: DocumentStore!

    static var householdForm: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../Examples/household.csv").standardizedFileURL.path
    }

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("survey-readonly-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        store = DocumentStore(folder: folder)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: folder)
    }

    /// Two surveys as the household form stores them.
    static let households = [
        Record(["fname": .string("Ana"), "lname": .string("Lima"), "age": .integer(34), "consent": .string("yes"),
                "confirm": .string("OK"), "start": .string("2026-11-30T13:25:46Z"), "formID": .string("household"),
                "formVersion": .string("2026113001"), "instanceID": .string("uuid:aaaaaaaa-0000-4000-8000-000000000001")]),
        Record(["fname": .string("Bo"), "lname": .string("Ng"), "age": .integer(40), "consent": .string("no"),
                "formID": .string("household"), "formVersion": .string("2026113001"),
                "instanceID": .string("uuid:bbbbbbbb-0000-4000-8000-000000000002")]),
    ]

    private func launch(_ name: String, width: Int = 120, height: Int = 30) -> Program {
        var p = Program(store: store, documentName: name, size: Size(width: width, height: height))
        p.send(.system(.resized(Size(width: width, height: height))))
        return p
    }

    private func press(_ p: inout Program, _ keys: Key...) { for k in keys { p.handle(.key(k)) } }
    private func screen(_ p: Program) -> String { Screen.render(p.state).lines.joined(separator: "\n") }

    /// Every key that would change something, tried from the list and the form: each is
    /// refused with the remark, and neither the document nor a New form reaches the disk.
    private func tryEveryChange(_ p: inout Program, remark: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let before = try Data(contentsOf: store.url(for: "Households"))
        let attempts: [[Key]] = [
            [.delete], [.character("d")], [.control("n")], [.tab, .enter], [.tab, .character("Z")],
        ]
        for keys in attempts {
            for k in keys { p.handle(.key(k)) }
            XCTAssertEqual(p.state.status?.text, "Read-only: " + remark, "\(keys)", file: file, line: line)
            XCTAssertNil(p.state.editing, "\(keys)", file: file, line: line)
            XCTAssertNil(p.state.pendingRecordDelete, "\(keys)", file: file, line: line)
            XCTAssertFalse(p.state.form.showingDraft, "\(keys): no New form to key into", file: file, line: line)
            press(&p, .escape, .escape)
        }
        p.send(.app(.quit))
        XCTAssertEqual(try Data(contentsOf: store.url(for: "Households")), before, "never written", file: file, line: line)
        XCTAssertFalse(FileManager.default.fileExists(atPath: store.draftURL(for: "Households").path), file: file, line: line)
        XCTAssertTrue(store.deletedRecords(for: "Households").isEmpty, file: file, line: line)
    }

    // MARK: - A form with errors (item 8)

    func testAFormWithErrorsListsTheSurveysReadOnlyWithEveryError() throws {
        try store.save(SurveyDocument(records: Self.households), as: "Households")
        try "survey,,,,\n,type,name,label,relevant\n,integer,age,Age,${agee} > 1\n,text,,Nameless,\n"
            .write(to: folder.appendingPathComponent("Households.form.csv"), atomically: true, encoding: .utf8)
        var p = launch("Households")
        XCTAssertNil(p.state.session.loadError, "the surveys are read")
        let remark = "The form Households.form.csv has 2 errors (survey form check lists them): fix it, "
            + "or attach a corrected one with survey form attach FILE --doc Households"
        XCTAssertEqual(p.state.session.formTrouble, .errors(file: "Households.form.csv", errors: [
            "survey row 3, relevant: unknown field ${agee}", "survey row 4, name: the question has no name"]))
        var text = screen(p)
        XCTAssertTrue(text.contains("Households (read-only)"), text)
        XCTAssertTrue(text.contains("Surveys (2)"), text)
        XCTAssertFalse(text.contains("No surveys yet"), text)
        XCTAssertTrue(text.contains("Ana, Lima") && text.contains("Bo, Ng"), "named by their answers: \(text)")
        XCTAssertTrue(text.contains("Read-only: The form Households.form.csv has 2 errors"), "on the status line: \(text)")
        // Browsable: the highlighted survey's answers as stored.
        press(&p, .down)
        XCTAssertEqual(p.state.shown, .record(1))
        text = screen(p)
        XCTAssertTrue(text.contains("fname") && text.contains("Bo"), text)
        // F4 lists every error.
        press(&p, .function(4))
        text = screen(p)
        XCTAssertTrue(text.contains("survey row 3, relevant: unknown field ${agee}"), text)
        XCTAssertTrue(text.contains("survey row 4, name: the question has no name"), text)
        XCTAssertTrue(text.contains("read-only"), text)
        press(&p, .function(4))
        try tryEveryChange(&p, remark: remark)
    }

    func testAnEmptyDocumentWithAFormWithErrorsShowsTheErrorsInTheFormsPlace() throws {
        try store.save(SurveyDocument(records: []), as: "Households")
        try "survey,,,,\n,type,name,label,relevant\n,integer,age,Age,${agee} > 1\n"
            .write(to: folder.appendingPathComponent("Households.form.csv"), atomically: true, encoding: .utf8)
        var p = launch("Households")
        let text = screen(p)
        XCTAssertTrue(text.contains("Read-only: cannot use the form of Households"), text)
        XCTAssertTrue(text.contains("survey row 3, relevant: unknown field ${agee}"), text)
        press(&p, .enter, .character("x"), .enter)
        XCTAssertNil(p.state.editing)
        p.send(.app(.quit))
        XCTAssertFalse(FileManager.default.fileExists(atPath: store.draftURL(for: "Households").path))
    }

    // MARK: - A missing form (item 9)

    func testSurveysKeyedWithAFormThatIsMissingAreReadOnlyAndNamedByTheirAnswers() throws {
        try store.save(SurveyDocument(records: Self.households), as: "Households")
        var p = launch("Households")
        let remark = "The form (formID household) is missing: attach it with survey form attach FILE --doc Households"
        XCTAssertEqual(p.state.session.formTrouble, .missing(formID: "household"))
        XCTAssertNotEqual(p.state.questionnaire, .standard, "never the original five")
        XCTAssertNil(p.state.questionnaire.field(forKey: "firstName"))
        var text = screen(p)
        XCTAssertTrue(text.contains("Households (read-only)"), text)
        XCTAssertTrue(text.contains("Ana, Lima") && text.contains("Bo, Ng"), text)
        XCTAssertFalse(text.contains("(no name)"), text)
        XCTAssertTrue(text.contains("Read-only: The form (formID household) is missing"), text)
        press(&p, .function(4))
        text = screen(p)
        XCTAssertTrue(text.contains("missing: the surveys were keyed with formID household"), text)
        XCTAssertTrue(text.contains("survey form attach FILE --doc Households"), text)
        press(&p, .function(4))
        try tryEveryChange(&p, remark: remark)
        // Attached again, the document is the form's once more.
        try store.attachForm(from: Self.householdForm, to: "Households", at: Date())
        let again = launch("Households")
        XCTAssertNil(again.state.session.formTrouble)
        XCTAssertEqual(again.state.questionnaire.form?.formID, "household")
        XCTAssertTrue(screen(again).contains("Lima, Ana"), "the form's instance_name")
    }

    func testALargeDocumentIsJudgedByItsFirstSurveysAndStaysReadOnlyOnceWhole() throws {
        let surveys = (0..<30).map { i in
            Record(["fname": .string("Person\(i)"), "lname": .string("Lima"), "formID": .string("household")])
        }
        try store.save(SurveyDocument(records: surveys), as: "Households")
        let before = try Data(contentsOf: store.url(for: "Households"))
        var p = Program(store: store, documentName: "Households", size: Size(width: 100, height: 24),
                        identifyLater: true, streamingFrom: 0, firstRecords: 20)
        p.finishOpening()
        XCTAssertNotNil(p.state.session.loading, "streamed: decided by the first 20")
        XCTAssertEqual(p.state.session.formTrouble, .missing(formID: "household"))
        p.finishLoading()
        XCTAssertNil(p.state.session.loading)
        XCTAssertEqual(p.state.recordCount, 30)
        XCTAssertEqual(p.state.session.formTrouble, .missing(formID: "household"), "still read-only once whole")
        press(&p, .character("d"))
        XCTAssertEqual(p.state.status?.text.hasPrefix("Read-only: The form (formID household) is missing"), true)
        p.send(.app(.quit))
        XCTAssertEqual(try Data(contentsOf: store.url(for: "Households")), before, "the ids derived are never written")
    }

    func testTheOriginalFiveAreNotTakenForAMissingForm() throws {
        try store.save(SurveyDocument(records: [Record(["firstName": .string("Ana"), "lastName": .string("Lima")])]), as: "Site")
        let p = launch("Site")
        XCTAssertNil(p.state.session.formTrouble)
        XCTAssertEqual(p.state.questionnaire, .standard)
    }

    func testSwitchingToADocumentWhoseFormIsMissingMakesItReadOnlyAndBackAgain() throws {
        try store.save(SurveyDocument(records: Self.households), as: "Households")
        try store.save(SurveyDocument(records: [Record(["firstName": .string("Cy")])]), as: "Site")
        var p = launch("Site")
        press(&p, .function(3), .up, .enter)   // F3: Households, Site
        XCTAssertEqual(p.state.documentName, "Households")
        XCTAssertEqual(p.state.session.formTrouble, .missing(formID: "household"))
        XCTAssertTrue(screen(p).contains("Read-only: The form (formID household) is missing"))
        press(&p, .function(3), .down, .enter)
        XCTAssertEqual(p.state.documentName, "Site")
        XCTAssertNil(p.state.session.formTrouble)
        press(&p, .tab, .enter)
        XCTAssertNotNil(p.state.editing, "the other document is not read-only")
    }

    // MARK: - One title rule (item 10)

    func testRecoveredSurveysAreNamedByTheirDocumentsForm() throws {
        try store.save(SurveyDocument(records: []), as: "Households")
        try store.attachForm(from: Self.householdForm, to: "Households", at: Date())
        try store.saveRecovery([Self.households[0]], for: "Households", at: Date())
        let p = launch("Households")
        guard case .recovery = p.state.popover else { return XCTFail("no recovery offered: \(String(describing: p.state.popover))") }
        let text = screen(p)
        XCTAssertTrue(text.contains("Lima, Ana"), "the form's instance_name: \(text)")
        XCTAssertFalse(text.contains("(no name)"), text)
    }
}
