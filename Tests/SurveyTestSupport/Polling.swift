import Foundation

/// Waiting for something another thread or process does: the condition is asked every
/// `interval` until it holds or `timeout` passes, so a test waits as long as the work takes
/// and never a fixed guess (too short on a loaded machine, too long everywhere else).
/// Returns whether it held; the caller fails the test with its own words when it did not
/// (this module is shared with the benchmarks, so it does not use XCTest).
public enum Polling {
    @discardableResult
    public static func until(timeout: TimeInterval = 10, every interval: TimeInterval = 0.01,
                             _ condition: () throws -> Bool) rethrows -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            if try condition() { return true }
            guard Date() < deadline else { return false }
            Thread.sleep(forTimeInterval: interval)
        }
    }
}
