import Foundation
import XCTest
import SurveyValues
import SurveyForms
import SurveyStorage
import SurveyUITestSupport
@testable import SurveyUI

/// The save-as box appears unasked when the document's file vanishes, perhaps over someone
/// keying heads-down: for a second after it appears, and after each key it refused, typing
/// goes neither into the name nor (Enter) saves under it; Esc is always taken (issue 28:
/// no prompt swallows a key).
final class SaveAsHoldTests: XCTestCase {
    private let start = Date(timeIntervalSince1970: 1_800_000_000)

    private func vanished() -> AppState {
        var s = makeState()
        s.environment.clock = .pinned(start)
        _ = s.send(.outcome(.documents(.vanished(unreadable: nil, suggestion: "Field 2"))))
        XCTAssertEqual(s.popover, .saveAs(TextInput(text: "Field 2")))
        return s
    }

    private func wait(_ s: inout AppState, _ seconds: TimeInterval) {
        s.environment.clock = .pinned(s.environment.clock.now.addingTimeInterval(seconds))
    }

    func testKeysTypedAsTheBoxAppearsAreNotTakenThenTheNameIs() {
        var s = vanished()
        XCTAssertEqual(s.type("34"), [])
        XCTAssertEqual(s.press(.enter), [])
        XCTAssertEqual(s.popover, .saveAs(TextInput(text: "Field 2")), "nothing typed into the name")
        XCTAssertTrue(s.statusText?.hasPrefix("Not typed: ") == true, s.statusText ?? "")
        wait(&s, 0.6)
        XCTAssertEqual(s.type("5"), [], "still within a second of the last refused key")
        wait(&s, 1.5)
        _ = s.type("b")
        XCTAssertEqual(s.press(.enter), [.saveDocumentAs("Field 2b")])
    }

    func testEscIsTakenAtOnceAndASaveAsAskedForIsNotHeld() {
        var s = vanished()
        _ = s.press(.escape)
        XCTAssertNil(s.popover)
        // Asked for (leaving a document only in memory): no hold.
        var asked = makeState()
        asked.environment.clock = .pinned(start)
        asked.popovers.present(.saveAs(TextInput(text: "")))
        _ = asked.type("x")
        XCTAssertEqual(asked.popover, .saveAs(TextInput(text: "x", original: "")))
    }
}
