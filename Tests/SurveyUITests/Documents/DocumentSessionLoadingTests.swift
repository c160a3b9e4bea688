import XCTest
import SurveyValues
import SurveyForms
@testable import SurveyUI

/// A large document read in parts, as the session keeps it (issue 29: the session's own, with
/// no `AppState` in sight): how far the reading is, and the place the session memory named,
/// found once its record is read, unless the user moved meanwhile.
final class DocumentSessionLoadingTests: XCTestCase {
    private func survey(_ id: String) -> Record { Record([Record.instanceIDKey: .string(id)]) }

    /// The part the app adds (through `AppState.document`, so the list follows): where it starts.
    private func take(_ more: [Record], percent: Int, into session: inout DocumentSession) -> Int? {
        guard session.loaded(percent: percent), !more.isEmpty else { return nil }
        let start = session.document?.records.count ?? 0
        session.document?.records.append(contentsOf: more)
        return start
    }

    private func session(awaiting place: SessionPlace?, shownMeanwhile: AppState.Shown?) -> DocumentSession {
        var session = DocumentSession(questionnaire: .standard, documentName: "Big")
        session.document = SurveyDocument(records: [survey("uuid:0"), survey("uuid:1")])
        session.beginLoading(percent: 10, awaiting: place, shownMeanwhile: shownMeanwhile)
        return session
    }

    func testPartsAreAddedAfterThoseReadAndTheAwaitedPlaceIsFoundOnce() {
        var session = session(awaiting: SessionPlace(recordID: "uuid:3"), shownMeanwhile: .record(0))
        XCTAssertNil(take([], percent: 20, into: &session), "nothing added")
        XCTAssertEqual(session.loading?.percent, 20)
        XCTAssertEqual(take([survey("uuid:2")], percent: 40, into: &session), 2)
        XCTAssertNil(session.findAwaitedPlace(from: 2, shown: .record(0)), "not read yet")
        XCTAssertEqual(take([survey("uuid:3"), survey("uuid:4")], percent: 70, into: &session), 3)
        XCTAssertEqual(session.document?.records.count, 5)
        XCTAssertEqual(session.findAwaitedPlace(from: 3, shown: .record(0)), 3)
        XCTAssertNil(session.loading?.place, "found: no longer waited for")
        XCTAssertNil(session.findAwaitedPlace(from: 3, shown: .record(0)))
    }

    func testAUserWhoMovedIsLeftWhereTheyAreAndAPlaceWithoutAnIdIsFoundByPosition() {
        var moved = session(awaiting: SessionPlace(recordID: "uuid:2"), shownMeanwhile: .record(0))
        XCTAssertEqual(take([survey("uuid:2")], percent: 50, into: &moved), 2)
        XCTAssertNil(moved.findAwaitedPlace(from: 2, shown: .record(1)), "the user moved to another survey")
        XCTAssertNotNil(moved.loading?.place)

        var byPosition = session(awaiting: SessionPlace(record: 3), shownMeanwhile: .draft)
        XCTAssertEqual(take([survey("uuid:2")], percent: 50, into: &byPosition), 2)
        XCTAssertNil(byPosition.findAwaitedPlace(from: 2, shown: .draft), "the fourth is not read yet")
        XCTAssertEqual(take([survey("uuid:3")], percent: 60, into: &byPosition), 3)
        XCTAssertEqual(byPosition.findAwaitedPlace(from: 3, shown: .draft), 3)

        var done = session(awaiting: nil, shownMeanwhile: nil)
        done.endLoading()
        XCTAssertFalse(done.loaded(percent: 100), "a document read whole takes no parts")
        XCTAssertNil(done.loading)
    }

    func testAPlaceIsShownByIdOrByPosition() {
        let records = RecordList([survey("uuid:0"), survey("uuid:1")])
        XCTAssertTrue(SessionPlace(recordID: "uuid:1").isShown(.record(1), in: records))
        XCTAssertFalse(SessionPlace(recordID: "uuid:1").isShown(.record(0), in: records))
        XCTAssertFalse(SessionPlace(recordID: "uuid:1").isShown(.draft, in: records))
        XCTAssertTrue(SessionPlace(record: 1).isShown(.draft, in: records), "by position: there once read")
        XCTAssertFalse(SessionPlace(record: 2).isShown(.record(0), in: records))
    }
}
