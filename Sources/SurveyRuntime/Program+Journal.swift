import FoundationEssentials
import SurveyValues
import SurveyForms
import SurveyStorage
import SurveyUI

/// A document's commits: each change is appended to `.NAME.journal` and synced (durable in
/// about half a millisecond), the `.plist` is rewritten in the background by `DocumentWriter`,
/// and the journal is emptied once the file holds everything in it (kept open, and locked,
/// until the document is closed). The promises of the whole-file save are kept: a crash
/// replays the journal at the next open, another program's change is merged before anything
/// is written over it, and a journal that cannot be written puts the entry back on the form
/// like any failed save.
extension Program {
    /// Waits for the background writer and takes in what it did, until nothing is left to
    /// write (a merge schedules one more write). With `closing` (quitting, switching
    /// documents), the journal is let go of: removed when the file holds all of it; if the
    /// last write failed it stays on disk for the next open.
    /// Returns what the writer's results say, for the caller to hand to `update` (an effect
    /// adds them to its outcomes; it never sends them itself).
    @discardableResult
    mutating func settleWrites(closing: Bool = false) -> [Outcome] {
        var outcomes: [Outcome] = []
        for _ in 0..<4 {
            guard files.writesPending else { break }
            files.writer.waitUntilIdle()
            outcomes += takeWriterOutcomes()
            if !files.writer.isBusy { break }
        }
        if closing {
            if files.journaled == nil { files.journal?.remove() }
            files.journal = nil
            files.journaled = nil
        }
        return outcomes
    }

    /// The writer's results waiting in the mailbox, and only those, on the main thread.
    mutating func takeWriterOutcomes() -> [Outcome] {
        var outcomes: [Outcome] = []
        for case .written(let outcome) in mailbox.take(.written) { outcomes += take(outcome) }
        return outcomes
    }

    /// One result of the background writer, on the main thread; what to tell `update`.
    mutating func take(_ outcome: DocumentWriter.Outcome) -> [Outcome] {
        let name = state.documentName
        switch outcome {
        case .written(let snapshot, let fingerprint, _):
            files.known = fingerprint
            files.persisted = snapshot
            // Everything journaled is in the file: the journal is emptied, and kept for
            // the next commit (one that cannot be emptied is removed instead). Whether the
            // writer is still busy does not matter: it is woken before it goes idle, and
            // anything newer would have made `journaled` differ.
            if let journaled = files.journaled, journaled == snapshot {
                if files.journal?.clear() == false { files.journal = nil }
                self.files.journaled = nil
            }
            return []
        case .changedElsewhere(.failure(let error), _):
            // Renamed outside (a plain `mv`): follow it, journal and all, and write there.
            if let moved = followOutsideRename() {
                files.journal?.move(to: store.journalURL(for: moved))
                files.writer.setKnown(files.known)
                if let document = state.document { files.writer.schedule(document, of: moved, in: store) }
                return [.documents(.movedOutside(to: moved))]
            } else {
                return [.documents(.vanished(unreadable: error.message, suggestion: store.freeName(startingWith: name)))]
            }
        case .changedElsewhere(.success(let loaded), let fingerprint):
            var theirs = loaded
            theirs.identifyRecordsFoundWithoutIDs()
            // Ours as last committed: the state's document, or a merge this same settling made
            // and `update` has not been handed yet.
            guard let mine = files.journaled ?? state.document else { return [] }
            let base = files.persisted ?? SurveyDocument()
            let resolved: SurveyDocument
            var message = "“\(name)” was also changed elsewhere: your changes were added to that version"
            var isError = false
            var keptAside: [Recovery] = []
            switch SurveyDocument.merge(base: base, mine: mine, theirs: theirs) {
            case .success(let merge):
                resolved = merge.document
            case .failure:
                // Both changed the same answer. Ours was already saved (in the journal),
                // so ours stays; theirs of those surveys is kept aside, with the version
                // both started from, and offered at once to merge or discard.
                var ours = theirs
                ours.replay(mine.journalEntries(since: base))
                let clashing = theirs.records.filter { r in
                    guard let id = r.instanceID, let our = ours.records.first(where: { $0.instanceID == id }) else { return false }
                    return our != r
                }
                let ids = Set(clashing.compactMap(\.instanceID))
                let bases = base.records.filter { $0.instanceID.map(ids.contains) ?? false }
                if !clashing.isEmpty, let file = try? store.saveRecovery(Array(clashing), bases: Array(bases), for: name, at: state.environment.clock.now) {
                    message = "“\(name)” was changed elsewhere in the same answers: yours are kept, theirs in \(file) to merge or discard"
                    keptAside = store.recoveries().filter { $0.fileName == file }
                }
                isError = true
                resolved = ours
            }
            files.persisted = theirs
            files.known = fingerprint
            files.writer.setKnown(fingerprint)
            try? files.journal?.append(resolved.journalEntries(since: files.journaled ?? base))
            files.journaled = resolved
            files.writer.schedule(resolved, of: name, in: store)
            return [.saving(.mergedInBackground(resolved, message: message, isError: isError))]
                + (keptAside.isEmpty ? [] : [.recovery(.found(keptAside))])
        case .failed(let message):
            return [.saving(.writeFailed("Could not update \(name).plist: \(message). Your changes are safe in "
                                          + "\(store.journalURL(for: name).lastPathComponent) and are written again with the next change"))]
        }
    }

    /// Changes an interrupted session left in `.NAME.journal` are put into the file
    /// (`DocumentStore.putBackJournal`). Returns what to tell the user, or nil when there was
    /// nothing to put back.
    static func recoverJournal(of name: String, in store: DocumentStore) -> String? {
        do {
            return try store.putBackJournal(of: name).map {
                "Put back \(counted($0, "change")) an interrupted session had saved only in its journal"
            }
        } catch {
            return describe(error)
        }
    }
}
