import Foundation
import XCTest
import SurveyTestSupport
@testable import SurveyValues
@testable import SurveyForms
@testable import SurveyStorage

/// Issue 32, "Team", the review's cases: an update's base is where its values were first
/// filled in (an incomplete save included), a supervisor's own edit is not overtaken by an
/// older one, and an update with no base writes what it saves even over an open conflict.
final class EntityOrderTests: TemporaryFolderTestCase {
    private let clock = Questionnaire.Clock(now: Date(timeIntervalSince1970: 1_780_000_000), timeZone: .utc)

    private func laptop() throws -> DocumentStore {
        let store = DocumentStore(folder: folder)
        _ = try store.create(named: "Visit")
        let file = folder.appendingPathComponent("Visit-form.md")
        try Data(EntityForms.visit.utf8).write(to: file)
        try store.attachForm(from: file.path, to: "Visit", at: Date())
        try FileManager.default.removeItem(at: file)
        try store.applyEntityActions([EntityAction(kind: .create, list: "households", id: "h1", label: "Ana",
                                                   properties: [.init(name: "phone", value: "a"), .init(name: "village", value: "Lima")],
                                                   member: [])])
        return store
    }

    /// A visit saved incomplete with the phone as the list had it ("a"); a sync brings the
    /// teammate's "x"; the visit is finished without touching the phone: the list keeps "x".
    func testAVisitsBaseIsRecordedAtItsFirstSaveEvenIncomplete() throws {
        let store = try laptop()
        let questionnaire = try store.questionnaire(for: "Visit")
        var draft = Record(["hh": .string("h1"), "phone": .string("a"), "village": .string("Lima"),
                            Record.instanceIDKey: .string("uuid:v")])
        draft.setIncomplete(true)
        var records = [draft]
        XCTAssertEqual(store.stampEntityBases(&records, changed: [(0, nil)], questionnaire: questionnaire, clock: clock), [0])
        let saved = records[0]
        // The teammate's visit comes: phone x, made from a.
        try store.applyEntityActions([EntityAction(kind: .update, list: "households", id: "h1", label: nil,
                                                   properties: [.init(name: "phone", value: "x")], member: [],
                                                   base: EntityBase(version: 1, label: "Ana", properties: ["phone": "a"]))])
        XCTAssertEqual(try store.entityList("households").entity("h1")?.properties["phone"], "x")
        var finished = saved
        finished.setIncomplete(false)
        records = [finished]
        _ = store.stampEntityBases(&records, changed: [(0, saved)], questionnaire: questionnaire, clock: clock)
        XCTAssertEqual(EntityBase.stamped(in: records[0].values, list: "households", id: "h1")?.properties["phone"], "a",
                       "the first base recorded is kept")
        try store.recordEntities(changing: [(saved, records[0])], questionnaire: questionnaire, clock: clock)
        XCTAssertEqual(try store.entityList("households").entity("h1")?.properties["phone"], "x", "the teammate's change stays")
    }

    /// Own edit 9 taken at once; the pull then brings an older edit 5 of the same property:
    /// the list ends as the team's order says (9 last), as on every other laptop.
    func testASupervisorsOwnEditIsNotOvertakenByAnOlderOne() throws {
        var list = EntityList()
        list.apply(EntityAction(kind: .create, list: "households", id: "h1", label: "Ana",
                                properties: [.init(name: "phone", value: "a"), .init(name: "village", value: "Lima")], member: []))
        let own = EntityEdit(list: "households", entityID: "h1", properties: ["phone": "y"], change: 9)
        list.takeOwn(own)
        let older = EntityEdit(list: "households", entityID: "h1", properties: ["phone": "m", "village": "Cusco"], change: 5)
        list.takeFromTeam([older, own])
        XCTAssertEqual(list.entity("h1")?.properties, ["phone": "y", "village": "Cusco"])
        var elsewhere = EntityList()
        elsewhere.apply(EntityAction(kind: .create, list: "households", id: "h1", label: "Ana",
                                     properties: [.init(name: "phone", value: "a"), .init(name: "village", value: "Lima")], member: []))
        elsewhere.takeFromTeam([older, own])
        XCTAssertEqual(elsewhere.entity("h1")?.properties, list.entity("h1")?.properties)
    }

    /// An update with no base (a survey stored before bases were kept) writes what it saves,
    /// as its doc comment says, even where a conflict is open: the conflict is settled so.
    func testAnUpdateWithNoBaseWritesWhatItSavesOverAnOpenConflict() throws {
        var list = EntityList()
        list.apply(EntityAction(kind: .create, list: "households", id: "h1", label: "Ana",
                                properties: [.init(name: "phone", value: "1")], member: []))
        func update(_ phone: String, base: String?) -> EntityAction {
            EntityAction(kind: .update, list: "households", id: "h1", label: nil, properties: [.init(name: "phone", value: phone)],
                         member: [], base: base.map { EntityBase(version: 1, label: "Ana", properties: ["phone": $0]) })
        }
        list.apply(update("2", base: "1"))
        list.apply(update("3", base: "1"))
        XCTAssertEqual(list.conflicts.count, 1)
        XCTAssertEqual(list.apply(update("6", base: nil)), .updated)
        XCTAssertEqual(list.entity("h1")?.properties["phone"], "6")
        XCTAssertEqual(list.conflicts, [])
    }
}
