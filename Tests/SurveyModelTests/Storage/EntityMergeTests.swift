import Foundation
import XCTest
import SurveyTestSupport
@testable import SurveyValues
@testable import SurveyForms
@testable import SurveyStorage

/// Issue 32, "Team", without a server: an entity update merged against the version it was made
/// from, property by property (`EntityList.apply`), its conflicts settled by hand, by a later
/// update made from either side, or by a supervisor's edit; a retired entity stays out; a USB
/// merge brings a visit's conflict as a sync does; `--rebuild` derives a lost list again,
/// its conflict included, and never writes over a file that is no entity list.
final class EntityMergeTests: TemporaryFolderTestCase {
    private let clock = Questionnaire.Clock(now: Date(timeIntervalSince1970: 1_780_000_000), timeZone: .utc)

    private func registered() -> EntityList {
        var list = EntityList()
        list.apply(EntityAction(kind: .create, list: "households", id: "h1", label: "Ana",
                                properties: [.init(name: "phone", value: "1"), .init(name: "village", value: "Lima")], member: []))
        return list
    }

    private func update(phone: String? = nil, village: String? = nil, label: String? = nil,
                        base: (phone: String, village: String, label: String) = ("1", "Lima", "Ana")) -> EntityAction {
        var properties: [EntityAction.Property] = []
        properties.append(.init(name: "phone", value: phone ?? base.phone))
        properties.append(.init(name: "village", value: village ?? base.village))
        return EntityAction(kind: .update, list: "households", id: "h1", label: label ?? base.label, properties: properties, member: [],
                            base: EntityBase(version: 1, label: base.label, properties: ["phone": base.phone, "village": base.village]))
    }

    func testAnUpdateFromAnOldVersionMergesPerPropertyAndTheSamePropertyIsAConflict() throws {
        var list = registered()
        XCTAssertEqual(list.apply(update(phone: "2"), survey: "uuid:a"), .updated)
        // From version 1, the village and the label changed: the phone (left as it was) stays 2.
        XCTAssertEqual(list.apply(update(village: "Cusco", label: "Ana L."), survey: "uuid:b"), .updated)
        XCTAssertEqual(list.entity("h1")?.properties, ["phone": "2", "village": "Cusco"])
        XCTAssertEqual(list.entity("h1")?.label, "Ana L.")
        XCTAssertEqual(list.entity("h1")?.version, 3)
        // From version 1 too, the phone changed to 3: a conflict, 2 kept, nothing else changed.
        XCTAssertEqual(list.apply(update(phone: "3"), survey: "uuid:c"), .unchanged)
        XCTAssertEqual(list.conflicts, [EntityConflict(id: "h1", property: "phone", base: "1", mine: "2", theirs: "3", survey: "uuid:c")])
        XCTAssertEqual(list.entity("h1")?.properties["phone"], "2")
        // The same change again, or one that left the phone: nothing more.
        XCTAssertEqual(list.apply(update(phone: "3"), survey: "uuid:c"), .unchanged)
        XCTAssertEqual(list.conflicts.count, 1)
        // A third value from the old base: theirs is the newest.
        list.apply(update(phone: "4"), survey: "uuid:d")
        XCTAssertEqual(list.conflicts.map(\.theirs), ["4"])
        // An update made on top of one side settles it.
        XCTAssertEqual(list.apply(update(phone: "5", base: ("2", "Cusco", "Ana L.")), survey: "uuid:e"), .updated)
        XCTAssertEqual(list.conflicts, [])
        XCTAssertEqual(list.entity("h1")?.properties["phone"], "5")
        // An update with no base (a survey stored before bases were kept) writes what it saves.
        var old = update(phone: "6")
        old.base = nil
        list.apply(old)
        XCTAssertEqual(list.entity("h1")?.properties, ["phone": "6", "village": "Lima"])
        XCTAssertEqual(list.entity("h1")?.label, "Ana")
    }

