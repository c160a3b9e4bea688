import XCTest
import SurveyDatabase
import SurveyValues
import SurveyForms
import SurveyStorage

/// Push and pull between laptops through one server: answers whole, revisions, the cursor,
/// the optimistic check that refuses a stale edit.
final class PushPullTests: DatabaseTestCase {
    func testRoundTripKeepsNestedAnswersAndUnknownKeysWhole() throws {
        try initialize()
        let ana = try enumerator("ana")
        let sent = survey("uuid:1")
        XCTAssertEqual(try ana.push([sent]), [PushResult(instanceID: "uuid:1", outcome: .accepted(revision: 1))])
        let bruno = try enumerator("bruno")
        let rows = try pullAll(bruno)
        XCTAssertEqual(rows.count, 1)
        let row = try XCTUnwrap(rows.first)
        XCTAssertEqual(row.answers, sent.answers)
        XCTAssertEqual(row.instanceID, "uuid:1")
        XCTAssertEqual(row.dataset, "household")
        XCTAssertEqual(row.formID, "household")
        XCTAssertEqual(row.formVersion, "2024-05")
        XCTAssertEqual(row.device, "laptop-1")
        XCTAssertEqual(row.owner, try ana.role())
        XCTAssertEqual(row.revision, 1)
        XCTAssertNil(row.baseRevision)
        XCTAssertFalse(row.deleted)
        XCTAssertNil(row.review)
        // Stored as JSONB the data manager can query.
        XCTAssertEqual(try server.psql("SELECT answers #>> '{members,1,member_name}' FROM survey.surveys", database: database),
                       "Ciro \"the elder\" \\ é 漢字")
    }

    func testTheIDIsTheRowsKeyNotAnAnswer() throws {
        try initialize()
        let ana = try enumerator("ana")
        var row = survey("uuid:id")
        row = OutgoingRow(instanceID: "uuid:id", dataset: "household", answers: row.answers.merging(["instanceID": .string("uuid:id")]) { $1 })
        _ = try ana.push([row])
        XCTAssertNil(try pullAll(ana).first?.answers["instanceID"])
        XCTAssertEqual(try server.psql("SELECT answers ? 'instanceID' FROM survey.surveys", database: database), "f")
    }

    func testPullAsksOnlyForWhatChangedAfterItsCursorInBatches() throws {
        try initialize()
        let ana = try enumerator("ana")
        _ = try ana.push((1...5).map { survey("uuid:\($0)") })
        _ = try ana.push([survey("other", dataset: "market")])
        let first = try ana.pull(dataset: "household", since: 0, limit: 3)
        XCTAssertEqual(first.rows.map(\.instanceID), ["uuid:1", "uuid:2", "uuid:3"])
        let second = try ana.pull(dataset: "household", since: first.cursor, limit: 3)
        XCTAssertEqual(second.rows.map(\.instanceID), ["uuid:4", "uuid:5"])
        let none = try ana.pull(dataset: "household", since: second.cursor)
        XCTAssertEqual(none.rows, [])
        XCTAssertEqual(none.cursor, second.cursor)
        // An edit moves the survey past the cursor again.
        var edit = survey("uuid:2", name: "Ana Maria")
        edit.baseRevision = 1
        XCTAssertEqual(try ana.push([edit]).map(\.outcome), [.accepted(revision: 2)])
        let changed = try ana.pull(dataset: "household", since: second.cursor)
        XCTAssertEqual(changed.rows.map(\.instanceID), ["uuid:2"])
        XCTAssertEqual(changed.rows.first?.revision, 2)
        XCTAssertEqual(changed.rows.first?.baseRevision, 1)
        XCTAssertEqual(changed.rows.first?.answers["name"], .string("Ana Maria"))
        XCTAssertEqual(try ana.pull(dataset: nil, since: 0).rows.count, 6)
    }

    func testAStaleEditIsRefusedAndNothingIsOverwritten() throws {
        try initialize()
        let ana = try enumerator("ana")
        _ = try ana.push([survey("uuid:1")])
        var laptop1 = survey("uuid:1", name: "first edit")
        laptop1.baseRevision = 1
        var laptop2 = survey("uuid:1", name: "second edit")
        laptop2.baseRevision = 1
        XCTAssertEqual(try ana.push([laptop1]).map(\.outcome), [.accepted(revision: 2)])
        XCTAssertEqual(try ana.push([laptop2]).map(\.outcome), [.stale(current: 2)])
        XCTAssertEqual(try pullAll(ana).first?.answers["name"], .string("first edit"))
        // A new survey whose id someone else already pushed is stale too, not a duplicate.
        var clash = survey("uuid:1", name: "a third, new")
        clash.baseRevision = nil
        XCTAssertEqual(try ana.push([clash]).map(\.outcome), [.stale(current: 2)])
        XCTAssertEqual(try server.psql("SELECT count(*) FROM survey.surveys", database: database), "1")
    }

