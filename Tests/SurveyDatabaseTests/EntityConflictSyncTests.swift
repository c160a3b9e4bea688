import Foundation
import XCTest
import SurveyTestSupport
import SurveyDatabase
import SurveyValues
import SurveyForms
@testable import SurveyStorage

/// Issue 32, "Team": an update of an entity carries the version it was made from (ODK's
/// `baseVersion`, with its values), so visits made on two laptops from the same version merge
/// property by property after a sync: a property one visit left as it found it keeps the
/// other's change, and the same property changed on both is a conflict, kept with both values
/// (this laptop's in the list) until it is resolved. Two laptops, the throwaway PostgreSQL.
final class EntityConflictSyncTests: DatabaseTestCase {
    private let clock = Questionnaire.Clock(now: Date(timeIntervalSince1970: 1_780_000_000))

    /// A laptop keying visits in "Field", its list holding household h1 as registered.
    private func laptopWithHousehold() throws -> DocumentStore {
        let store = try laptop()
        let file = store.folder.appendingPathComponent("visit.md")
        try Data(EntityForms.visit.utf8).write(to: file)
        try store.attachForm(from: file.path, to: "Field", at: Date())
        try FileManager.default.removeItem(at: file)
        try store.applyEntityActions([EntityAction(kind: .create, list: "households", id: "h1", label: "Ana Lima",
                                                   properties: [.init(name: "phone", value: "555 0101"),
                                                                .init(name: "village", value: "Lima")], member: [])])
        return store
    }

    /// A visit stored as the app stores it: stamped with the entity it starts from, saved,
    /// then applied to the list.
    private func visit(_ store: DocumentStore, _ id: String, phone: String, village: String) throws {
        let questionnaire = try store.questionnaire(for: "Field")
        var document = try store.load("Field").get()
        document.records.append(survey(id, ["hh": .string("h1"), "phone": .string(phone), "village": .string(village)]))
        let place = document.records.count - 1
        XCTAssertEqual(store.stampEntityBases(&document.records, changed: [(place, nil)], questionnaire: questionnaire, clock: clock),
                       [place], "an update is stamped with its base")
        _ = try store.save(document, as: "Field")
        try store.recordEntities(changing: [(nil, document.records[place])], questionnaire: questionnaire, clock: clock)
    }

    private func household(_ store: DocumentStore) throws -> EntityList.Entity {
        try XCTUnwrap(try store.entityList("households").entity("h1"))
    }

    func testVisitsChangingDifferentPropertiesOnTwoLaptopsBothLand() throws {
        try initialize()
        let ana = try loginRole("ana", in: "survey_enumerator")
        let bruno = try loginRole("bruno", in: "survey_enumerator")
        let a = try laptopWithHousehold(), b = try laptopWithHousehold()
        // Ana's visit changes the phone; Bruno's, from the same version, the village.
        try visit(a, "uuid:va", phone: "555 0199", village: "Lima")
        try visit(b, "uuid:vb", phone: "555 0101", village: "Cusco")
        try sync(a, as: ana, device: "A")
        try sync(b, as: bruno, device: "B")
        try sync(a, as: ana, device: "A")
        for (name, store) in [("A", a), ("B", b)] {
            let entity = try household(store)
            XCTAssertEqual(entity.properties, ["phone": "555 0199", "village": "Cusco"],
                           "\(name): each visit's change lands; the property it left as it found it is not put back")
            XCTAssertEqual(try store.entityList("households").conflicts, [], name)
        }
    }

