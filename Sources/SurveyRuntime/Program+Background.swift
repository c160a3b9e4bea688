import FoundationEssentials
import SurveyValues
import SurveyForms
import SurveyStorage
import SurveyUI

/// The background jobs `Program` starts for effects, each posting its result to the mailbox
/// (`collectBackgroundWork` takes it in): counting large documents for the list, building
/// the `/` index, finishing a search a key left unfinished. F9's sync is in `Program+Sync`,
/// the writer behind the journal in `DocumentWriter`.
extension Program {
    /// Documents at least this large are counted in the background for the documents list,
    /// so opening it (or its idle refresh) never freezes the keyboard while a big file is
    /// parsed; smaller ones are read at once, so the list usually appears complete.
    /// Rejected: reading every file in the background (a flicker of "…" on every F3 for no
    /// gain) and a thread per file (two cores; one reader at a time keeps memory bounded).
    static let backgroundCountThreshold: Int64 = 1 << 20

    /// Counts `name` as it is now (`fingerprint`) in the background; a count already under
    /// way for that name is not repeated.
    mutating func count(_ name: String, fingerprint: FileFingerprint) {
        guard counting.insert(name).inserted else { return }
        let store = self.store
        jobs.start(.counting) { job in
            job.post(.documentCounted(name: name, fingerprint: fingerprint, summary: store.summary(of: name)))
        }
    }

    /// Builds the `/` index of `records` off the main thread: at a million surveys it takes
    /// about a third of a second on two processors, and typing on the `/` line must never
    /// wait for it. Only the latest request's index is handed over (one asked for before
    /// another document was opened is dropped); edits made meanwhile are caught up by
    /// `SearchIndex.updated(for:)`.
    func buildSearchIndex(_ records: RecordList) {
        let ahead = searchAhead
        jobs.start(.searchIndex, replacing: true) { job in
            // One processor is left to the keyboard: on two, a key typed while both built
            // the index waited its turn for the processor.
            let index = SearchIndex(records: records, processors: Self.backgroundProcessors)
            // The first search of every survey, for what is typed by now, is made here too.
            index.searchAhead(for: ahead.text)
            job.post(.searchIndexBuilt(index))
        }
    }

    /// Finishes the `/` search a key left unfinished (`SurveyListState.searchToFinish`), so
    /// no key waits for a query that a million surveys match. A newer query (or none,
    /// `Effect.cancelSearch`) stops this one at its next slice, and its result is never
    /// handed over.
    func finishSearch(_ search: SearchJob) {
        jobs.start(.search, replacing: true) { job in
            if let result = search.run(processors: Self.backgroundProcessors, isCancelled: { job.isCancelled }) {
                job.post(.searchFinished(result))
            }
        }
    }

    /// Processors a background search may use: all but one, left to the keyboard.
    static var backgroundProcessors: Int { max(1, ProcessInfo.processInfo.activeProcessorCount - 1) }
}

/// The text on the `/` line while its index is built, set by `Effect.searchAhead` on the main
/// thread and read once by the build when it is done.
final class SearchAheadText: @unchecked Sendable {
    private let lock = Lock()
    private var value = ""

    var text: String { lock.withLock { value } }
    func set(_ text: String) { lock.withLock { value = text } }
}
