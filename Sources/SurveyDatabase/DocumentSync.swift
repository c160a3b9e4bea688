import FoundationEssentials
import SurveyValues
import SurveyForms
import SurveyStorage

/// One sync of a document through the team's PostgreSQL, the same for `survey sync` and the
/// app's F9: pull what changed since the ledger's cursor and fold it in (`SyncPlan.apply`:
/// fast-forward, three-way merge, conflicts kept), commit; then push what changed here since
/// its base (`SyncPlan.outgoing`), acknowledge what the server stored, commit again. Every
/// commit is the store's (`commitSync`: the deleted surveys, the document and the ledger,
/// under the folder lock, put back whole on a failure), so a sync cut off at any point
/// leaves both sides consistent and a second run finishes the job: the server keeps each
/// batch whole or not at all, and the ledger moves its cursor only past rows it kept.
public enum DocumentSync {
    public struct Result: Equatable, Sendable {
        /// Surveys the pull changed here (added, updated, merged, put in conflict, deleted,
        /// reviewed); a survey coming back as this laptop sent it is not counted.
        public var pulled: Int = 0
        public var pushed: Int = 0
        /// Sent but not stored: changed there since (pulled next time), or another's.
        public var refused: [String] = []
        public var events: [SyncEvent] = []
        /// Surveys in conflict after this sync.
        public var conflicts: [String] = []
        /// "form household version 3 taken", when a newer published form came.
        public var formTaken: String?
        /// Surveys on the server this pull could not keep: not applied, noted in the ledger
        /// (F4 counts them), named by `survey sync`.
        public var setAside: [SetAsideRow] = []
        /// Surveys here the server's checks would refuse (an id or answers no laptop keeps,
        /// `SetAsideRow`): kept here, not sent, so they never stop the rest of the push.
        public var notSent: [SetAsideRow] = []
        /// The connection crossed a network unencrypted (`SurveyServer.warning`): for stderr
        /// and the status line.
        public var warning: String?
        /// Changes here to another role's surveys: never sent, kept as conflicts or left for
        /// the laptop they were merged from (`DocumentSync+Owners`).
        public var othersChanges: [OthersChange] = []
        /// Why the entity lists could not take what the pull brought (the surveys are kept).
        public var entityListTrouble: String?
        /// Why the audit log could not go to the team's store or come from it (`syncAudit`).
        public var auditTrouble: String?
        /// Incomplete interviews of an encrypted form, kept here until finished.
        public var draftsKept = 0
        /// Entity properties the pull's visits changed differently from this laptop, by list:
        /// kept as conflicts (`survey entities --list NAME`).
        public var entityConflicts: [String: Int] = [:]
        /// The pull took as a base a version of a survey changed here since (`SyncApplier`):
        /// that change still goes out.
        var leftChangesHere = false

        /// "Synced “Field”: 3 in, 2 out; 1 conflict (F4, c)".
        public func message(for name: String) -> String {
            var parts = ["\(pulled) in", "\(pushed) out"]
            if let formTaken { parts.append(formTaken) }
            if !notSent.isEmpty { parts.append("\(notSent.count) not sendable (survey sync names them)") }
            if !setAside.isEmpty { parts.append("\(setAside.count) set aside (survey sync names them)") }
            if !refused.isEmpty { parts.append("\(refused.count) not taken by the server (sync again)") }
            parts += othersMessage
            if !conflicts.isEmpty { parts.append(counted(conflicts.count, "survey") + " in conflict (survey conflicts, or F4 then c)") }
            for (list, count) in entityConflicts.sorted(by: { $0.key < $1.key }) {
                parts.append("\(list).csv: \(counted(count, "entity conflict")) (survey entities --list \(list))")
            }
            if let entityListTrouble { parts.append("the entity lists were not updated: \(entityListTrouble)") }
            if let auditTrouble { parts.append("the audit log was not synced: \(auditTrouble)") }
            if draftsKept > 0 {
                parts.append(counted(draftsKept, "incomplete interview") + " kept here until finished (an encrypted form sends only finished surveys)")
            }
            return "Synced “\(name)”: " + parts.joined(separator: ", ")
        }
        public var message: String { message(for: documentName) }
        var documentName = ""
    }

