import XCTest
import SurveyValues
@testable import SurveyForms
import SurveyStorage
@testable import SurveyUI

/// A roster that disagrees with its `repeat_count` (issue 27, item 8). Members keyed before
/// the count went down are kept, visibly after the count, deletable by the keyer, and the
/// survey breaks a rule until they are deleted or the count changed: never a file that says
/// `size: 2` with four members silently. A count beyond what survey makes is refused and said,
/// not silently capped.
final class RepeatCountTests: XCTestCase {
    private let csv = """
    survey,,,,
    ,type,name,label,repeat_count
    ,integer,size,Household size,
    ,begin repeat,member,Member,${size}
    ,text,name,Name,
    ,end repeat,,,
    ,text,done,Done,
    """

    private func questionnaire() throws -> Questionnaire {
        let read = XLSForm.read(try XLSFormSheets.csv(csv))
        return Questionnaire(form: try XCTUnwrap(read.form, "\(read.errors)"))
    }

    private func survey(size: Int, names: [String]) -> Record {
        Record(["size": .integer(size), "instanceID": .string("uuid:h"),
                "member": .array(names.map { .dictionary(["name": .string($0)]) })])
    }

    private func state(_ records: [Record]) throws -> AppState {
        var s = AppState(documentName: "Households", loaded: .success(SurveyDocument(records: records)),
                         size: Size(width: 100, height: 40), questionnaire: try questionnaire(), environment: .forTests)
        s.environment.clock = .pinned(Date(timeIntervalSince1970: 1_796_032_800))
        return s
    }

    func testMembersAfterALoweredCountAreAProblemNotASilentDisagreement() throws {
        let q = try questionnaire()
        let problems = q.problems(in: survey(size: 2, names: ["Ana", "Bo", "Cy", "Di"]), clock: .wall).map(\.message)
        XCTAssertEqual(problems, ["member: 4 Member entries where the form counts 2: delete those after 2 (^D) or change the count"])
        XCTAssertEqual(q.problems(in: survey(size: 4, names: ["Ana", "Bo", "Cy", "Di"]), clock: .wall).map(\.message), [])
    }

    func testTheMembersAfterTheCountShowAsSuchAndTheKeyerDeletesThem() throws {
        var s = try state([survey(size: 2, names: ["Ana", "Bo", "Cy", "Di"])])
        s.press(.enter)
        let heading = try XCTUnwrap(s.outline.headingEntry("member"))
        s.form.highlight(.field(heading + 1))
        XCTAssertTrue(s.screenText.contains("1 of 4 (counted 2)"), s.screenText)
        s.press(.control("d"))
        XCTAssertEqual(s.statusText, "The form counts the Member entries from its answers: change that answer instead")
        s.press(.pageDown, .pageDown)
        XCTAssertTrue(s.screenText.contains("3 of 4 (counted 2: ^D deletes it)"), s.screenText)
        s.press(.control("d"))
        XCTAssertEqual(s.inputMode, .confirmingRoster)
        let effects = s.press(.character("y"))
        XCTAssertEqual(effects.last, .saveDocument)
        guard case .keepDeletedMember(let kept) = effects.first else { return XCTFail("\(effects)") }
        XCTAssertEqual(kept.answers, ["name": .string("Cy")], "kept in the deleted surveys' file before the save")
        XCTAssertEqual(kept.roster, "member[3]")
        XCTAssertEqual(kept.survey, "uuid:h")
        XCTAssertEqual(s.records[0].instances(of: "member").map { $0["name"] }, [.string("Ana"), .string("Bo"), .string("Di")])
        // The list marks the survey until it agrees with its count.
        XCTAssertTrue(s.screenText.contains("⚠"), s.screenText)
    }

    func testACountBeyondTheLimitMakesNothingAndIsSaid() throws {
        let q = try questionnaire()
        var hidden: [String: PropertyValue] = [:]
        let settled = q.settled(Record(["size": .integer(1_000_000_000)]), hidden: &hidden, clock: .wall)
        XCTAssertEqual(settled.instances(of: "member").count, 0, "no billion members, nor 10,000 silently")
        XCTAssertEqual(q.problems(in: settled, clock: .wall).map(\.message),
                       ["member: the form's count asks for 1000000000 Member entries; survey keeps at most 10000: correct the count"])
        var s = try state([survey(size: 1_000_000_000, names: ["Ana"])])
        s.press(.enter)
        XCTAssertFalse(s.screenText.contains("of 1000000000"), s.screenText)
        XCTAssertTrue(s.screenText.contains("1 of 1"), s.screenText)
        // A count too large to be a whole number at all is refused the same way.
        XCTAssertTrue(q.problems(in: Record(["size": .real(1e300)]), clock: .wall).contains { $0.message.contains("survey keeps at most 10000") })
    }

    /// [ Add ] refuses a member the count made and nobody answered, as `survey add` and
    /// `survey import` do (issue 27, item 11): what the app stores, the import takes back.
    func testAddRefusesTheEmptyMembersTheCountMade() throws {
        var s = try state([])
        s.press(.control("n"))
        s.type("2"); s.press(.enter)                    // two members, their names optional
        s.press(.escape)
        s.form.highlight(.add)
        XCTAssertEqual(s.press(.enter), [])
        XCTAssertEqual(s.statusText, "Not added: member[1]: holds no answer; the form's repeat_count asks for 2 (and 1 other problem)")
        XCTAssertEqual(s.recordCount, 0)
    }
}
