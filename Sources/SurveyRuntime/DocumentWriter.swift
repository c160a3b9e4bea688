import FoundationEssentials
import Dispatch
import SurveyValues
import SurveyForms
import SurveyStorage
import SurveyUI

/// Rewrites a large document's `.plist` off the main thread, once its changes are safe in the
/// journal: the keyboard never waits for a whole-file save. Coalesced (only the newest
/// snapshot waiting is written), and careful as the main thread's save is: before writing it
/// checks the file is still the one it last wrote or read, and if another program changed it,
/// it writes nothing and hands the new version back to be merged.
final class DocumentWriter: @unchecked Sendable {
    enum Outcome: Sendable {
        /// `snapshot` is in the file now, whose fingerprint is `fingerprint`.
        case written(snapshot: SurveyDocument, fingerprint: FileFingerprint?, replaced: Int)
        /// The file is not the one last known: nothing was written.
        case changedElsewhere(Result<SurveyDocument, DocumentError>, fingerprint: FileFingerprint?)
        case failed(String)
    }

    private struct Job {
        let store: DocumentStore
        let name: String
        let snapshot: SurveyDocument
    }

    private let lock = Lock()
    private let idle = Condition()
    private var pending: Job?
    private var known: FileFingerprint?
    private var busy = false
    private var paused = false
    /// Where it runs (the `.writing` lane) and leaves its outcomes (`Mail.written`).
    private let jobs: BackgroundJobs

    init(jobs: BackgroundJobs) {
        self.jobs = jobs
    }

    /// The file as the main thread last saw it (after opening, or merging a change).
    func setKnown(_ fingerprint: FileFingerprint?) {
        lock.lock(); known = fingerprint; lock.unlock()
    }

    func schedule(_ snapshot: SurveyDocument, of name: String, in store: DocumentStore) {
        lock.lock()
        pending = Job(store: store, name: name, snapshot: snapshot)
        let start = !busy && !paused
        if start { busy = true }
        lock.unlock()
        if start { jobs.start(.writing) { _ in self.run() } }
    }

    /// Work scheduled or running.
    var isBusy: Bool {
        lock.lock(); defer { lock.unlock() }
        return busy || pending != nil
    }

    /// Blocks until nothing is scheduled or running (quitting, switching documents, tests).
    func waitUntilIdle() {
        idle.lock()
        while isBusy && !isPaused { idle.wait(untilSecondsSince1970: Date().timeIntervalSince1970 + 0.05) }
        idle.unlock()
    }

    /// Tests: hold scheduled writes (a crash before the `.plist` caught up), then let them go.
    func pause() { lock.lock(); paused = true; lock.unlock() }
    func resume() {
        lock.lock()
        paused = false
        let start = !busy && pending != nil
        if start { busy = true }
        lock.unlock()
        if start { jobs.start(.writing) { _ in self.run() } }
    }

    private var isPaused: Bool {
        lock.lock(); defer { lock.unlock() }
        return paused
    }

    private func run() {
        while true {
            lock.lock()
            guard !paused, let job = pending else {
                busy = false
                lock.unlock()
                idle.lock(); idle.broadcast(); idle.unlock()
                return
            }
            pending = nil
            let expected = known
            lock.unlock()
            do {
                // The document streams into a temporary file first; the check and the rename
                // are then one step under the folder's lock: no other program's save can land
                // between them.
                // A file we never knew (or that was gone) is never created from here.
                let outcome: DocumentStore.GuardedSave = expected == nil ? .changed(job.store.fingerprint(of: job.name))
                    : try job.store.save(job.snapshot, as: job.name, ifStill: expected)
                switch outcome {
                case .saved(let written, let replaced):
                    lock.lock()
                    known = written
                    lock.unlock()
                    jobs.mailbox.post(.written(.written(snapshot: job.snapshot, fingerprint: written, replaced: replaced)))
                case .changed(let current):
                    let theirs = job.store.load(job.name)
                    lock.lock()
                    pending = nil   // stale too: the main thread merges and schedules again
                    lock.unlock()
                    jobs.mailbox.post(.written(.changedElsewhere(theirs, fingerprint: current)))
                }
            } catch {
                jobs.mailbox.post(.written(.failed(Program.describe(error))))
            }
        }
    }
}