    /// What a push hands the server layer at a time (in its batches of 1,000).
    public static let pushChunk = 5_000

    /// What a pull asks of the server at a time.
    public static let pullBatch = 1_000
    /// A long pull keeps what it has every so often, so one cut off late starts near where it
    /// stopped; between, batches are applied in memory and written once (issue 28: writing
    /// the whole document and ledger after every batch made a pull quadratic).
    public static let pullCheckpoint: TimeInterval = 30

    /// Pull then push `document` of `store` through the database `target`; `progress` gets a
    /// line after each batch. `pullOnly`/`pushOnly` for `survey pull` / `survey push`.
    /// A statement past a second says what it waits for (`DatabaseConnection.waiting`), to
    /// `waiting` when given (the shell's stderr), else on the progress line (F9).
    public static func run(store: DocumentStore, document name: String, target: ConnectionString, device: String,
                           pull: Bool = true, push: Bool = true, at date: @escaping () -> Date,
                           progress: @escaping (String) -> Void = { _ in },
                           waiting: ((String) -> Void)? = nil) throws -> Result {
        let server = try SurveyServer(target)
        defer { server.connection.close() }
        server.waiting = { line in (waiting ?? progress)("Syncing “\(name)”: " + line) }
        var result = Result()
        result.documentName = name
        result.warning = server.warning
        let markBefore = store.currentSyncMark(for: name)
        if pull, let mark = markBefore, mark.nothingToSend || !push,
           let quick = try nothingToDo(server, store, name, mark, at: date) {
            var done = quick
            done.warning = server.warning
            done.entityListTrouble = takeEntityEdits(server, store, form: nil, target: target)
            done.auditTrouble = syncAudit(server, store, name, dataset: mark.dataset, device: device, formKeepsLog: nil, target: target)
            return done
        }
        // The ledger is read in part (`PartialLedger`): the entries of the surveys that come in
        // and of those changed here, not 100,000. Whatever needs every survey makes it whole first.
        var snapshot = try store.syncSnapshot(of: name, ledgerInPart: true)
        // Nothing waited to be sent when this sync began: the last sync's mark says so of these
        // very files, or there is nothing here at all (a fresh laptop's first pull).
        var nothingWaited = snapshot.state.records.isEmpty && !snapshot.state.ledger.isPartial && snapshot.state.ledger.bases.isEmpty
        if let mark = markBefore, mark.nothingToSend, push, mark.files.document == snapshot.files.document,
           mark.files.ledger == snapshot.files.ledger, mark.files.ledgerJournal == snapshot.files.ledgerJournal,
           mark.files.deleted == snapshot.files.deleted {
            nothingWaited = true
        }
        let role = try server.role()
        // A row can be this laptop's own push come back only if it synced as this role before.
        let syncedAsRoleBefore = snapshot.state.ledger.role == role
        // Read again there (another program saved meanwhile): what it saved may wait to be sent.
        if try noteRole(role, from: server, store, name, &snapshot, at: date) { nothingWaited = false }
        // Read once: it names the dataset, and a newer published version is compared with it.
        let opened = store.documentForm(for: name, firstSurveys: snapshot.state.records)
        let form = opened.questionnaire.form
        let dataset = Self.dataset(of: form, name: name, pulledFrom: snapshot.state.ledger.pullDataset)
        // Asked before the form is taken: a version published meanwhile makes the next sync look.
        let newestForm = pull ? try server.newestFormVersion(formID: dataset) : nil
        if pull {
            // A newer form version first, so what comes in is read with it.
            if let formTaken = try FormPublishing.takeNewest(from: server, formID: dataset, store: store, document: name,
                                                             current: form, at: date()) {
                result.formTaken = formTaken
                progress("Syncing “\(name)”: \(formTaken)")
            }
            // The document's form as the pull left it: the one read above, or a version just
            // taken, read only when something needs it (a survey merged, an entity list).
            var documentForm: DocumentForm? = result.formTaken == nil ? opened : nil
            func readForm(_ surveys: [Record]) -> DocumentForm {
                if let documentForm { return documentForm }
                let read = store.documentForm(for: name, firstSurveys: surveys)
                documentForm = read
                return read
            }
            // The registrations and visits that came change the entity lists here, as where they
            // were keyed, at each write of what the pull brought: the lists travel with the
            // surveys that made them. The surveys are kept whatever happens to a list; a list that
            // cannot be written is said, not fatal.
            var listTrouble: String?
            var entityConflicts: [String: Int] = [:]
            let listsFollow = form?.entities.isEmpty == false || result.formTaken != nil
            let reread = try pullAll(server, store, name, dataset: dataset, own: syncedAsRoleBefore ? (device, role) : nil,
                                     snapshot: &snapshot, into: &result,
                                     at: date, progress: progress, numbering: listsFollow,
                                     settling: { surveys in
                                         // A form that cannot be used leaves the merged surveys as merged.
                                         let form = readForm(surveys)
                                         return form.trouble == nil ? form.questionnaire : nil
                                     }) { kept in
                guard listsFollow else { return }
                do {
                    let questionnaire = readForm(kept.now).questionnaire
                    // The supervisor's edits up to where the pull read, taken between the
                    // surveys in the server's order (both are numbered by change_number()).
                    let edits = kept.events.isEmpty ? []
                        : try entityEditsWaiting(server, store, lists: (questionnaire.form?.entities ?? []).map(\.list), upTo: kept.cursor)
                    let changes = try store.recordEntities(takenBy: kept.events, before: kept.before, now: kept.now,
                                                           questionnaire: questionnaire, clock: Questionnaire.Clock(now: date()),
                                                           changeNumbers: kept.changeNumbers, edits: edits)
                    for change in changes where change.conflicts > 0 { entityConflicts[change.list, default: 0] += change.conflicts }
                } catch {
                    listTrouble = Self.describe(error, target: target)
                }
            }
            // Then the supervisor's edits and retirements no survey came with, up to where the
            // pull read (a later one comes with the surveys after it, at the next sync).
            if let trouble = takeEntityEdits(server, store, form: form, upTo: snapshot.state.ledger.pullCursor, target: target) {
                listTrouble = listTrouble.map { $0 + "; " + trouble } ?? trouble
            }
            result.entityListTrouble = listTrouble
            result.entityConflicts = entityConflicts
            if reread { nothingWaited = false }     // another program wrote the document meanwhile
        }
        // What the server stored, by place in `changes` (not a second copy of each change:
        // 11 MB on a first push of 100,000).
        var changes: [OutgoingChange] = []
        var sent: [(at: Int, revision: SyncRevision)] = []
        var written: [ClosedRange<Int64>] = []
        var others: [(change: OutgoingChange, owner: String)] = []
        // The reasons sent with the edits, and how much of the edit history they were read from.
        var reading: (reasons: [String: String], read: Int, fresh: Set<String>)?
        // Looking over every survey for what changed here costs 0.14 s at 100,000 surveys after
        // every pull. It is known to find nothing when nothing waited before and the pull only
        // took versions as they are (added, fast-forwarded, agreed, deleted, reviewed; a
        // conflict stays here until settled): only a merge leaves a change of this laptop's.
        let nothingToLookFor = nothingWaited && !result.leftChangesHere && !result.events.contains { $0.kind == .merged }
        // An encrypted form's incomplete interviews stay on the laptop until finished (then
        // sealed), as ODK Collect sends only finalized forms: the team's store, which keeps every
        // version, never holds one in clear.
        // A form that cannot be read says nothing: a document holding encrypted surveys is taken
        // to encrypt (its drafts and log kept back) rather than send them in clear.
        let encrypts = form?.publicKey?.isEmpty == false || (form == nil && snapshot.state.records.contains { $0.isSealed })
        if push {
            // A ledger read in part reads the bases of the surveys whose answers' digests are not
            // their base's (`ChangesLook`), or is made whole.
            let look = nothingToLookFor ? nil : try snapshot.lookForChangesHere(in: store)
            for change in nothingToLookFor ? [] : SyncPlan.outgoing(from: snapshot.state, device: device, look: look) {
                if encrypts, change.isIncomplete, !change.deleted {
                    result.draftsKept += 1
                } else if let problem = SetAsideRow.problem(withID: change.id) ?? SetAsideRow.problem(withAnswers: change.answers) {
                    result.notSent.append(SetAsideRow(id: change.id, owner: device, reason: problem))
                } else if let owner = snapshot.state.ledger.othersOwner(of: change.id, as: role) {
                    others.append((change, owner))
                } else {
                    changes.append(change)
                }
            }
            // The dataset is written before the first push of a document that never pulled (`survey
            // push`): even if the server's answer is cut off, renamed it still knows its team, and
            // finds its own surveys there, not copies in another dataset. Once per document.
            if !changes.isEmpty, snapshot.state.ledger.pullDataset != dataset {
                try commit(store, name, &snapshot, at: date) { snapshot in
                    var state = snapshot.state
                    state.ledger = snapshot.lendLedger()
                    state.ledger.pull(from: dataset)
                    return (state, [], true)
                }
            }
            reading = Self.pendingReasons(for: changes, store, name, ledger: snapshot.state.ledger)
            let reasons = reading?.reasons ?? [:]
            var clock = ProgressClock(total: changes.count)
            var start = 0
            while start < changes.count {
                // The rows to send (answers as dictionaries, then JSON) are built a chunk at a
                // time: a first push of a million held them all at once, a gigabyte.
                let chunk = changes[start..<min(start + pushChunk, changes.count)]
                let before = start
                let results = try server.push(chunk.map { outgoing($0, dataset: dataset, reason: reasons[$0.id]) }, progress: { step in
                    let done = before + step.sent
                    progress("Syncing “\(name)”: \(done) of \(changes.count) out\(clock.left(done: done))…")
                }, written: { written.append($0) })
                for (at, pushed) in zip(chunk.indices, results) {
                    let change = changes[at]
                    switch pushed.outcome {
                    case .accepted(let revision), .alreadyThere(let revision):
                        sent.append((at, SyncRevision(revision)))
                    case .refused(let owner):
                        others.append((change, owner))
                    case .stale, .missing:
                        result.refused.append(change.id)
                    case .inOtherDataset(let other):
                        // Not "sync again": no pull of this dataset brings it, and every push meets it there.
                        result.notSent.append(SetAsideRow(id: change.id, owner: device, reason: Self.inOtherDataset(other, not: dataset)))
                    }
                }
                start += chunk.count
            }
            result.pushed = sent.count
        }
        let outgoingFrom = snapshot.fingerprint
        let retried = try commit(store, name, &snapshot, at: date) { snapshot in
            var state = snapshot.state
            state.ledger = snapshot.lendLedger()
            let ownChanges = written.filter { $0.upperBound > (state.ledger.pullCursor ?? 0) }
            // Room made once: grown one doubling at a time, each table's old and new storage
            // were in memory together at the last doubling (the sync's peak, at 100,000).
            if !state.ledger.isPartial {
                state.ledger.bases.reserveCapacity(state.ledger.bases.count + sent.count)
                state.ledger.owners.reserveCapacity(state.ledger.owners.count + sent.count)
            }
            for (at, revision) in sent { SyncPlan.acknowledge(changes[at], revision: revision, in: &state.ledger) }
            state.ledger.ownChanges += ownChanges
            for (at, _) in sent { state.ledger.owners[changes[at].id] = role }
            // Changes to others' surveys left for the laptop they came from change nothing here:
            // only what holding them changed counts (else every sync would write the ledger).
            let held = others.map { ($0.change.id, state.ledger.owners[$0.change.id], state.ledger.conflicts[$0.change.id]) }
            result.othersChanges = SyncPlan.holdOthersChanges(others, in: &state)
            let othersHeld = held.contains { id, owner, conflict in
                state.ledger.owners[id] != owner || state.ledger.conflicts[id] != conflict
            }
            // Written anyway: the time goes in too (the mark also keeps it, for a sync that
            // writes nothing else, and may be left unwritten when the document changed meanwhile).
            // An accepted edit took its reasons to the server; the others' wait for theirs.
            var reasonsMoved = false
            if let reading {
                var pending = reading.reasons
                for (at, _) in sent { pending[changes[at].id] = nil }
                // A reason kept from before whose survey has no change to send any more (undone,
                // or taken by a push whose acknowledgement was cut off) goes: it would go out
                // with the next, unrelated edit. One read just now stays a round (its change
                // may have been saved while this sync ran).
                let waiting = Set(changes.map(\.id)).union(others.map(\.change.id)).union(result.notSent.map(\.id))
                    .union(state.ledger.conflicts.keys)
                for id in state.ledger.pendingReasons.keys where !waiting.contains(id) && !reading.fresh.contains(id) {
                    pending[id] = nil
                }
                reasonsMoved = pending != state.ledger.pendingReasons || reading.read != state.ledger.historyEntriesRead
                state.ledger.pendingReasons = pending
                state.ledger.historyEntriesRead = reading.read
            }
            let changed = !sent.isEmpty || !ownChanges.isEmpty || othersHeld || reasonsMoved
            if changed { state.ledger.lastSync = date() }
            return (state, [], changed)
        }
        result.conflicts = snapshot.state.ledger.conflicts.keys.sorted()
        // The time of this sync, and what the next one needs to find nothing to do without
        // reading the document: written only over the files as this sync left them.
        var ledger = snapshot.state.ledger
        ledger.lastSync = date()
        var nothingToSend = push && result.refused.isEmpty && result.notSent.isEmpty && result.othersChanges.isEmpty
        if nothingToSend, retried || snapshot.fingerprint != outgoingFrom {
            // Looked at again only when the files changed after the look above (a ledger that
            // cannot be made whole leaves the next sync to look).
            nothingToSend = (try? snapshot.makeLedgerWhole(in: store)) != nil && SyncPlan.outgoing(from: snapshot.state, device: device).isEmpty
        }
        try? store.writeSyncMark(SyncMark(files: snapshot.files, document: name, dataset: dataset, formVersion: newestForm, ledger: ledger,
                                          nothingToSend: nothingToSend), for: name)
        if pull || push {
            // Worked out only when there is a log to send (100,000 ids were 3 MB of a first push).
            let newlyStored = { Set(sent.lazy.filter { changes[$0.at].baseRevision == nil }.map { changes[$0.at].id }) }
            // An encrypted form's log goes inside each finished survey's submission, as ODK's
            // does (`audit.csv.enc`): never to the team's store in clear.
            if encrypts {
                store.forgetAuditSync(for: name)
            } else {
                result.auditTrouble = syncAudit(server, store, name, dataset: dataset, device: device,
                                                formKeepsLog: AuditSettings(form: form) != nil, newlyStored: newlyStored, target: target)
            }
        }
        return result
    }

