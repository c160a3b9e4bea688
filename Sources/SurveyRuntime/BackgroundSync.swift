import FoundationEssentials
import Dispatch
import SurveyValues
import SurveyForms
import SurveyStorage
import SurveyUI

/// Runs one sync of a document off the main thread (F9): the keyboard stays live while it
/// talks to the database, and what it reports (progress lines, then the end) waits here
/// until `Program.collectBackgroundWork` takes it, woken through the loop's descriptor.
/// One sync at a time; the UI core refuses a second F9 while one runs.
final class BackgroundSync: @unchecked Sendable {
    private let lock = Lock()
    private var reports: [Outcome] = []
    private var running = false
    private let done = DispatchGroup()
    private let wake: WakeSignal

    init(wake: WakeSignal) {
        self.wake = wake
    }

    var isBusy: Bool { lock.withLock { running } }

    /// Runs `job` in the background; `job` reports through the closure it is given, and its
    /// last report is the outcome it returns.
    func start(_ job: @escaping @Sendable (_ report: @escaping @Sendable (Outcome) -> Void) -> Outcome) {
        lock.withLock { running = true }
        done.enter()
        DispatchQueue.global(qos: .userInitiated).async { [self] in
            let last = job { outcome in
                self.lock.withLock { self.reports.append(outcome) }
                self.wake.signal()
            }
            lock.withLock {
                reports.append(last)
                running = false
            }
            wake.signal()
            done.leave()
        }
    }

    /// What came in since the last call, in order.
    func take() -> [Outcome] {
        lock.withLock {
            defer { reports = [] }
            return reports
        }
    }

    /// Tests.
    func waitUntilIdle() { done.wait() }
}
