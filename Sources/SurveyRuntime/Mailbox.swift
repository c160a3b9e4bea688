import FoundationEssentials
import SurveyValues
import SurveyForms
import SurveyStorage
import SurveyUI

/// One message from background work to the loop (Bubble Tea's `Msg`): what a job found,
/// posted to the one `Mailbox` and taken in on the main thread by
/// `Program.collectBackgroundWork`, which turns each into actions for `update`.
enum Mail: Sendable {
    /// More of a large document is read (its records wait in the `DocumentStream`, taken
    /// at most ten times a second).
    case documentPart
    /// The background writer's result for the `.plist` behind the journal.
    case written(DocumentWriter.Outcome)
    /// A large document counted for the documents list.
    /// nil when it could not be counted (gone or unreadable since): nothing is kept of it.
    case documentCounted(name: String, fingerprint: FileFingerprint, summary: DocumentSummary?)
    /// The `/` index of the list, built.
    case searchIndexBuilt(SearchIndex)
    /// The rest of a `/` search a key left unfinished.
    case searchFinished(FinishedSearch)
    /// A line of F9's progress, or its end.
    case sync(SyncOutcome)

    /// Which kind of message: what tests ask of `Program.lastMail`. In the order one look
    /// takes them in (`Program.collectBackgroundWork`): the writer's results before a sync's,
    /// so the document a sync reads back is the one the writer left.
    enum Kind: Int, Sendable, Equatable, Comparable {
        case documentPart, searchIndexBuilt, searchFinished, written, sync, documentCounted

        static func < (a: Kind, b: Kind) -> Bool { a.rawValue < b.rawValue }
    }

    var kind: Kind {
        switch self {
        case .documentPart: .documentPart
        case .written: .written
        case .documentCounted: .documentCounted
        case .searchIndexBuilt: .searchIndexBuilt
        case .searchFinished: .searchFinished
        case .sync: .sync
        }
    }
}

/// The one place background work leaves its results, and the one way it wakes the loop:
/// each post appends under a lock and writes a byte to `wake`, the descriptor the terminal
/// polls beside its input. Rejected: an inbox per worker, each with its own `take()` the
/// loop had to remember to call (five of them, and each new worker a sixth).
final class Mailbox: @unchecked Sendable {
    let wake: WakeSignal
    private let lock = Lock()
    private var waiting: [Mail] = []

    init(wake: WakeSignal = WakeSignal()) {
        self.wake = wake
    }

    /// Leaves `mail` for the loop and wakes it.
    func post(_ mail: Mail) {
        lock.withLock { waiting.append(mail) }
        wake.signal()
    }

    /// Leaves `mail` without waking the loop: for a caller that checks, under its own lock,
    /// that the mail is still wanted, then signals `wake` (`BackgroundJobs`).
    func append(_ mail: Mail) {
        lock.withLock { waiting.append(mail) }
    }

    /// Everything posted since the last call, in order. The descriptor is emptied first, so
    /// a message posted after this wakes the loop again.
    func take() -> [Mail] {
        wake.drain()
        return lock.withLock {
            defer { waiting = [] }
            return waiting
        }
    }

    /// Only the messages of `kind`, in order; the rest stay (and keep the loop woken). For
    /// waiting on one kind of work mid-effect: settling the writer's files before a rename
    /// takes in what the writer did, not a search's result.
    func take(_ kind: Mail.Kind) -> [Mail] {
        let (taken, left) = lock.withLock { () -> ([Mail], Bool) in
            let taken = waiting.filter { $0.kind == kind }
            waiting.removeAll { $0.kind == kind }
            return (taken, !waiting.isEmpty)
        }
        if left { wake.signal() }
        return taken
    }

    /// Drops the waiting messages of `kind` (stale: a newer job replaced theirs).
    func discard(_ kind: Mail.Kind) {
        lock.withLock { waiting.removeAll { $0.kind == kind } }
    }

    /// Mail is waiting to be taken.
    var hasMail: Bool { lock.withLock { !waiting.isEmpty } }
}
