import Foundation
import XCTest
import SurveyTestSupport
import SurveyValues
import SurveyForms
import SurveyStorage
@testable import SurveyUI
@testable import SurveyRuntime

/// Issue 32, on a real folder: Add of a registration writes `households.csv` beside the
/// documents at once, an edit of the stored survey updates it, and the follow-up form of
/// another document offers the household; a list that cannot be written is said, and the
/// survey stays saved.
final class EntityListProgramTests: XCTestCase {
    var folder: URL!
    var store: DocumentStore!

    static let registration = EntityForms.registration

    static let followUp = EntityForms.followUp

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("survey-entities-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        store = DocumentStore(folder: folder)
        for (name, form) in [("Register", Self.registration), ("Visits", Self.followUp)] {
            try store.save(SurveyDocument(), as: name)
            let file = folder.appendingPathComponent("form-\(name).md")
            try Data(form.utf8).write(to: file)
            try store.attachForm(from: file.path, to: name, at: Date())
            try FileManager.default.removeItem(at: file)
        }
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: folder)
    }

    private func launch(_ name: String, journalThreshold: Int = 1 << 20) -> Program {
        var p = Program(store: store, documentName: name, size: Size(width: 120, height: 40), journalThreshold: journalThreshold)
        p.send(.system(.resized(Size(width: 120, height: 40))))
        return p
    }

    private var listText: String? { try? String(contentsOf: folder.appendingPathComponent("households.csv"), encoding: .utf8) }

    private func register(_ p: inout Program, head: String, phone: String) {
        p.press(.control("n"))
        p.type(head); p.press(.enter)
        p.type(phone); p.press(.enter)
        XCTAssertEqual(p.state.formItem, .add)
        p.press(.enter)
    }

    func testAddWritesTheListAndTheFollowUpOffersIt() throws {
        // Whole-file saves (a second window, the tests' default) and the journal (the app).
        for threshold in [1 << 20, 0] {
            try? FileManager.default.removeItem(at: folder.appendingPathComponent("households.csv"))
            var p = launch("Register", journalThreshold: threshold)
            register(&p, head: "Ana Lima", phone: "555 0101")
            XCTAssertEqual(p.state.statusText, "Added survey \(p.state.recordCount): Ana Lima")
            let list = try EntityList(csv: try XCTUnwrap(listText, "threshold \(threshold): written at the Add"))
            let ana = try XCTUnwrap(list.entities.last)
            XCTAssertEqual([ana.label, ana.properties["phone"]], ["Ana Lima", "555 0101"])
            XCTAssertEqual(ana.version, 1)

            // An edit of the stored survey, committed: the entity follows, one version more.
            p.press(.up, .up)
            XCTAssertEqual(p.state.formItem, .field(1))
            p.press(.enter, .control("u")); p.type("555 0199"); p.press(.enter)
            let edited = try EntityList(csv: try XCTUnwrap(listText))
            XCTAssertEqual(edited.entity(ana.id)?.properties["phone"], "555 0199")
            XCTAssertEqual(edited.entity(ana.id)?.version, 2)
            p.send(.app(.quit))

            // Another document's follow-up form offers the household.
            let visits = launch("Visits")
            XCTAssertEqual(visits.state.questionnaire.form?.choices["households.csv"]?.map(\.name).last, ana.id)
            XCTAssertEqual(visits.state.questionnaire.form?.choices["households.csv"]?.last?.labels.values.first, "Ana Lima")
        }
    }

    func testAListThatCannotBeWrittenIsSaidAndTheSurveyStaysSaved() throws {
        let plain = "name,label\r\nv1,Vila\r\n"
        try Data(plain.utf8).write(to: folder.appendingPathComponent("households.csv"))
        var p = launch("Register")
        register(&p, head: "Bo Okafor", phone: "555 0202")
        XCTAssertEqual(p.state.statusText,
                       "Saved, but the entity list was not updated: households.csv beside the documents is not an entity list "
                       + "(its first line has no name and __version columns): it was left as it is, and no entity list was changed")
        XCTAssertEqual(try store.load("Register").get().records.count, 1, "the survey is saved")
        XCTAssertEqual(listText, plain, "the file is left as it was")
    }

    /// A visit added in the app carries the household as the list held it (its base, ODK's
    /// `baseVersion`), in the saved file and in the app's own copy; edited again, it changes
    /// the household from its own last version, never a conflict with itself.
    func testAVisitIsStampedWithTheEntityItStartedFrom() throws {
        for threshold in [1 << 20, 0] {
            try? FileManager.default.removeItem(at: folder.appendingPathComponent("households.csv"))
            try? FileManager.default.removeItem(at: folder.appendingPathComponent(".households.entities.json"))
            try store.save(SurveyDocument(), as: "Visit")
            let file = folder.appendingPathComponent("visit.md")
            try Data(EntityForms.visit.utf8).write(to: file)
            try store.attachForm(from: file.path, to: "Visit", at: Date())
            try FileManager.default.removeItem(at: file)
            try store.applyEntityActions([EntityAction(kind: .create, list: "households", id: "h1", label: "Ana",
                                                       properties: [.init(name: "phone", value: "555 0101"),
                                                                    .init(name: "village", value: "Lima")], member: [])])
            var p = launch("Visit", journalThreshold: threshold)
            p.press(.control("n"))
            for answer in ["h1", "555 0199", "Lima"] { p.type(answer); p.press(.enter) }
            XCTAssertEqual(p.state.formItem, .add)
            p.press(.enter)
            let expected = EntityBase(version: 1, label: "Ana", properties: ["phone": "555 0101", "village": "Lima"])
            XCTAssertEqual(EntityBase.stamped(in: try XCTUnwrap(p.state.document?.records.last).values, list: "households", id: "h1"),
                           expected, "threshold \(threshold): the app's copy holds the base")
            let saved = try XCTUnwrap(try store.load("Visit").get().records.last)
            XCTAssertEqual(EntityBase.stamped(in: saved.values, list: "households", id: "h1"), expected, "the file holds it")
            XCTAssertEqual(try store.entityList("households").entity("h1")?.properties["phone"], "555 0199")

            // Edited again: the phone follows, no conflict, the base where it started.
            p.press(.up, .up, .up)
            XCTAssertEqual(p.state.formItem, .field(1))
            p.press(.enter, .control("u")); p.type("555 0300"); p.press(.enter)
            p.send(.app(.quit))
            let list = try store.entityList("households")
            XCTAssertEqual(list.entity("h1")?.properties["phone"], "555 0300")
            XCTAssertEqual(list.conflicts, [])
            XCTAssertEqual(EntityBase.stamped(in: try XCTUnwrap(try store.load("Visit").get().records.last).values,
                                              list: "households", id: "h1"), expected)
            try store.save(SurveyDocument(), as: "Visit")
        }
    }

    /// A visit's first save, in the app (its base stamped before the save, the list written
    /// after it, both on the main thread): the list's CSV is read once (it was read twice).
    func testAVisitsFirstSaveReadsTheListOnce() throws {
        try store.save(SurveyDocument(), as: "Visit")
        let file = folder.appendingPathComponent("visit.md")
        try Data(EntityForms.visit.utf8).write(to: file)
        try store.attachForm(from: file.path, to: "Visit", at: Date())
        try FileManager.default.removeItem(at: file)
        try store.applyEntityActions([EntityAction(kind: .create, list: "households", id: "h1", label: "Ana",
                                                   properties: [.init(name: "phone", value: "555 0101"),
                                                                .init(name: "village", value: "Lima")], member: [])])
        final class Opens: @unchecked Sendable {
            let lock = NSLock()
            var paths: [String] = []
        }
        let opens = Opens()
        let counting = DocumentStore(folder: folder, fileSystem: .failing { operation, path in
            if operation == .open, let path { opens.lock.lock(); opens.paths.append(path); opens.lock.unlock() }
            return nil
        })
        var p = Program(store: counting, documentName: "Visit", size: Size(width: 120, height: 40))
        p.send(.system(.resized(Size(width: 120, height: 40))))
        p.press(.control("n"))
        for answer in ["h1", "555 0199", "Lima"] { p.type(answer); p.press(.enter) }
        XCTAssertEqual(p.state.formItem, .add)
        opens.lock.lock(); opens.paths = []; opens.lock.unlock()
        p.press(.enter)
        XCTAssertEqual(try store.entityList("households").entity("h1")?.properties["phone"], "555 0199")
        let list = folder.appendingPathComponent("households.csv").path
        opens.lock.lock(); defer { opens.lock.unlock() }
        XCTAssertEqual(opens.paths.filter { $0 == list }.count, 1, opens.paths.joined(separator: "\n"))
    }
}