    /// A sync that finds nothing to do, told without reading the document: nothing happened
    /// here since the last sync (`mark` is of the files as they are), no newer form is
    /// published, and the server has no change after the cursor but this laptop's own. Then
    /// only the mark is written (the cursor may move on, the time of sync does); nil when
    /// there is something to do, for the whole sync to do it.
    static func nothingToDo(_ server: SurveyServer, _ store: DocumentStore, _ name: String, _ mark: SyncMark,
                            at date: () -> Date) throws -> Result? {
        guard try server.newestFormVersion(formID: mark.dataset) == mark.formVersion else { return nil }
        let (rows, setAside, next) = try server.pull(dataset: mark.dataset, since: mark.pullCursor ?? 0, limit: 1,
                                                     skipping: mark.ownChanges)
        guard rows.isEmpty, setAside.isEmpty else { return nil }
        var moved = mark
        moved.advance(to: next)
        moved.lastSync = date()
        // A mark that cannot be written costs the next sync a whole one, nothing more.
        try? store.writeSyncMark(moved, for: name)
        var result = Result()
        result.documentName = name
        result.conflicts = mark.conflicts
        return result
    }

    /// Every batch the server has after the ledger's cursor (but this laptop's own pushes),
    /// applied to one state in memory and written once, or every `pullCheckpoint` seconds on
    /// a long pull. When another program wrote the document meanwhile (the app saving a keyed
    /// answer during F9), nothing is written and the pull runs again on the fresh document
    /// from the cursor it had: the server still has every row.
    /// A survey merged from both sides (or in conflict) gets the form's calculations for the
    /// answers it now holds, as `survey merge` gives them (`Questionnaire.settlingMerges`):
    /// a calculation both sides changed is the form's, not a conflict, and the settled survey
    /// goes out at this sync's push. `settling` gives the form (nil: none to settle with),
    /// asked only when a write holds such a survey: a pull of fast-forwards reads no form.
    /// Returns whether the files were read again (another program wrote them meanwhile).
    @discardableResult
    static func pullAll(_ server: SurveyServer, _ store: DocumentStore, _ name: String, dataset: String,
                        own: (device: String, role: String)?, snapshot: inout DocumentStore.SyncSnapshot, into result: inout Result,
                        at date: () -> Date, progress: (String) -> Void,
                        numbering: Bool = false, settling: ([Record]) -> Questionnaire? = { _ in nil },
                        kept onKept: (KeptPull) -> Void = { _ in }) throws -> Bool {
        var kept: (events: [SyncEvent], setAside: [SetAsideRow]) = ([], [])
        var reread = false
        for attempt in 1...5 {
            var clock = ProgressClock(total: nil)
            var events: [SyncEvent] = [], setAside: [SetAsideRow] = []
            // Each survey's place in the server's order (its last in the span): the entity
            // lists take the supervisor's edits between them by it.
            var numbers: [String: Int64] = [:]
            // Counted for the progress line, not kept as a set of ids (4 MB at 100,000); a
            // survey changed twice during one pull counts twice there, once in the result.
            var pulled = changedHere(kept.events).count, counted = 0
            do {
                // One date for a survey moved to the deleted surveys, in memory and in the file.
                var pulledAt = date()
                var applier = self.applier(lending: &snapshot, at: pulledAt)
                // The ledger changes when the dataset does, or a batch brings anything or moves the cursor.
                var ledgerChanged = applier.ledger.pullDataset != dataset
                applier.ledger.pull(from: dataset)
                var cursor = applier.ledger.pullCursor ?? 0
                var checkpoint = ContinuousClock.now
                /// Writes what the applier holds; the next batches go on from the written state.
                func keep() throws {
                    var applied = applier.result
                    let before = snapshot.state.records
                    if events.contains(where: { $0.kind == .merged || $0.kind == .conflicted }),
                       let questionnaire = settling(applied.state.records) {
                        applied.state = questionnaire.settlingMerges(applied.state, before: snapshot.state, events: &events,
                                                                     clock: Questionnaire.Clock(now: pulledAt))
                    }
                    if let written = try store.committed(applied.state, over: snapshot, movedToDeleted: applied.movedToDeleted,
                                                         broughtBack: applied.broughtBack, ledgerChanged: ledgerChanged, at: pulledAt) {
                        snapshot = written
                    } else {
                        snapshot.takeBack(applied.state.ledger)
                    }
                    ledgerChanged = false
                    if applier.leftChangesHere { result.leftChangesHere = true }
                    // What is written is what the entity lists take (a pull cut off after this
                    // checkpoint never brings these rows again).
                    onKept(KeptPull(events: events, before: before, now: snapshot.state.records, changeNumbers: numbers, cursor: cursor))
                    // Moved, not copied, when nothing was kept before (nearly always): a copy of
                    // 100,000 events was a tenth of what a large pull did after its write.
                    if kept.events.isEmpty { swap(&kept.events, &events) } else { kept.events += events }
                    kept.setAside += setAside
                    (events, setAside, counted) = ([], [], 0)
                    numbers = [:]
                }
                while true {
                    // Once the rows waiting are counted (after the first full batch), each full
                    // batch asks for the next before it is read (`SurveyServer.pull`'s `ahead`).
                    let (rows, aside, next) = try server.pull(dataset: dataset, since: cursor, limit: pullBatch,
                                                              skipping: applier.ledger.ownChanges, ahead: clock.total != nil)
                    guard !rows.isEmpty || !aside.isEmpty || next != cursor else { break }
                    ledgerChanged = true
                    if !applier.ledger.setAside.isEmpty {
                        let arrived = Set(rows.map(\.instanceID))
                        applier.ledger.setAside.removeAll { arrived.contains($0.id) }
                    }
                    for row in aside { applier.ledger.setAside(row) }
                    // The entries of the surveys that came, from a ledger read in part.
                    try applier.ledger.load(rows.map(\.instanceID))
                    events += applier.apply(rows.map { incoming($0, own: own) })
                    for row in rows {
                        applier.ledger.owners[row.instanceID] = row.owner
                        // Only for entity lists, which take the surveys in the server's order: at
                        // 100,000 surveys the table was 7 MB of a pull's peak.
                        if numbering { numbers[row.instanceID] = row.change }
                    }
                    setAside += aside
                    applier.ledger.pullCursor = next
                    cursor = next
                    let taken = rows.count + aside.count
                    if taken == pullBatch, clock.total == nil {
                        // A long pull: how long is left is worth one count.
                        let waiting = try server.changesWaiting(dataset: dataset, since: cursor, skipping: applier.ledger.ownChanges)
                        clock = ProgressClock(total: taken + waiting, started: clock.started)
                        // Room for them made once, not one doubling at a time (two copies of each table at the last).
                        applier.reserveCapacity(waiting)
                    }
                    if taken > 0 {
                        clock.count(taken)
                        pulled += events[counted...].lazy.filter { $0.kind != .agreed }.count
                        counted = events.count
                        let looked = clock.done
                        progress("Syncing “\(name)”: \(looked)\(clock.total.map { " of \($0)" } ?? "") looked at, "
                            + "\(pulled) in\(clock.left(done: looked))…")
                    }
                    if taken < pullBatch { break }
                    if ContinuousClock.now - checkpoint >= .seconds(pullCheckpoint) {
                        try keep()
                        pulledAt = date()
                        applier = self.applier(lending: &snapshot, at: pulledAt)
                        checkpoint = ContinuousClock.now
                    }
                }
                try keep()
                break
            } catch where attempt < 5 && !store.isCurrent(snapshot) {
                snapshot = try store.syncSnapshot(of: name)
                reread = true
            }
        }
        if result.events.isEmpty { result.events = kept.events } else { result.events += kept.events }
        result.setAside += kept.setAside
        result.pulled = Set(changedHere(result.events)).count
        return reread
    }

