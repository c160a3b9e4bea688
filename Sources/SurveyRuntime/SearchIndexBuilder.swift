import FoundationEssentials
import Dispatch
import SurveyValues
import SurveyForms
import SurveyStorage
import SurveyUI

/// Builds the `/` index of a large list off the main thread: at a million surveys it takes
/// about a third of a second on two processors, and typing on the `/` line must never wait
/// for it. `Program` starts it when `/` is pressed and hands the index to `update` when it
/// is done; edits made meanwhile are caught up by `SearchIndex.updated(for:)`.
///
/// Only the latest request's index is handed over: one asked for before another document was
/// opened is dropped when it is done, and the latest request is built next.
final class SearchIndexBuilder: @unchecked Sendable {
    private let lock = Lock()
    /// The records of the latest request not yet started.
    private var wanted: RecordList?
    private var generation = 0
    private var building = false
    private var built: SearchIndex?
    /// What the `/` line holds now (`Program` sets it while a build is under way).
    private var query = ""
    private let done = DispatchGroup()
    /// Written to when an index is ready to be taken.
    private let wake: WakeSignal

    init(wake: WakeSignal = WakeSignal()) {
        self.wake = wake
    }

    /// Builds for `records`, after the build under way if there is one.
    func start(_ records: RecordList) {
        let idle = lock.withLock { () -> Bool in
            generation += 1
            wanted = records
            built = nil
            defer { building = true }
            return !building
        }
        guard idle else { return }
        done.enter()
        DispatchQueue.global(qos: .userInitiated).async { [self] in
            while let (records, asked) = lock.withLock({ () -> (RecordList, Int)? in
                guard let next = wanted else {
                    building = false
                    return nil
                }
                wanted = nil
                return (next, generation)
            }) {
                // One processor is left to the keyboard: on two, a key typed while both
                // built the index waited its turn for the processor.
                let index = SearchIndex(records: records, processors: max(1, ProcessInfo.processInfo.activeProcessorCount - 1))
                // The first search of every survey, for what is typed by now, is made here too.
                index.searchAhead(for: lock.withLock { query })
                if lock.withLock({ () -> Bool in
                    guard asked == generation else { return false }
                    built = index
                    return true
                }) {
                    wake.signal()
                }
            }
            done.leave()
        }
    }

    /// The text on the `/` line, for the build under way to search ahead for.
    func setQuery(_ text: String) {
        lock.withLock { query = text }
    }

    /// Building, or built and not yet taken.
    var isBusy: Bool { lock.withLock { building || built != nil } }

    /// The index of the latest request, once (nil while building or when none was asked for).
    func take() -> SearchIndex? {
        lock.withLock {
            defer { built = nil }
            return built
        }
    }

    /// Waits for the builds under way (tests, through `Program.finishBackgroundWork`).
    func waitUntilIdle() { done.wait() }
}
