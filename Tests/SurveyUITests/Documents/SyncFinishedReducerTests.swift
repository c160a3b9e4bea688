import XCTest
import SurveyValues
import SurveyForms
import SurveyUITestSupport
@testable import SurveyUI

/// A sync over, as the session judges the document it wrote (issue 29: the session's own,
/// with no `AppState` in sight): taken in only when some survey differs, byte for byte.
final class SyncFinishedReducerTests: XCTestCase {
    func testTheDocumentWrittenIsTakenOnlyWhenASurveyDiffers() {
        var session = DocumentSession(questionnaire: .standard, documentName: "Farm")
        let records = sampleRecords()
        XCTAssertTrue(session.differs(from: SurveyDocument(records: records)), "nothing open: it differs")
        session.document = SurveyDocument(records: records)
        XCTAssertFalse(session.differs(from: SurveyDocument(records: records)), "the same surveys: nothing to take")
        var changed = records
        changed[1].values["age"] = .integer(99)
        XCTAssertTrue(session.differs(from: SurveyDocument(records: changed)))
        XCTAssertTrue(session.differs(from: SurveyDocument(records: Array(records.dropLast()))), "one fewer")
    }
}
