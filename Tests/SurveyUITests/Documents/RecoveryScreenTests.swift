import Foundation
import XCTest
import SurveyModel
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
        s.send(.outcome(.recoveriesFound([kept])))
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
        s.pressUnbound(.control("n"), .function(3), .character("x"))
        guard case .recovery = s.popover else { return XCTFail("still offered") }
        XCTAssertEqual(s.press(.character("d")).count, 1)
        XCTAssertNil(s.popover)
    }
}