    func testAConflictIsResolvedByHandOrByASupervisorsEdit() throws {
        var list = registered()
        list.apply(update(phone: "2", label: "Ana L."))
        list.apply(update(phone: "3", label: "Ana Souza"), survey: "uuid:b")
        XCTAssertEqual(list.conflicts.map(\.property).sorted(), ["label", "phone"])
        XCTAssertThrowsError(try list.resolve(id: "h1", property: "village", by: .mine)) { error in
            XCTAssertEqual((error as? DocumentError)?.message, "village of h1 has no conflict to resolve (survey entities --list NAME shows them)")
        }
        var typed = list
        XCTAssertEqual(try typed.resolve(id: "h1", property: "phone", by: .value("7")), 1)
        XCTAssertEqual(typed.entity("h1")?.properties["phone"], "7")
        XCTAssertEqual(typed.conflicts.map(\.property), ["label"])
        var mine = list
        XCTAssertEqual(try mine.resolve(id: "h1", property: nil, by: .mine), 2)
        XCTAssertEqual(mine.entity("h1"), list.entity("h1"), "mine keeps the list as it is: no new version")
        XCTAssertEqual(list.edit(id: "h1", label: nil, properties: [("phone", "9")]), .updated)
        XCTAssertEqual(list.conflicts.map(\.property), ["label"], "the edit settles the property it sets")
    }

    /// A folded create replayed while a supervisor's edit of its entity waits for it: the edit
    /// is taken on top of the folded version, which never goes back down (it was set to the
    /// folded version over the edit's).
    func testAFoldedCreateKeepsTheVersionOfAnEditTakenAtIt() {
        var list = EntityList()
        XCTAssertEqual(list.take(EntityEdit(list: "households", entityID: "h1", properties: ["phone": "9"], change: 5)), .missing)
        let create = EntityAction(kind: .create, list: "households", id: "h1", label: "Ana",
                                  properties: [.init(name: "phone", value: "2")], member: [])
        XCTAssertEqual(list.replayCreated(create, survey: "uuid:a", version: 3), .created)
        XCTAssertEqual(list.entity("h1")?.properties["phone"], "9")
        XCTAssertEqual(list.entity("h1")?.version, 4)
        var plain = EntityList()
        plain.replayCreated(create, survey: "uuid:a", version: 3)
        XCTAssertEqual(plain.entity("h1")?.version, 3)
    }

    func testARetiredEntityStaysOutOfTheList() throws {
        var list = registered()
        XCTAssertEqual(list.retire(id: "h1"), .updated)
        XCTAssertEqual(list.csv, "name,label,__version,phone,village\r\n")
        XCTAssertEqual(list.apply(EntityAction(kind: .create, list: "households", id: "h1", label: "Ana", properties: [], member: [])), .retired)
        XCTAssertEqual(list.apply(update(phone: "2")), .retired)
        XCTAssertEqual(list.entities, [])
    }

    /// The base a visit carries is survey's note, not an answer: a CSV export has no column
    /// for it, an ODK submission no element (it refused the survey before), JSON keeps it.
    func testExportsLeaveTheBaseOutButJSON() throws {
        let form = try XCTUnwrap(XLSForm.read(try XLSFormSheets.markdown(EntityForms.visit)).form)
        let questionnaire = Questionnaire(form: form)
        var values: [String: PropertyValue] = ["hh": .string("h1"), "phone": .string("2"), "village": .string("Lima"),
                                               Record.instanceIDKey: .string("uuid:v")]
        EntityBase(version: 1, label: "Ana", properties: ["phone": "1"]).stamping(&values, list: "households", id: "h1")
        let record = Record(values)
        let xml = try ODKSubmission.xml(record, questionnaire: questionnaire)
        XCTAssertFalse(xml.contains("entityBase"), xml)
        XCTAssertEqual(questionnaire.csvTable([record]).header, ["hh", "phone", "village", "instanceID", "formID", "formVersion"])
        XCTAssertNil(questionnaire.csvUncarried([record]))
        XCTAssertEqual(EntityBase.stamped(in: record.values, list: "households", id: "h1")?.properties, ["phone": "1"])
        XCTAssertTrue(questionnaire.answersNotAsked(in: record, clock: clock).isEmpty, "not an answer the form does not ask")
    }

    // MARK: The folder

    private func document(_ store: DocumentStore, _ name: String, form: String) throws {
        _ = try store.create(named: name)
        let file = store.folder.appendingPathComponent("\(name)-form.md")
        try Data(form.utf8).write(to: file)
        try store.attachForm(from: file.path, to: name, at: Date())
        try FileManager.default.removeItem(at: file)
    }

