import Foundation
import XCTest
@testable import SurveyDatabase
import SurveyValues
@testable import SurveyForms
import SurveyStorage
import SurveyTestSupport

/// Issue 31 through the team's PostgreSQL: a survey a form with a `public_key` finished is one
/// opaque version. Its encrypted submission travels as data (the store's tagged data value)
/// and reaches the other laptop byte for byte, opening with the private key there as here; an
/// interview finished on one laptop while the other went on keying its draft is a conflict
/// of the whole survey, never merged answer by answer; and no table of the server holds an
/// answer keyed at the finish, in clear.
final class EncryptedSyncTests: DatabaseTestCase {
    static let key = try! RSAPrivateKey.generate()
    /// Keyed only at the finish: never on the server or a laptop in clear.
    static let secret = "Wanjiru Kamau-Ñ"
    static let other = "Otieno Barasa-Ñ"

    private func questionnaire(_ formFile: URL) throws -> Questionnaire {
        let result = XLSForm.read(try XLSFormSheets.read(fileAt: formFile.path))
        return Questionnaire(form: try XCTUnwrap(result.form))
    }

    private func serverText() throws -> String {
        let tables = try server.psql("SELECT table_name FROM information_schema.tables WHERE table_schema = 'survey' ORDER BY 1",
                                     database: database)
        var all = ""
        for table in tables.split(separator: "\n").map({ $0.trimmingCharacters(in: .whitespaces) }) where !table.isEmpty {
            all += try server.psql("SELECT t::text FROM survey.\(table) t", database: database) + "\n"
        }
        return all
    }

    func testAnEncryptedSurveySyncsWholeAndNeverInClear() throws {
        try initialize()
        let ana = try loginRole("ana", in: "survey_enumerator")
        let formFile = FileManager.default.temporaryDirectory.appendingPathComponent("sealed-\(UUID().uuidString).csv")
        try Data("""
            survey,,,
            ,type,name,label
            ,text,respondent,Respondent
            ,text,notes,Notes
            settings,,,
            ,form_id,version,public_key
            ,household,2,\(try Self.key.publicKey.base64)

            """.utf8).write(to: formFile)
        defer { try? FileManager.default.removeItem(at: formFile) }
        let q = try questionnaire(formFile)
        let device = DeviceMetadata(deviceID: "A", username: "ana")
        let publicKey = try Self.key.publicKey

        // h1 an interview kept incomplete (a draft, in clear as ODK keeps one); h2 finished.
        var draft = q.keptIncomplete(Record(["notes": .string("call back")]), started: nil, device: device, clock: .wall)
        draft[Record.instanceIDKey] = .string("uuid:h1")
        var done = q.finished(Record(["respondent": .string(Self.other)]), device: device, clock: .wall)
        done[Record.instanceIDKey] = .string("uuid:h2")
        let sealed = try SealedSurvey.seal(done, questionnaire: q, key: publicKey)
        XCTAssertNil(SetAsideRow.problem(withAnswers: sealed.values), "a laptop keeps it")

        let a = try laptop([draft, sealed])
        let b = try laptop()
        for store in [a, b] { _ = try store.attachForm(from: formFile.path, to: "Field", at: Date()) }
        // The incomplete interview stays on A until finished: the server keeps every version, and
        // ODK sends only finished forms.
        let first = try sync(a, as: ana, device: "A")
        XCTAssertEqual(first.pushed, 1)
        XCTAssertEqual(first.draftsKept, 1)
        XCTAssertEqual(try sync(b, as: ana, device: "B").pulled, 1)
        let arrived = try XCTUnwrap(try b.load("Field").get().records.first { $0.instanceID == "uuid:h2" })
        XCTAssertTrue(arrived.isSealed)
        XCTAssertEqual(arrived, sealed, "byte for byte: the submission as data, the readable keys as they were")
        let opened = try SealedSurvey.open(arrived, with: Self.key)
        XCTAssertTrue(opened.isValidated)
        XCTAssertTrue(String(decoding: opened.submissionXML, as: UTF8.self).contains(Self.other))

        // A finishes h1 (sealed at once, as its save seals it): only then does it leave A.
        try edit(a, "uuid:h1") { record in
            var answered = record
            answered["respondent"] = .string(Self.secret)
            let finished = q.finished(answered, device: device, clock: .wall)
            record = try! SealedSurvey.seal(finished, questionnaire: q, key: publicKey)
        }
        XCTAssertEqual(try sync(a, as: ana, device: "A").pushed, 1)
        XCTAssertEqual(try sync(b, as: ana, device: "B").pulled, 1)
        let h1 = try XCTUnwrap(try b.load("Field").get().records.first { $0.instanceID == "uuid:h1" })
        XCTAssertTrue(h1.isSealed)
        XCTAssertTrue(String(decoding: try SealedSurvey.open(h1, with: Self.key).submissionXML, as: UTF8.self).contains(Self.secret))

        // Both laptops replace the encrypted h2 (each sealed anew): one conflict of the whole
        // survey, never answer by answer.
        func resealed(_ respondent: String) -> Record {
            var answered = Record(["respondent": .string(respondent)])
            answered[Record.instanceIDKey] = .string("uuid:h2")
            return try! SealedSurvey.seal(q.finished(answered, device: device, clock: .wall), questionnaire: q, key: publicKey)
        }
        let fromA = resealed(Self.secret + " A"), fromB = resealed(Self.other + " B")
        try edit(a, "uuid:h2") { $0 = fromA }
        try edit(b, "uuid:h2") { $0 = fromB }
        XCTAssertEqual(try sync(a, as: ana, device: "A").pushed, 1)
        let heard = try sync(b, as: ana, device: "B")
        XCTAssertEqual(heard.conflicts, ["uuid:h2"], "changed on both sides: one conflict")
        let conflict = try XCTUnwrap(try b.syncLedger(for: "Field").conflicts["uuid:h2"])
        XCTAssertEqual(conflict.fields.map(\.path), [SyncFieldPath()], "of the whole survey, not answer by answer")
        XCTAssertEqual(try b.load("Field").get().records.first { $0.instanceID == "uuid:h2" }, fromB, "B's stays until chosen")

        // Theirs chosen: A's encrypted survey, whole.
        try b.resolveConflict(id: "uuid:h2", path: nil, by: .theirs, in: "Field", at: Date())
        let taken = try XCTUnwrap(try b.load("Field").get().records.first { $0.instanceID == "uuid:h2" })
        XCTAssertEqual(taken, fromA)
        XCTAssertEqual(try sync(b, as: ana, device: "B").pushed, 0, "theirs taken: nothing to send")

        // Nothing keyed at a finish is in clear on the server or in either laptop's files.
        let tables = try serverText()
        XCTAssertTrue(tables.contains("uuid:h2"), "the scan reads the rows")
        for answer in [Self.secret, Self.other] {
            XCTAssertFalse(tables.contains(answer), "\(answer) on the server")
            for store in [a, b] { XCTAssertEqual(try filesHolding(answer, in: store.folder), [], answer) }
        }
    }
}