    /// What a pull kept at a checkpoint: the surveys it changed (`events`, each `before` and
    /// `now`), each one's change number, and how far the pull has read (`cursor`).
    struct KeptPull {
        var events: [SyncEvent]
        var before: [Record]
        var now: [Record]
        var changeNumbers: [String: Int64]
        var cursor: Int64
    }

    /// An applier over `snapshot`'s state, its ledger lent rather than shared: shared, the
    /// first base a pull changed copied every table of the ledger (21 MB at 100,000 surveys).
    static func applier(lending snapshot: inout DocumentStore.SyncSnapshot, at date: Date) -> SyncApplier {
        let ledger = snapshot.lendLedger()
        return SyncApplier(state: SyncState(records: snapshot.state.records, deleted: snapshot.state.deleted, ledger: ledger),
                           date: date)
    }

    /// The surveys these events changed here (an id may repeat): one coming back as this
    /// laptop has it is not counted.
    static func changedHere(_ events: some Sequence<SyncEvent>) -> [String] {
        events.filter { $0.kind != .agreed }.map(\.id)
    }

    /// Commits what `make` builds on a snapshot of the document (which may lend out its
    /// ledger to change it, and then says whether it did). When another program wrote
    /// it meanwhile (the app saving a keyed answer while F9 runs, a shell command), the
    /// commit refuses and writes nothing; it is built again on a fresh snapshot, a few times,
    /// so a sync never fails because someone kept working.
    /// `snapshot` becomes what is on disk after; returns whether it had to be built again.
    static func commit(_ store: DocumentStore, _ name: String, _ snapshot: inout DocumentStore.SyncSnapshot, at date: () -> Date,
                       _ make: (inout DocumentStore.SyncSnapshot) throws -> (SyncState, [Record], ledgerChanged: Bool?))
        throws -> Bool {
        for attempt in 1...5 {
            let (state, moved, ledgerChanged) = try make(&snapshot)
            do {
                if let written = try store.committed(state, over: snapshot, movedToDeleted: moved, ledgerChanged: ledgerChanged,
                                                     at: date()) {
                    snapshot = written
                } else if snapshot.ledgerLent {
                    snapshot.takeBack(state.ledger)
                }
                return attempt > 1
            } catch where attempt < 5 && !store.isCurrent(snapshot) {
                snapshot = try store.syncSnapshot(of: name)
            }
        }
        return true
    }

