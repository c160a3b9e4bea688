import Foundation
import SurveyModel

/// Builds the `/` index of a large list off the main thread: at a million surveys it takes
/// about a third of a second on two processors, and typing on the `/` line must never wait
/// for it. `Program` starts it when `/` is pressed and hands the index to `update` when it
/// is done; edits made meanwhile are caught up by `SearchIndex.updated(for:)`.
final class SearchIndexBuilder: @unchecked Sendable {
    private let lock = NSLock()
    private var building = false
    private var built: SearchIndex?
    private let done = DispatchGroup()

    /// Starts building for `records`, unless a build is already under way.
    func start(_ records: RecordList) {
        guard lock.withLock({ () -> Bool in
            defer { building = true }
            return !building
        }) else { return }
        done.enter()
        DispatchQueue.global(qos: .userInitiated).async { [self] in
            let index = SearchIndex(records: records)
            lock.withLock {
                built = index
                building = false
            }
            done.leave()
        }
    }

    /// Building, or built and not yet taken.
    var isBusy: Bool { lock.withLock { building || built != nil } }

    /// The index, once (nil while building or when none was asked for).
    func take() -> SearchIndex? {
        lock.withLock {
            defer { built = nil }
            return built
        }
    }

    /// Waits for a build under way (tests, and quitting).
    func waitUntilIdle() { done.wait() }
}
