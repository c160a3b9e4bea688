import Foundation
import XCTest
@testable import SurveyValues
@testable import SurveyForms
@testable import SurveyStorage

/// `${last-saved#name}`: the answer of the last survey saved in the document, as ODK Collect
/// reads the most recent saved instance of the form; empty in a new document.
final class XLSFormLastSavedTests: XCTestCase {
    static let form = """
        survey,,,,,,
        ,type,name,label,calculation,relevant,default
        ,text,village,Village,,,${last-saved#village}
        ,integer,visits,Visits,,,
        ,calculate,next,,${last-saved#visits} + 1,,
        ,text,why,Why more?,,${visits} > ${last-saved#visits},
        ,begin repeat,member,Member,,,
        ,text,name,Name,,,
        ,calculate,before,,${last-saved#name},,
        ,end repeat,,,,,
        """

    static let saved = Record(["village": .string("Riverside"), "visits": .integer(4),
                               "member": .array([.dictionary(["name": .string("Ana")]), .dictionary(["name": .string("Bo")])])])

    func testTheLastSavedSurveysAnswersAreRead() throws {
        let q = try FormTestSupport.questionnaire(Self.form).withLastSaved(SurveyDocument(records: [Record(), Self.saved]).lastSaved)
        let village = try XCTUnwrap(q.fields.firstIndex { $0.key == "village" })
        XCTAssertEqual(q.defaultText(village, clock: .wall), "Riverside")
        XCTAssertEqual(q.filledIn("Last time ${last-saved#village}, now ${village}", from: Record(["village": .string("Hilltop")])),
                       "Last time Riverside, now Hilltop")
        var record = Record(["village": .string("Hilltop"), "visits": .integer(5), "member": .array([.dictionary([:])])])
        let why = try XCTUnwrap(q.fields.firstIndex { $0.key == "why" })
        XCTAssertTrue(q.relevance(in: record, clock: .wall)[why])
        record["visits"] = .integer(3)
        XCTAssertFalse(q.relevance(in: record, clock: .wall)[why])
        let done = q.completed(record, clock: .wall)
        XCTAssertEqual(done["next"], .string("5"))
        // In a repeat, pyxform reads it from the top of the last saved instance: its first member.
        guard case .array(let members)? = done["member"], case .dictionary(let first)? = members.first else {
            return XCTFail("the member is kept")
        }
        XCTAssertEqual(first["before"], .string("Ana"))
    }

    /// A new document has no survey saved: the reference is empty, as in Collect.
    func testANewDocumentHasNoLastSavedSurvey() throws {
        XCTAssertNil(SurveyDocument(records: []).lastSaved)
        let q = try FormTestSupport.questionnaire(Self.form).withLastSaved(nil)
        let village = try XCTUnwrap(q.fields.firstIndex { $0.key == "village" })
        XCTAssertNil(q.defaultText(village, clock: .wall))
        XCTAssertEqual(q.completed(Record(["visits": .integer(1)]), clock: .wall)["next"], nil, "empty + 1 is NaN: no answer")
    }

    /// It names a question of the form (checked as `${name}` is), reads no answer of this
    /// survey (so `${last-saved#foo} + 1` on foo is no cycle), and pyxform's suite opens.
    func testItIsCheckedAndNeverACycle() throws {
        let unknown = XLSForm.read(try XLSFormSheets.csv("survey,,,\n,type,name,label,relevant\n,text,a,A,${last-saved#b} = ''\n"))
        XCTAssertEqual(unknown.errors.map(\.description), ["survey row 3, relevant: unknown field ${last-saved#b}"])
        let folder = PyxformSuiteTests.folder
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasPrefix("test_last_saved") }
        XCTAssertEqual(names.count, 12)
        for name in names {
            XCTAssertEqual(XLSForm.read(try XLSFormSheets.read(fileAt: folder.appendingPathComponent(name).path)).errors, [], name)
        }
    }
}