    /// Which of the server's surveys are this document's: its form's id (every laptop
    /// keying the form shares them); else, once it has synced, the dataset its ledger pulled
    /// from (`pulledFrom`, `SyncLedger.pullDataset`), so a formless document renamed (or
    /// brought back from the trash under another name) stays with its team; else the
    /// document's name.
    public static func dataset(of form: XLSForm?, name: String, pulledFrom: String? = nil) -> String {
        if let id = form?.formID, !id.isEmpty { return id }
        if let pulledFrom, !pulledFrom.isEmpty { return pulledFrom }
        return name
    }

    /// Why a new survey whose id the server keeps in dataset `other` was not sent with `dataset`'s.
    static func inOtherDataset(_ other: String, not dataset: String) -> String {
        "its id is on the server already, with “\(other)”'s surveys (another form or document), not “\(dataset)”'s: "
            + "delete this copy if it is the same survey"
    }

    /// `own`: this laptop's device and role, whose rows are its own pushes.
    static func incoming(_ row: IncomingRow, own: (device: String, role: String)? = nil) -> IncomingVersion {
        var version = IncomingVersion(id: row.instanceID, packed: row.packedAnswers, revision: SyncRevision(row.revision),
                                      deleted: row.deleted, review: row.review.map { SyncReview($0.state, comment: $0.comment) },
                                      formID: row.formID, formVersion: row.formVersion, device: row.device)
        version.reviewCleared = row.review == nil
        // Only what a killed insert looks like: the first revision, edited from nothing (a
        // data manager's fix or any later edit has a higher revision); or a killed edit: the
        // revision after the one it was edited from (the applier checks that is the base here).
        if let own, row.device == own.device, row.owner == own.role, !own.role.isEmpty {
            version.ownPush = row.revision == 1 && row.baseRevision == nil
            if let from = row.baseRevision, row.revision == from + 1 { version.ownEditFrom = SyncRevision(from) }
        }
        return version
    }

