import FoundationEssentials
import Dispatch
import SurveyValues
import SurveyForms
import SurveyStorage
import SurveyUI

/// Finishes the `/` search a key left unfinished (`SurveyListState.searchToFinish`) off the
/// main thread, so no key waits for a query that a million surveys match; wakes the loop
/// when done. Only the latest job counts: a newer query (or none) stops the one under way
/// at its next slice, and a result for an older one is never handed over.
final class SearchFinisher: @unchecked Sendable {
    private let lock = Lock()
    /// The latest job asked for (nil: none wanted), and whether it has been started.
    private var latest: SearchJob?
    private var started = false
    private var running = false
    private var finished: FinishedSearch?
    private let done = DispatchGroup()
    private let wake: WakeSignal

    init(wake: WakeSignal = WakeSignal()) {
        self.wake = wake
    }

    private static func same(_ a: SearchJob?, _ b: SearchJob?) -> Bool {
        guard let a else { return b == nil }
        return a.isSame(as: b)
    }

    /// What the list waits for now (called after every action): a new job is started after
    /// the one under way stops; nil stops it.
    func want(_ job: SearchJob?) {
        let startsThread = lock.withLock { () -> Bool in
            guard !Self.same(job, latest) else { return false }
            latest = job
            started = false
            finished = nil
            guard job != nil, !running else { return false }
            running = true
            return true
        }
        guard startsThread else { return }
        done.enter()
        DispatchQueue.global(qos: .userInitiated).async { [self] in
            while let job = lock.withLock({ () -> SearchJob? in
                guard let next = latest, !started else {
                    running = false
                    return nil
                }
                started = true
                return next
            }) {
                // One processor is left to the keyboard, as for the index's build.
                let result = job.run(processors: max(1, ProcessInfo.processInfo.activeProcessorCount - 1)) {
                    lock.withLock { !Self.same(job, latest) }
                }
                if let result, lock.withLock({ () -> Bool in
                    guard Self.same(job, latest) else { return false }
                    finished = result
                    return true
                }) {
                    wake.signal()
                }
            }
            done.leave()
        }
    }

    /// Running, or finished and not yet taken.
    var isBusy: Bool { lock.withLock { running || finished != nil } }

    /// The finished search, once.
    func take() -> FinishedSearch? {
        lock.withLock {
            defer { finished = nil }
            return finished
        }
    }

    /// Waits for the search under way (tests, through `Program.finishBackgroundWork`).
    func waitUntilIdle() { done.wait() }
}