    func testPushingTheSameNewSurveyTwiceSaysYoursAlready() throws {
        try initialize()
        let ana = try enumerator("ana")
        XCTAssertEqual(try ana.push([survey("uuid:1")]).map(\.outcome), [.accepted(revision: 1)])
        XCTAssertEqual(try ana.push([survey("uuid:1")]).map(\.outcome), [.alreadyThere(revision: 1)])
        var edit = survey("uuid:1", name: "edited")
        edit.baseRevision = 1
        XCTAssertEqual(try ana.push([edit]).map(\.outcome), [.accepted(revision: 2)])
        XCTAssertEqual(try ana.push([edit]).map(\.outcome), [.alreadyThere(revision: 2)])
    }

    /// A new survey whose id the server keeps in another dataset is not "yours already", even
    /// with the very answers sent: it is not among the surveys it was sent with, and says where it is.
    func testANewSurveyWhoseIDIsInAnotherDatasetIsNotTakenForSent() throws {
        try initialize()
        let ana = try enumerator("ana")
        XCTAssertEqual(try ana.push([survey("uuid:1")]).map(\.outcome), [.accepted(revision: 1)])
        var copy = survey("uuid:1", dataset: "visits")
        XCTAssertEqual(try ana.push([copy]).map(\.outcome), [.inOtherDataset("household")])
        copy.answers["name"] = .string("changed")
        XCTAssertEqual(try ana.push([copy]).map(\.outcome), [.inOtherDataset("household")])
        XCTAssertEqual(try server.psql("SELECT dataset FROM survey.surveys", database: database)
                        .trimmingCharacters(in: .whitespacesAndNewlines), "household")
    }

    func testADeleteTravelsAsATombstoneWithItsAnswers() throws {
        try initialize()
        let ana = try enumerator("ana")
        _ = try ana.push([survey("uuid:1")])
        var tombstone = survey("uuid:1")
        tombstone.baseRevision = 1
        tombstone.deleted = true
        XCTAssertEqual(try ana.push([tombstone]).map(\.outcome), [.accepted(revision: 2)])
        let row = try XCTUnwrap(try pullAll(try enumerator("bruno")).first)
        XCTAssertTrue(row.deleted)
        XCTAssertEqual(row.answers, survey("uuid:1").answers)
        XCTAssertEqual(row.revision, 2)
    }

    func testAnEditOfASurveyTheServerNeverHadIsMissing() throws {
        try initialize()
        let ana = try enumerator("ana")
        var edit = survey("uuid:nowhere")
        edit.baseRevision = 3
        XCTAssertEqual(try ana.push([edit]).map(\.outcome), [.missing])
    }

    func testFormsArePublishedBySupervisorsAndPulledByEveryone() throws {
        try initialize()
        let sofia = try supervisor("sofia")
        let form = PublishedForm(formID: "household", version: "2024-05", fileName: "household.xlsx",
                                 file: Data([0, 1, 2, 0xFF, 0x80]), media: ["villages.csv": Data("name\nAlto\n".utf8)])
        XCTAssertTrue(try sofia.publish(form))
        XCTAssertFalse(try sofia.publish(form), "the same version again changes nothing")
        var changed = form
        changed.file = Data([9])
        XCTAssertThrowsError(try sofia.publish(changed))
        let ana = try enumerator("ana")
        XCTAssertThrowsError(try ana.publish(PublishedForm(formID: "x", version: "1", fileName: "x.csv", file: Data()))) { error in
            XCTAssertTrue((error as? DatabaseError)?.isPermissionDenied == true, "\(error)")
        }
        let pulled = try ana.forms(since: 0)
        XCTAssertEqual(pulled.forms.count, 1)
        XCTAssertEqual(pulled.forms.first?.file, form.file)
        XCTAssertEqual(pulled.forms.first?.media, form.media)
        XCTAssertEqual(pulled.forms.first?.publishedBy, try sofia.role())
        XCTAssertEqual(try ana.forms(since: pulled.cursor).forms, [])
    }
}