    func testTheSamePropertyChangedOnTwoLaptopsIsAConflictKeptWithBothValues() throws {
        try initialize()
        let ana = try loginRole("ana", in: "survey_enumerator")
        let bruno = try loginRole("bruno", in: "survey_enumerator")
        let a = try laptopWithHousehold(), b = try laptopWithHousehold()
        try visit(a, "uuid:va", phone: "555 0199", village: "Lima")
        try visit(b, "uuid:vb", phone: "555 0200", village: "Lima")
        try sync(a, as: ana, device: "A")
        XCTAssertTrue(try sync(b, as: bruno, device: "B").message.hasSuffix("households.csv: 1 entity conflict (survey entities --list households)"))
        XCTAssertTrue(try sync(a, as: ana, device: "A").message.contains("households.csv: 1 entity conflict"))

        // Each laptop keeps its own value in the list, and the conflict beside it.
        XCTAssertEqual(try household(a).properties["phone"], "555 0199")
        XCTAssertEqual(try a.entityList("households").conflicts,
                       [EntityConflict(id: "h1", property: "phone", base: "555 0101", mine: "555 0199", theirs: "555 0200", survey: "uuid:vb")])
        XCTAssertEqual(try household(b).properties["phone"], "555 0200")
        XCTAssertEqual(try b.entityList("households").conflicts,
                       [EntityConflict(id: "h1", property: "phone", base: "555 0101", mine: "555 0200", theirs: "555 0199", survey: "uuid:va")])
        // The ODK-shaped CSV holds no trace of it: its columns are name, label, __version, the properties.
        let csv = try String(contentsOf: a.entityListURL("households"), encoding: .utf8)
        XCTAssertEqual(csv.split(separator: "\r\n").first, "name,label,__version,phone,village")
        XCTAssertFalse(csv.contains("555 0200"))

        // Resolved on A by taking Bruno's: one version more, no conflict left.
        let version = try household(a).version
        XCTAssertEqual(try a.resolveEntityConflict(list: "households", id: "h1", property: "phone", by: .theirs), 1)
        XCTAssertEqual(try household(a).properties["phone"], "555 0200")
        XCTAssertEqual(try household(a).version, version + 1)
        XCTAssertEqual(try a.entityList("households").conflicts, [])

        // A later visit made on top of either side settles B's conflict too.
        try visit(a, "uuid:vc", phone: "555 0300", village: "Lima")
        try sync(a, as: ana, device: "A")
        try sync(b, as: bruno, device: "B")
        XCTAssertEqual(try household(b).properties["phone"], "555 0300")
        XCTAssertEqual(try b.entityList("households").conflicts, [])
    }

    /// A supervisor's edit reaches a laptop whether its sync has work to do (a visit to send)
    /// or finds nothing to do without reading the document; it settles the conflict on the
    /// property it sets, on each.
    func testASupervisorsEditReachesEveryLaptopAndSettlesTheConflict() throws {
        try initialize()
        let ana = try loginRole("ana", in: "survey_enumerator")
        let bruno = try loginRole("bruno", in: "survey_enumerator")
        let sofia = try loginRole("sofia", in: "survey_supervisor")
        let a = try laptopWithHousehold(), b = try laptopWithHousehold()
        try visit(a, "uuid:va", phone: "555 0199", village: "Lima")
        try visit(b, "uuid:vb", phone: "555 0200", village: "Lima")
        try sync(a, as: ana, device: "A")
        try sync(b, as: bruno, device: "B")
        try sync(a, as: ana, device: "A")
        try sync(b, as: bruno, device: "B")     // nothing to do: its next sync is the quick one
        XCTAssertEqual(try a.entityList("households").conflicts.count, 1)
        XCTAssertEqual(try b.entityList("households").conflicts.count, 1)

        _ = try SurveyServer(target(as: sofia)).editEntity(EntityEdit(list: "households", entityID: "h1", properties: ["phone": "555 0300"]))
        // B: no survey came, nothing to send, so the sync that finds nothing to do takes it.
        try sync(b, as: bruno, device: "B")
        XCTAssertEqual(try household(b).properties["phone"], "555 0300")
        XCTAssertEqual(try b.entityList("households").conflicts, [], "B: the supervisor's edit settles it")
        // A: a visit changing only the village to send (its phone as A holds it: the conflict stays), then a whole sync.
        try visit(a, "uuid:va2", phone: "555 0199", village: "Cusco")
        XCTAssertEqual(try a.entityList("households").conflicts.count, 1)
        try sync(a, as: ana, device: "A")
        XCTAssertEqual(try household(a).properties, ["phone": "555 0300", "village": "Cusco"])
        XCTAssertEqual(try a.entityList("households").conflicts, [], "A: the supervisor's edit settles it")
        try sync(b, as: bruno, device: "B")
        XCTAssertEqual(try household(b).properties, ["phone": "555 0300", "village": "Cusco"], "A's later visit lands, its phone left as the edit set it")
        // Taken once: a sync again changes nothing.
        let version = try household(b).version
        try sync(b, as: bruno, device: "B")
        XCTAssertEqual(try household(b).version, version)
    }
    /// A supervisor's edit E (phone y), then a visit made from y (phone z): a laptop taking
    /// both in one sync ends as one that synced between, z, the server's order of changes
    /// (edits and surveys both numbered by `change_number()`) being the order applied.
    func testAnEditAndALaterVisitTakenInOneSyncLandInTheServersOrder() throws {
        try initialize()
        let ana = try loginRole("ana", in: "survey_enumerator")
        let bruno = try loginRole("bruno", in: "survey_enumerator")
        let sofia = try loginRole("sofia", in: "survey_supervisor")
        let a = try laptopWithHousehold(), b = try laptopWithHousehold()
        try sync(a, as: ana, device: "A")
        try sync(b, as: bruno, device: "B")
        _ = try SurveyServer(target(as: sofia)).editEntity(EntityEdit(list: "households", entityID: "h1", properties: ["phone": "555 0300"]))
        try sync(b, as: bruno, device: "B")
        XCTAssertEqual(try household(b).properties["phone"], "555 0300")
        try visit(b, "uuid:vb", phone: "555 0400", village: "Lima")
        try sync(b, as: bruno, device: "B")
        try sync(a, as: ana, device: "A")
        XCTAssertEqual(try household(a).properties["phone"], "555 0400", "A took the edit, then the visit made after it")
        XCTAssertEqual(try a.entityList("households").conflicts, [])
        XCTAssertEqual(try household(a).properties, try household(b).properties)
    }