    /// A visit stored as the app stores it: stamped, saved, applied.
    private func visit(_ store: DocumentStore, _ id: String, phone: String) throws {
        let questionnaire = try store.questionnaire(for: "Visit")
        var document = try store.load("Visit").get()
        document.records.append(Record(["hh": .string("h1"), "phone": .string(phone), "village": .string("Lima"),
                                        Record.instanceIDKey: .string(id)]))
        _ = store.stampEntityBases(&document.records, changed: [(document.records.count - 1, nil)], questionnaire: questionnaire, clock: clock)
        _ = try store.save(document, as: "Visit")
        try store.recordEntities(changing: [(nil, document.records[document.records.count - 1])], questionnaire: questionnaire, clock: clock)
    }

    private func laptop(_ name: String) throws -> DocumentStore {
        let store = DocumentStore(folder: folder.appendingPathComponent(name))
        try FileManager.default.createDirectory(at: store.folder, withIntermediateDirectories: true)
        try document(store, "Visit", form: EntityForms.visit)
        try store.applyEntityActions([EntityAction(kind: .create, list: "households", id: "h1", label: "Ana",
                                                   properties: [.init(name: "phone", value: "1"), .init(name: "village", value: "Lima")],
                                                   member: [])])
        return store
    }

    func testAUSBMergeBringsAVisitsConflictAndARebuildFindsItAgain() throws {
        let a = try laptop("a"), b = try laptop("b")
        try visit(a, "uuid:va", phone: "2")
        try visit(b, "uuid:vb", phone: "3")
        _ = try a.mergeOtherCopies([b.url(for: "Visit")], into: "Visit", write: true, questionnaire: try a.questionnaire(for: "Visit"), at: Date())
        let expected = [EntityConflict(id: "h1", property: "phone", base: "1", mine: "2", theirs: "3", survey: "uuid:vb")]
        XCTAssertEqual(try a.entityList("households").conflicts, expected)

        // The list lost, and what is kept beside it. An update never creates, so the household
        // comes back from its registration's document, then the visits, each from its base.
        try document(a, "Register", form: EntityForms.registration)
        let registration = Record(["head": .string("Ana"), "phone": .string("1"), Record.instanceIDKey: .string("uuid:r1")])
        _ = try a.save(SurveyDocument(records: [registration]), as: "Register")
        let id = try XCTUnwrap(FormInstance(try a.questionnaire(for: "Register"), record: registration, clock: clock).entityActions().first?.id)
        var visits = try a.load("Visit").get()
        for i in visits.records.indices { visits.records[i]["hh"] = .string(id) }
        // Their bases name h1; re-stamped as the registration's id, as laptops would have.
        for i in visits.records.indices {
            let base = try XCTUnwrap(EntityBase.stamped(in: visits.records[i].values, list: "households", id: "h1"))
            visits.records[i][EntityBase.recordKey] = nil
            var values = visits.records[i].values
            base.stamping(&values, list: "households", id: id)
            visits.records[i][EntityBase.recordKey] = values[EntityBase.recordKey]
        }
        _ = try a.save(visits, as: "Visit")
        try FileManager.default.removeItem(at: a.entityListURL("households"))
        try FileManager.default.removeItem(at: a.entityCompanionURL("households"))
        let changes = try a.rebuildEntityLists(clock: clock)
        XCTAssertEqual(changes.map(\.list), ["households"])
        let rebuilt = try a.entityList("households")
        XCTAssertEqual(rebuilt.entities.map(\.id), [id])
        XCTAssertEqual(rebuilt.entity(id)?.properties["phone"], "2", "the first visit in the document's order")
        XCTAssertEqual(rebuilt.conflicts.map { [$0.base, $0.mine, $0.theirs] }, [["1", "2", "3"]])

        // A file of that name that is no entity list is never written over.
        let plain = "name,label\r\nv1,Vila\r\n"
        try Data(plain.utf8).write(to: a.entityListURL("households"))
        XCTAssertThrowsError(try a.rebuildEntityLists(clock: clock))
        XCTAssertEqual(try String(contentsOf: a.entityListURL("households"), encoding: .utf8), plain)
    }
}
