import Foundation
import XCTest
import SurveyTestSupport
import SurveyDatabase
import SurveyValues
import SurveyForms
@testable import SurveyStorage

/// Issue 32: entity lists travel with the surveys that made them. A household registered on
/// Ana's laptop is in Bruno's `households.csv` after his sync, with the same id, label and
/// properties; a correction of the registration arrives as the entity's next version.
final class EntitySyncTests: DatabaseTestCase {
    static let registration = EntityForms.registration

    private func laptopWithForm() throws -> DocumentStore {
        let store = try laptop()
        let file = store.folder.appendingPathComponent("register.md")
        try Data(Self.registration.utf8).write(to: file)
        try store.attachForm(from: file.path, to: "Field", at: Date())
        try FileManager.default.removeItem(at: file)
        return store
    }

    private func register(_ store: DocumentStore, _ record: Record) throws {
        var document = try store.load("Field").get()
        if let i = document.records.firstIndex(where: { $0.instanceID == record.instanceID }) {
            document.records[i] = record
        } else {
            document.records.append(record)
        }
        _ = try store.save(document, as: "Field")
        try store.recordEntities(of: [record], questionnaire: try store.questionnaire(for: "Field"),
                                 clock: Questionnaire.Clock(now: Date(timeIntervalSince1970: 1_780_000_000)))
    }

    func testAHouseholdRegisteredOnOneLaptopIsInTheOthersListAfterItsSync() throws {
        try initialize()
        let ana = try loginRole("ana", in: "survey_enumerator")
        let a = try laptopWithForm()
        let b = try laptopWithForm()
        let household = survey("uuid:h1", ["head": .string("Ana Lima"), "phone": .string("555 0101")])
        try register(a, household)
        let made = try XCTUnwrap(try a.entityList("households").entities.first)

        try sync(a, as: ana, device: "A")
        try sync(b, as: ana, device: "B")
        let arrived = try XCTUnwrap(try b.entityList("households").entities.first, "B's list has the household")
        XCTAssertEqual(arrived, made, "the same id, label, version and properties")

        // The registration corrected on A: B's entity takes the new phone, one version more.
        var fixed = household
        fixed["phone"] = .string("555 0199")
        try register(a, fixed)
        try sync(a, as: ana, device: "A")
        try sync(b, as: ana, device: "B")
        let now = try XCTUnwrap(try b.entityList("households").entity(made.id))
        XCTAssertEqual(now.properties["phone"], "555 0199")
        XCTAssertEqual(now.version, 2)
    }
}
