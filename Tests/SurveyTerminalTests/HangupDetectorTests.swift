#if canImport(Glibc)
import Glibc
#endif
import XCTest
@testable import SurveyTerminal

final class HangupDetectorTests: XCTestCase {
    func testTimeoutsAreNotAHangUp() {
        var detector = HangupDetector()
        for _ in 0..<1000 {
            detector.noteFailure(errno: 0, inputHungUp: false, elapsed: .milliseconds(500), timeout: .milliseconds(500))
        }
        XCTAssertFalse(detector.isHungUp)
    }

    func testDeadDeviceErrnoOrPollHangUpIsImmediate() {
        for error in [EIO, ENXIO, EBADF] {
            var detector = HangupDetector()
            detector.noteFailure(errno: error, inputHungUp: false, elapsed: .zero, timeout: .milliseconds(500))
            XCTAssertTrue(detector.isHungUp, "errno \(error)")
        }
        var detector = HangupDetector()
        detector.noteFailure(errno: 0, inputHungUp: true, elapsed: .zero, timeout: .milliseconds(500))
        XCTAssertTrue(detector.isHungUp)
    }

    func testRepeatedPrematureFailuresAreAHangUp() {
        var detector = HangupDetector()
        for _ in 1..<HangupDetector.prematureFailureLimit {
            detector.noteFailure(errno: 0, inputHungUp: false, elapsed: .zero, timeout: .milliseconds(500))
        }
        XCTAssertFalse(detector.isHungUp)
        detector.noteFailure(errno: 0, inputHungUp: false, elapsed: .zero, timeout: .milliseconds(500))
        XCTAssertTrue(detector.isHungUp)
    }

    func testSuccessOrSignalResetsTheCount() {
        var detector = HangupDetector()
        for i in 0..<(3 * HangupDetector.prematureFailureLimit) {
            detector.noteFailure(errno: 0, inputHungUp: false, elapsed: .zero, timeout: .milliseconds(500))
            if i % 10 == 0 { detector.noteSuccess() }
            if i % 10 == 5 {
                detector.noteFailure(errno: EINTR, inputHungUp: false, elapsed: .zero, timeout: .milliseconds(500))
            }
        }
        XCTAssertFalse(detector.isHungUp)
    }

    func testZeroTimeoutPollsNeverCountButEndlessWaitsDo() {
        var polling = HangupDetector()
        for _ in 0..<1000 {
            polling.noteFailure(errno: 0, inputHungUp: false, elapsed: .zero, timeout: .zero)
        }
        XCTAssertFalse(polling.isHungUp)
        var waiting = HangupDetector()
        for _ in 0..<HangupDetector.prematureFailureLimit {
            waiting.noteFailure(errno: 0, inputHungUp: false, elapsed: .zero, timeout: nil)
        }
        XCTAssertTrue(waiting.isHungUp)
    }
}
