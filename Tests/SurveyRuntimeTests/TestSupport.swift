import Foundation
import XCTest
@_exported import SurveyUITestSupport
import SurveyValues
import SurveyForms
import SurveyStorage
@testable import SurveyUI
@testable import SurveyRuntime

extension Program {
    /// Hands keys to the program as the terminal would. A key that does nothing in the current
    /// state fails the test: say so with `pressUnbound`.
    mutating func press(_ keys: Key..., file: StaticString = #filePath, line: UInt = #line) {
        for key in keys where !handle(.key(key)) {
            XCTFail("\(key) has no binding in \(state.modeDescription)", file: file, line: line)
        }
    }

    /// Types text a character at a time; each must do something, as with `press`.
    mutating func type(_ text: String, file: StaticString = #filePath, line: UInt = #line) {
        for c in text { press(.character(c), file: file, line: line) }
    }

    /// Hands over keys that must do nothing here: each fails the test if the program took it,
    /// or if the state changed.
    mutating func pressUnbound(_ keys: Key..., file: StaticString = #filePath, line: UInt = #line) {
        for key in keys {
            let before = state
            if handle(.key(key)) {
                XCTFail("\(key) is bound in \(before.modeDescription)", file: file, line: line)
            } else if state != before {
                XCTFail("\(key) changed the state without a binding", file: file, line: line)
            }
        }
    }

    /// `pressUnbound` for each character of the text.
    mutating func typeUnbound(_ text: String, file: StaticString = #filePath, line: UInt = #line) {
        for c in text { pressUnbound(.character(c), file: file, line: line) }
    }
}

/// A clock a test moves on by hand, for a program's core to read (`Program(clock:)`): the
/// kept surveys' offer takes no choice within a second of appearing.
final class TestClock: @unchecked Sendable {
    private let lock = NSLock()
    private var moment = Date(timeIntervalSince1970: 1_800_000_000)

    var wallClock: WallClock { WallClock { [self] in lock.withLock { moment } } }

    func advance(_ seconds: TimeInterval) { lock.withLock { moment += seconds } }
}
