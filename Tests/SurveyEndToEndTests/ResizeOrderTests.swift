import Foundation
import XCTest

/// A resize is delivered before the keys typed after it, so keys typed in the same instant
/// as a shrink below the minimum fall under "too small: keys ignored".
final class ResizeOrderTests: EndToEndTestCase {
    func testKeysTypedAsTheTerminalShrinksBelowTheMinimumAreIgnored() throws {
        let app = try launch(width: 120, height: 40)
        app.waitFor("New survey")
        try app.type("Ann")
        app.waitForField("First name", "Ann")
        for round in 1...3 {
            // tmux holds back a pane resize that follows another within 250 ms, and the keys
            // would then truly come first; wait that out so the shrink is sent before them.
            Thread.sleep(forTimeInterval: 0.3)
            try app.resize(width: 20, height: 8, thenType: "x\(round)")
            app.waitFor("Terminal too small", "20x8, need 24x9")
            try app.resize(width: 120, height: 40)
            let back = try XCTUnwrap(app.waitFor("First name"))
            XCTAssertEqual(ScreenText.formValue("First name", in: back), "Ann",
                           "round \(round): nothing typed with the shrink landed")
        }
        try app.type("e")
        app.waitForField("First name", "Anne")
    }
}
