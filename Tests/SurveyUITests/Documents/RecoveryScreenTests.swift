import Foundation
import XCTest
import SurveyValues
import SurveyForms
import SurveyStorage
@testable import SurveyUI

/// The recovered-surveys offer at the sizes the app supports: it names the document, the
/// count, when they were kept and who they are, and its keys are in the bar.
final class RecoveryScreenTests: XCTestCase {
    private func offering(width: Int, height: Int) -> AppState {
        var s = makeState(sampleRecords(), width: width, height: height)
        s.environment.timeZone = .utc
        let kept = Recovery(documentName: "Market Street", fileName: ".Market Street.recovered-20261118-101500-42.plist",
                            date: Date(timeIntervalSince1970: 1_795_000_000),
                            records: [record("Ada", "Lovelace"), record("Grace", "Hopper"), record("Alan", "Turing"),
                                      record("Edsger", "Dijkstra")])
        s.send(.outcome(.recovery(.found([kept]))))
        return s
    }

    func testOffer80x24() {
        let s = offering(width: 80, height: 24)
        XCTAssertEqual(s.inputMode, .offeringRecovery)
        assertScreen(Screen.render(s), named: "recovery-80x24")
    }

    func testOffer40x12() {
        assertScreen(Screen.render(offering(width: 40, height: 12)), named: "recovery-40x12")
    }

    func testOnlyItsKeysAndQuitWork() {
        var s = offering(width: 80, height: 24)
        for key: Key in [.control("n"), .function(3), .character("x"), .enter] {
            XCTAssertEqual(s.press(key), [], "\(key) does nothing but say so")
        }
        guard case .recovery = s.popover else { return XCTFail("still offered") }
        XCTAssertEqual(s.status?.kind, .error)
        s.environment.clock = .pinned(Date().addingTimeInterval(2))
        XCTAssertEqual(s.press(.character("d")).count, 1)
        XCTAssertNil(s.popover)
    }

    /// Surveys whose document vanished are put back with m, as new surveys (Enter is no
    /// longer a choice: it may be the end of an answer typed as the offer appeared).
    func testMPutsThemBackIntoAnotherDocumentOnDisk() {
        var s = offering(width: 80, height: 24)
        s.environment.clock = .pinned(Date().addingTimeInterval(2))
        guard case .recovery(let kept) = s.popover else { return XCTFail("offered") }
        XCTAssertEqual(s.press(.character("m")), [.restoreRecovery(kept, theirsWhereBothChanged: false)])
    }
}
