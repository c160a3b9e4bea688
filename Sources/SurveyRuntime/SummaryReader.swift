import FoundationEssentials
import Dispatch
import SurveyValues
import SurveyForms
import SurveyStorage
import SurveyUI

/// Counts the records of large documents off the main thread, so opening the documents list
/// (or its idle refresh) never freezes the keyboard while a big file is parsed. Small files
/// are still read at once by `Program`, so the list usually appears complete. Results wait
/// in an inbox; each one wakes the terminal's loop (`WakeSignal`), which collects it. Rejected: reading every file
/// in the background (a flicker of "…" on every F3 for no gain) and threads per file (two
/// cores; one reader at a time keeps memory bounded).
final class SummaryReader: @unchecked Sendable {
    /// Files at least this large are counted in the background.
    static let backgroundThreshold: Int64 = 1 << 20

    private let queue = DispatchQueue(label: "survey.document-summaries", qos: .utility)
    private let lock = Lock()
    private var inFlight: Set<String> = []
    private var finished: [(name: String, fingerprint: FileFingerprint, summary: DocumentSummary)] = []
    /// Written to when a count is done.
    private let wake: WakeSignal

    init(wake: WakeSignal = WakeSignal()) {
        self.wake = wake
    }

    var isBusy: Bool {
        lock.lock(); defer { lock.unlock() }
        return !inFlight.isEmpty || !finished.isEmpty
    }

    /// Queues a count of `name` as it is now (`fingerprint`); a request already queued for
    /// that name is not repeated.
    func request(_ name: String, fingerprint: FileFingerprint, in store: DocumentStore) {
        lock.lock()
        let fresh = inFlight.insert(name).inserted
        lock.unlock()
        guard fresh else { return }
        queue.async { [self] in
            let summary = store.summary(of: name)
            lock.lock()
            inFlight.remove(name)
            if let summary { finished.append((name, fingerprint, summary)) }
            lock.unlock()
            wake.signal()
        }
    }

    /// The summaries finished since the last call.
    func take() -> [(name: String, fingerprint: FileFingerprint, summary: DocumentSummary)] {
        lock.lock(); defer { lock.unlock() }
        let done = finished
        finished = []
        return done
    }

    /// Blocks until every queued count is done (tests, and nothing else).
    func waitUntilIdle() {
        queue.sync {}
    }
}
