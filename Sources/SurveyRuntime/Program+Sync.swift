import FoundationEssentials
import SurveyValues
import SurveyForms
import SurveyStorage
import SurveyUI
import SurveyDatabase

/// The team's database from the app: F9's sync runs in the background (the `.sync` lane of
/// `BackgroundJobs`, one sync at a time: the UI core refuses a second F9 while one runs);
/// reading the ledger for F4 and settling a conflict are quick and run here. Each ends by
/// reading the document back on this thread, where saves happen, so what the app holds and
/// what it last wrote stay one and the same.
extension Program {
    mutating func attemptSync(_ effect: Effect, noting first: inout [Outcome]) throws -> [Outcome] {
        let name = state.documentName
        switch effect {
        case .readSyncSummary:
            // Unsent changes are counted over every survey: not while part of them is read.
            guard stream == nil else { return [] }
            return [.sync(.summaryRead(document: name, try summary(of: name, records: Array(state.records))))]
        case .resolveConflict(let id, let path, let keepMine):
            try requireSettledWrites(name, noting: &first)
            _ = try store.resolveConflict(id: id, path: path, by: keepMine ? .mine : .theirs, in: name, at: state.environment.clock.now)
            let what = path.isWholeSurvey ? "the survey" : path.description
            return first + [.sync(try finished(name, message: keepMine ? "Kept yours for \(what): it goes out at the next sync"
                                                               : "Took theirs for \(what)", isError: false))]
        case .syncDocument:
            try requireSettledWrites(name, noting: &first)
            let store = self.store
            let target = ConnectionString.resolve(option: nil, environment: ProcessInfo.processInfo.environment)
            let device = SyncDevice.current()
            // The app's clock dates what the sync records (the ledger's last sync, when a survey
            // it removes was deleted), as it dates everything else the app writes.
            let clock = state.environment.clock
            let formBefore = Self.formFileStamp(store, name)
            jobs.start(.sync) { job in
                let report: @Sendable (SyncOutcome) -> Void = { job.post(.sync($0)) }
                // A newer form version the sync took (first, before the surveys: so also when
                // the sync failed later) is read here, off the main thread (its list files can
                // be large), and used by the app at once.
                let takenForm = { Self.formFileStamp(store, name) != formBefore ? store.documentForm(for: name) : nil }
                do {
                    let result = try DocumentSync.run(store: store, document: name, target: target, device: device,
                                                      at: { clock.now },
                                                      progress: { line in report(.progress(document: name, line)) })
                    // An unencrypted connection to another host is said with the outcome, as an error.
                    let message = result.warning.map { result.message + "; " + $0 } ?? result.message
                    report(.finished(document: name, message: message,
                                     isError: !result.conflicts.isEmpty || result.warning != nil,
                                     reloaded: nil, summary: nil, form: takenForm()))
                } catch {
                    report(.finished(document: name, message: "Sync of “\(name)” failed: \(DocumentSync.describe(error, target: target))",
                                     isError: true, reloaded: nil, summary: nil, form: takenForm()))
                }
            }
            return first
        default:
            return []
        }
    }

    /// Which file the document's form is now (its path, inode, size and time): a form taken
    /// replaces the file, so the stamp changes.
    private static func formFileStamp(_ store: DocumentStore, _ name: String) -> [String]? {
        guard let url = store.formURL(for: name), let attributes = try? FileManager.default.attributesOfItem(atPath: url.path) else { return nil }
        return [url.path, "\(attributes[.systemFileNumber] ?? "")", "\(attributes[.size] ?? "")", "\(attributes[.modificationDate] ?? "")"]
    }

    /// A sync's report, taken in on the main thread: its end brings the document as it is on
    /// disk now (read here, so the fingerprint the next save checks is of what the app shows).
    mutating func take(syncReport report: SyncOutcome) {
        guard case .finished(let name, let message, let isError, nil, nil, let form) = report, name == state.documentName else {
            send(.outcome(.sync(report)))
            return
        }
        send(.outcome(.sync((try? finished(name, message: message, isError: isError, form: form)) ?? report)))
    }

    /// The document read back after the ledger's commit, with its summary.
    private mutating func finished(_ name: String, message: String, isError: Bool, form: DocumentForm? = nil) throws -> SyncOutcome {
        let reloaded = try store.load(name).get()
        files.known = store.fingerprint(of: name)
        files.persisted = reloaded
        return .finished(document: name, message: message, isError: isError, reloaded: reloaded,
                         summary: try summary(of: name, records: Array(reloaded.records)), form: form)
    }

    /// The ledger beside the surveys the app holds (the document is not read again: at a
    /// hundred thousand surveys that would double opening it).
    private func summary(of name: String, records: [Record]) throws -> SyncSummary? {
        guard FileManager.default.fileExists(atPath: store.syncURL(for: name).path) else { return nil }
        return SyncSummary(SyncState(records: records, ledger: try store.syncLedger(for: name)))
    }

    /// A sync writes the document under the folder lock; the app's own writes (its journal,
    /// the background writer) must be done first. Every commit goes through the journal, so
    /// F9 right after one waits for the `.plist` to catch up (a few milliseconds, a second at
    /// a million surveys) rather than refuse; a rewrite that failed still refuses.
    private mutating func requireSettledWrites(_ name: String, noting first: inout [Outcome]) throws {
        first += settleWrites()
        guard !files.writesPending else {
            throw DocumentError("“\(name)” still has changes being written: sync again in a moment")
        }
    }
}