    /// A list that cannot be read is said; the supervisor's edits of every other list are taken.
    func testOneUnreadableListDoesNotStopTheEditsOfTheOthers() throws {
        try initialize()
        let ana = try loginRole("ana", in: "survey_enumerator")
        let sofia = try loginRole("sofia", in: "survey_supervisor")
        let a = try laptopWithHousehold()
        try sync(a, as: ana, device: "A")
        try Data("name,label,__version\r\nx1,X,1\r\n".utf8).write(to: a.entityListURL("aaa"))
        try Data("not json".utf8).write(to: a.entityCompanionURL("aaa"))
        let supervisor = try SurveyServer(target(as: sofia))
        _ = try supervisor.editEntity(EntityEdit(list: "aaa", entityID: "x1", properties: ["phone": "1"]))
        _ = try supervisor.editEntity(EntityEdit(list: "households", entityID: "h1", properties: ["phone": "555 0300"]))
        let message = try sync(a, as: ana, device: "A").message
        XCTAssertEqual(try household(a).properties["phone"], "555 0300", message)
        XCTAssertTrue(message.contains(".aaa.entities.json cannot be read"), message)
    }

    /// A sync with nothing to do asks each list's edit cursor: the companion file, which keeps
    /// every conflict and edit, is not read while it is the file marked (it was parsed whole
    /// at every such sync).
    func testASyncWithNothingToDoReadsNoCompanion() throws {
        try initialize()
        let ana = try loginRole("ana", in: "survey_enumerator")
        let bruno = try loginRole("bruno", in: "survey_enumerator")
        let a = try laptopWithHousehold(), b = try laptopWithHousehold()
        try visit(a, "uuid:va", phone: "555 0199", village: "Lima")
        try visit(b, "uuid:vb", phone: "555 0200", village: "Lima")
        try sync(a, as: ana, device: "A")
        try sync(b, as: bruno, device: "B")
        try sync(a, as: ana, device: "A")
        XCTAssertEqual(try a.entityList("households").conflicts.count, 1)
        try sync(a, as: ana, device: "A")
        final class Opens: @unchecked Sendable {
            let lock = NSLock()
            var paths: [String] = []
        }
        let opens = Opens()
        let counting = DocumentStore(folder: a.folder, fileSystem: .failing { operation, path in
            if operation == .open, let path { opens.lock.lock(); opens.paths.append(path); opens.lock.unlock() }
            return nil
        })
        let result = try DocumentSync.run(store: counting, document: "Field", target: target(as: ana), device: "A", at: { Date() })
        XCTAssertEqual(result.pulled, 0)
        XCTAssertNil(result.entityListTrouble)
        opens.lock.lock(); defer { opens.lock.unlock() }
        XCTAssertEqual(opens.paths.filter { $0 == a.entityCompanionURL("households").path }, [], "\(opens.paths)")
    }
}