    static func outgoing(_ change: OutgoingChange, dataset: String, reason: String? = nil) -> OutgoingRow {
        OutgoingRow(instanceID: change.id, dataset: dataset, answers: change.answers, formID: change.formID,
                    formVersion: change.formVersion, device: change.device, baseRevision: change.baseRevision?.number,
                    deleted: change.deleted, reason: change.baseRevision?.number == nil ? nil : reason)
    }

    /// Why each edit to push was made: the reasons the ledger keeps pending, with those of the
    /// edit history's entries it has not read yet. Read only when an edit goes out (nil
    /// otherwise, the pending reasons left as they are). A history that cannot be read sends
    /// the reasons already pending (the edits still go: the history is a record of them, not a
    /// condition for them); a shorter one put in its place is read from its start.
    static func pendingReasons(for changes: [OutgoingChange], _ store: DocumentStore, _ name: String,
                               ledger: SyncLedger) -> (reasons: [String: String], read: Int, fresh: Set<String>)? {
        guard changes.contains(where: { $0.baseRevision?.number != nil }) || !ledger.pendingReasons.isEmpty,
              let entries = try? store.editHistory(for: name).entries else { return nil }
        let new = entries.count >= ledger.historyEntriesRead ? entries[ledger.historyEntriesRead...] : entries[...]
        return (ChangeReasons.adding(new, to: ledger.pendingReasons), entries.count, Set(new.map(\.survey)))
    }

    /// An error for people: the database's words with the connection string's password
    /// never shown.
    public static func describe(_ error: Error, target: ConnectionString) -> String {
        if let error = error as? DatabaseError { return target.redact(error.message) }
        if let error = error as? DocumentError { return error.message }
        return target.redact("\(error)")
    }
}

