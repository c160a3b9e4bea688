import Foundation
import XCTest
@testable import SurveyDatabase
import SurveyValues
@testable import SurveyForms
import SurveyStorage
import SurveyTestSupport

/// Issue 30 through the team's PostgreSQL: an incomplete survey (a household with a member
/// half keyed) pushed from one laptop reaches the enumerator's other laptop marked
/// incomplete, is finished there while the first laptop goes on keying it, and comes back
/// complete with both laptops' answers; the server's row says which it is at each step.
final class IncompleteSyncTests: DatabaseTestCase {
    static let form = """
    survey,,,,,,
    ,type,name,label,required,constraint,calculation
    ,text,village,Village,yes,,
    ,begin repeat,member,Household member,,,
    ,text,name,Name,yes,,
    ,integer,age,Age,yes,. >= 0 and . <= 120,
    ,end repeat,,,,,
    ,calculate,people,People,,,count(${member})
    ,text,notes,Notes,,,
    settings,,,,,,
    ,form_id,version,,,,
    ,household,1,,,,

    """

    private func household(_ store: DocumentStore) throws -> Record {
        try XCTUnwrap(try store.load("Field").get().records.first { $0.instanceID == "uuid:h1" })
    }

    private func markOnServer() throws -> String {
        try server.psql("SELECT coalesce(answers ->> 'incomplete', 'none') FROM survey.surveys WHERE instance_id = 'uuid:h1'",
                        database: database)
    }

    func testAnIncompleteSurveyPushedFromOneLaptopIsFinishedOnAnother() throws {
        try initialize()
        let ana = try loginRole("ana", in: "survey_enumerator")
        let formFile = FileManager.default.temporaryDirectory.appendingPathComponent("household-\(UUID().uuidString).csv")
        try Data(Self.form.utf8).write(to: formFile)
        defer { try? FileManager.default.removeItem(at: formFile) }
        let result = XLSForm.read(try XLSFormSheets.read(fileAt: formFile.path))
        let q = Questionnaire(form: try XCTUnwrap(result.form))

        var kept = q.keptIncomplete(Record(["village": .string("Mathare"), "member": .array([.dictionary(["name": .string("Ana")])])]),
                                    started: Date(timeIntervalSince1970: 1_796_032_800), device: DeviceMetadata(deviceID: "A", username: "ana"),
                                    clock: .wall)
        kept[Record.instanceIDKey] = .string("uuid:h1")
        let a = try laptop([kept])
        let b = try laptop()
        for store in [a, b] { _ = try store.attachForm(from: formFile.path, to: "Field", at: Date()) }

        XCTAssertEqual(try sync(a, as: ana, device: "A").pushed, 1)
        XCTAssertEqual(try markOnServer(), "true", "the server's row carries the mark")
        XCTAssertEqual(try sync(b, as: ana, device: "B").pulled, 1)
        let arrived = try household(b)
        XCTAssertTrue(arrived.isIncomplete, "marked incomplete on the other laptop")
        XCTAssertEqual(arrived.instances(of: "member"), [["name": .string("Ana")]])

        // A keys a note into it (still incomplete); B finishes it from the paper.
        try edit(a, "uuid:h1") { $0["notes"] = .string("call back on Tuesday") }
        try edit(b, "uuid:h1") { record in
            var answered = record
            answered["member"] = .array([.dictionary(["name": .string("Ana"), "age": .integer(29)])])
            record = q.finished(answered, device: DeviceMetadata(deviceID: "B", username: "ana"), clock: .wall)
            XCTAssertEqual(q.problems(in: record, clock: .wall).count, 0)
        }
        try sync(a, as: ana, device: "A")
        let finished = try sync(b, as: ana, device: "B")
        XCTAssertEqual(finished.conflicts, [], "the mark merges as any answer")
        XCTAssertEqual(try markOnServer(), "none", "complete on the server")
        try sync(a, as: ana, device: "A")
        for store in [a, b] {
            let done = try household(store)
            XCTAssertFalse(done.isIncomplete)
            XCTAssertEqual(done.instances(of: "member")[0]["age"], .integer(29))
            XCTAssertEqual(done["notes"], .string("call back on Tuesday"))
        }
    }
}
