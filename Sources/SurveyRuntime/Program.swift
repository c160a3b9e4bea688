import FoundationEssentials
import SurveyValues
import SurveyForms
import SurveyStorage
import SurveyUI

/// Runs `update` and carries out its effects against the document store and the state file,
/// feeding each outcome back in as an action: the state is written only through `update`.
/// It owns no terminal, so tests drive it exactly as the terminal loop does, on a real
/// folder, and see what reaches the disk. Work it leaves running in the background (the rest
/// of a large document, the `/` index and searches, the `.plist` behind the journal, counting
/// big documents, F9) is one job type (`BackgroundJobs`) posting to one `Mailbox`, which
/// wakes the loop; the loop then calls `collectBackgroundWork()`.
public struct Program {
    public private(set) var state: AppState
    public let store: DocumentStore
    /// The state file (last document, record per document); nil keeps nothing.
    private let memoryURL: URL?
    public private(set) var isFinished = false
    /// Where the session memory says the user was, kept until `finishOpening()` can find the
    /// record by its id.
    private var placeToRestore: SessionMemory.Place?
    /// What this program knows of the open document's files (`DocumentFiles`).
    var files: DocumentFiles
    /// Another program's save, found at ours and merged with it: the next save's edit history
    /// and entity lists are worked out against it (not against this app's last save), so a
    /// change another program made is never noted as this keyer's. Taken by that save.
    var lastSeen: SurveyDocument?
    /// The surveys the last save encrypted, as keyed (without their ids), with their ids:
    /// the notes made after that save find them so (`Program+Sealing`).
    var sealedAtSave: [(plain: Record, id: String)] = []
    /// The audit events of the effects being carried out, for a save that seals their survey.
    var pendingAudit: [(added: AddedSurvey?, events: [AuditEvent])] = []
    /// Why the save being made sealed its surveys without the audit lines kept beside the
    /// document (the log could not be read); said once the save is written.
    var auditUnread: String?
    /// Surveys sealed with their audit lines whose lines could not yet be taken out of the
    /// plain log, by document: tried again at each save.
    var auditToRemove: [String: Set<String>] = [:]
    /// The surveys the effects being carried out add from the New form (their `.noteKeyed`):
    /// the save storing one marks the New form's file first (`Program+Drafts`).
    var pendingAdded: [AddedSurvey] = []
    /// Summaries by name, reused while the file's fingerprint is unchanged: the documents
    /// list refreshes every idle second, and re-parsing five 10,000-record files took a
    /// second each time.
    private var summaryCache: [String: (FileFingerprint, DocumentSummary)] = [:]
    /// Where background work leaves its results; its descriptor wakes the loop.
    let mailbox: Mailbox
    /// The background work itself, one lane per kind.
    let jobs: BackgroundJobs
    /// Readable once background work has a result for `collectBackgroundWork()`.
    public var wake: WakeSignal { mailbox.wake }
    /// The kinds of the messages the last `collectBackgroundWork()` took in, in order: what
    /// woke the loop (tests).
    private(set) var lastMail: [Mail.Kind] = []
    /// Large documents being counted in the background, by name (one count per name at a time).
    var counting: Set<String> = []
    /// What the `/` line holds while its index is built, for the build to search ahead for
    /// (`Effect.searchAhead`).
    let searchAhead = SearchAheadText()

    // A large document's changes go to its journal first and reach the `.plist` in the
    // background (`Program+Journal`).
    /// From this file size on, commits go through the journal. The app passes 0: every
    /// document commits through it (a whole-file save of 1,000 surveys took 4 ms, the journal
    /// half of one). The default keeps in-process tests on the synchronous whole-file save,
    /// the path of a second window (whose journal another copy holds) and of the shell.
    let journalThreshold: Int
    /// The rest of a large document, being read in the background (`Program+Loading`).
    var stream: DocumentStream?
    /// When a part of it was last taken in.
    var lastLoadedPart: ContinuousClock.Instant?
    /// A part was ready but left for later, to keep parts ten a second (`pollTimeout`).
    var partDeferred = false

    /// With `identifyLater`, records found without an id get theirs in `finishOpening()`, which
    /// the terminal calls once the first frame is on screen (at 100,000 records that is a
    /// third of the start-up); no key is handled before then.
    ///
    /// With `streamingFrom`, a file of that many bytes or more is opened with its first
    /// `firstRecords` records only, and the rest is read in the background
    /// (`Program+Loading`), unless the list's remembered order needs every record first.
    /// `clock` is what the core reads the time from (tests move it on).
    public init(store: DocumentStore, documentName: String, size: Size, splitWidth: Int = 80,
                memory: SessionMemory? = nil, identifyLater: Bool = false, journalThreshold: Int = 1 << 20,
                streamingFrom: Int? = nil, firstRecords: Int = Program.firstScreenRecords, clock: WallClock = .system) {
        let mailbox = Mailbox()
        self.mailbox = mailbox
        self.jobs = BackgroundJobs(mailbox: mailbox)
        self.files = DocumentFiles(writer: DocumentWriter(jobs: jobs))
        self.store = store
        self.memoryURL = memory?.url
        self.journalThreshold = journalThreshold
        // Changes an interrupted session left in the journal are put into the file first.
        let recovered = Self.recoverJournal(of: documentName, in: store)
        // Taken before reading: a change landing in between is then seen at the first save.
        let fingerprint = store.fingerprint(of: documentName)
        let place = memory?.place(of: documentName, in: store.folder)
        // A remembered sort order cannot show its first rows before every record is read.
        let streaming = place?.listOrder == nil ? streamingFrom.map { (from: $0, first: firstRecords) } : nil
        let opened = Self.open(documentName, in: store, identifying: !identifyLater, streaming: streaming)
        // A New form's file an Add left behind, its survey stored (`Program+Drafts`).
        let leftByAnAdd = Self.settleNewFormLeftByAnAdd(of: documentName, in: store, loaded: opened.loaded,
                                                        streaming: opened.stream != nil)
        let draftFingerprint = store.draftFingerprint(for: documentName)
        self.state = AppState(documentName: documentName,
                              loaded: opened.loaded,
                              draft: leftByAnAdd == nil ? store.loadDraft(for: documentName) : Record(),
                              size: size,
                              splitWidth: splitWidth,
                              questionnaire: opened.form.questionnaire,
                              formTrouble: opened.form.trouble,
                              environment: AppEnvironment(clock: clock))
        self.stream = opened.stream
        self.placeToRestore = identifyLater && opened.stream == nil ? place : nil
        files.reopened(known: fingerprint, knownDraft: draftFingerprint)
        send(.outcome(.loading(.launched(Launch(folder: store.folder.path, device: Self.device, place: place,
                              loadingPercent: opened.stream?.percentRead, journalMessage: recovered)))))
        if !identifyLater && opened.stream == nil { files.persisted = state.document }
        if let leftByAnAdd { send(.outcome(.saving(.newFormLeftByAnAdd(leftByAnAdd)))) }
        // Surveys an earlier session could not save are offered before anything else.
        send(.outcome(.recovery(.found(store.recoveries()))))
    }

    /// The rest of opening the first document, after its first frame is drawn: ids for
    /// records found without one, then the remembered record found by its id.
    public mutating func finishOpening() {
        // A large document's first records have their ids; the rest is read from now on, and
        // the document becomes `persisted` when whole.
        if let stream {
            stream.begin { [mailbox] in mailbox.post(.documentPart) }
            return
        }
        guard let records = state.document?.records, records.contains(where: { !$0.hasInstanceID }) else {
            placeToRestore = nil
            files.persisted = state.document
            return
        }
        // In place (see `identified`): the list lets go of its copy of the records first.
        send(.outcome(.loading(.identifyRecordsFoundWithoutIDs(thenRestoring: placeToRestore))))
        files.persisted = state.document
        placeToRestore = nil
    }

    /// The terminal closed or a signal asked us to stop: nobody can answer a question now,
    /// so what exists only in memory goes to a recovery file instead.
    public mutating func terminate() {
        guard !isFinished else { return }
        send(.system(.terminate))
        settleWrites(closing: true).forEach { send(.outcome($0)) }
    }

    /// Handles one terminal event; returns false when it meant nothing in this state.
    @discardableResult
    public mutating func handle(_ event: InputEvent) -> Bool {
        guard let action = KeyMap.action(for: event, in: state) else { return false }
        send(action)
        return true
    }

    /// Each effect's outcome is handled before the next effect runs, so a failed document
    /// save restores the form before the draft is written.
    public mutating func send(_ action: Action) {
        // Leaving keeps a valid answer being typed on a record: that waits for the whole document.
        if stream != nil, action == .app(.quit) || action == .system(.terminate), state.editing?.isChanged == true, !state.form.showingDraft {
            finishLoading()
        }
        let effects = update(&state, action)
        // A save nested in another (the file changed on disk, merged and saved again) still
        // seals the outer action's events (an Add's New form log) with its surveys.
        let outerAudit = pendingAudit
        pendingAudit = outerAudit + Self.auditEvents(in: effects)
        defer { pendingAudit = outerAudit }
        let outerAdded = pendingAdded
        pendingAdded = outerAdded + effects.compactMap { effect in
            if case .noteKeyed(let added, _) = effect { return added }
            return nil
        }
        defer { pendingAdded = outerAdded }
        for effect in effects {
            for outcome in perform(effect) { send(.outcome(outcome)) }
        }
        if case .outcome(.documents(.opened)) = action {
            files.persisted = state.document
            files.journaled = nil
            lastSeen = nil
        }
    }

    /// The id a survey just added from the New form has after its save (`.saving(.instanceIDsAssigned)`
    /// came first). Found by its id when it had one; else by its answers, at or after its place
    /// (a merge with another program's surveys moves it later; a save that failed took it back
    /// out, and an older survey with the same answers is not it). Nil when it is not there.
    private func id(of added: AddedSurvey) -> String? {
        if let sealed = sealedID(of: added.record) { return sealed }
        guard let document = state.document, let found = document.locate(added.record, near: added.near),
              added.record.instanceID != nil || found >= added.near else { return nil }
        return document.records[found].instanceID
    }

    /// Carries out `effect`; its outcomes, in order, are what `send` hands back to `update`.
    /// An effect never calls `send` itself: what it learns on the way (the file followed to
    /// its new name, a journal put back, what the background writer did while the effect
    /// waited for it) is an outcome before the rest.
    private mutating func perform(_ effect: Effect) -> [Outcome] {
        var outcomes: [Outcome] = []
        do {
            return try attempt(effect, noting: &outcomes)
        } catch {
            switch effect {
            case .saveDocument: return outcomes + [.saving(.failed(Self.describe(error)))]
            case .saveDraft: return outcomes + [.saving(.draftFailed(Self.describe(error)))]
            case .keepDeleted, .keepDeletedMember: return outcomes + [.saving(.deletedSurveysNotKept(Self.describe(error)))]
            case .keepUnsavedWork: return outcomes   // stopping anyway: nothing more can be done
            default: return outcomes + [.documents(.operationFailed(Self.describe(error)))]
            }
        }
    }

    /// `noting` collects what the effect learned before it could fail (kept when it throws).
    private mutating func attempt(_ effect: Effect, noting first: inout [Outcome]) throws -> [Outcome] {
        let name = state.documentName
        // `update` refuses these while the document loads; nothing is ever saved from part of it.
        if stream != nil, effect.changesDocument {
            throw DocumentError("\(state.stillLoading): changes are saved once the whole document is read")
        }
        switch effect {
        case .saveDocument:
            sealedAtSave = []
            guard let document = state.document else { return [] }
            var name = state.documentName
            if let moved = followOutsideRename() {
                first.append(.documents(.movedOutside(to: moved)))
                name = moved
            }
            // Never recreate a file deleted or renamed behind our back.
            guard !state.session.documentMissing, let current = store.fingerprint(of: name) else {
                return first + [.documents(.vanished(unreadable: nil, suggestion: name))]
            }
            // With journal entries waiting for the `.plist`, the background writer makes this
            // check before it writes, against the file as it last wrote it.
            if !files.writesPending, current != files.known {
                switch store.load(name) {
                case .success(let reloaded):
                    files.known = current
                    lastSeen = reloaded
                    return first + [.documents(.changedOnDisk(reloaded))]
                case .failure(let error):
                    return first + [.documents(.vanished(unreadable: error.message, suggestion: store.freeName(startingWith: name)))]
                }
            }
            // Records get their id at their document's first save (new ones, and those of
            // files written by the original app or other tools).
            if files.writesPending || current.size >= journalThreshold {
                var identified = document
                let assigned = identified.assignMissingInstanceIDs(after: files.journaled ?? files.persisted ?? SurveyDocument())
                markNewFormBeingStored(in: identified, as: name)
                let base = lastSeen ?? files.journaled ?? files.persisted
                let stamped = stampEntityBases(&identified, since: base)
                // A finished survey of a form with a public_key is written encrypted only (its
                // entity stamp, if any, inside it).
                let sealed = try sealFinishedSurveys(in: &identified, since: base, held: document)
                if try files.append(identified, of: name, in: store) {
                    lastSeen = nil
                    return first + (assigned + sealed.count > 0 || stamped ? [.saving(.instanceIDsAssigned(identified))] : [])
                        + [.saving(.saved(replacedCharacters: 0))] + self.sealed(sealed, in: identified)
                        + recordEntities(of: identified, since: base) + recordHistory(of: identified, since: base)
                }
            }
            var identified = document
            let assigned = identified.assignMissingInstanceIDs()
            markNewFormBeingStored(in: identified, as: name)
            let stamped = stampEntityBases(&identified, since: lastSeen ?? files.persisted)
            let sealed = try sealFinishedSurveys(in: &identified, since: lastSeen ?? files.persisted, held: document)
            switch try store.save(identified, as: name, ifStill: files.known) {
            case .saved(let written, let replaced):
                let base = lastSeen ?? files.persisted
                lastSeen = nil
                files.known = written
                files.writer.setKnown(written)
                files.persisted = identified
                return first + (assigned + sealed.count > 0 || stamped ? [.saving(.instanceIDsAssigned(identified))] : [])
                    + [.saving(.saved(replacedCharacters: replaced))] + self.sealed(sealed, in: identified)
                    + recordEntities(of: identified, since: base) + recordHistory(of: identified, since: base)
            case .changed(let now):
                // Another program saved while this one was being written out: merged as above.
                guard now != nil, case .success(let reloaded) = store.load(name) else {
                    return first + [.documents(.vanished(unreadable: nil, suggestion: name))]
                }
                files.known = now
                lastSeen = reloaded
                return first + [.documents(.changedOnDisk(reloaded))]
            }
        case .saveDraft:
            var name = state.documentName
            if let moved = followOutsideRename() {
                first.append(.documents(.movedOutside(to: moved)))
                name = moved
            }
            // A second window on this document saved its own New form since we last did:
            // keep it as a recovered survey rather than write over it.
            if store.draftFingerprint(for: name) != files.knownDraft {
                let theirs = store.loadDraft(for: name)
                if !theirs.isBlank(in: state.draftQuestionnaire), theirs.answers != state.draft.answers,
                   !newFormFileIsAStoredSurvey(of: name) {
                    var kept: [Outcome] = []
                    // Their photos and audit lines stay: the other window still names them.
                    let file = try keepForRecovery([theirs], for: name, saying: &kept, removingPlaintext: false)
                    first.append(.saving(.otherNewFormKept(title: state.session.title(of: theirs), file: file)))
                    first += kept
                }
            }
            try store.saveDraft(state.draft, for: name, in: state.draftQuestionnaire)
            files.knownDraft = store.draftFingerprint(for: name)
            return first + [.saving(.draftSaved)]
        case .quit:
            // The commit before quitting may just have found the file gone or the disk full:
            // then something exists only in memory, and quitting waits for a confirmation.
            guard !state.holdsUnsavedWork || state.session.leaveConfirmed else { return [.saving(.quitHeldForUnsavedRecords)] }
            stopLoading()
            first += settleWrites(closing: true)
            remember()
            isFinished = true
            return first
        case .listDocuments:
            return [.documents(.listed(try listDocuments()))]
        case .openDocument(let target):
            first += settleWrites(closing: true)
            let recovered = Self.recoverJournal(of: target, in: store)
            let known = store.fingerprint(of: target)
            if let recovered { first.append(.saving(.journalPutBack(recovered))) }
            let opened = Self.open(target, in: store)
            let leftByAnAdd = Self.settleNewFormLeftByAnAdd(of: target, in: store, loaded: opened.loaded, streaming: false)
            files.reopened(known: known, knownDraft: store.draftFingerprint(for: target))
            return first + [.documents(.opened(name: target, loaded: opened.loaded,
                                               draft: leftByAnAdd == nil ? store.loadDraft(for: target) : Record(),
                                    place: memoryURL.map { SessionMemory(url: $0).place(of: target, in: store.folder) },
                                    form: opened.form))]
                + (leftByAnAdd.map { [.saving(.newFormLeftByAnAdd($0))] } ?? [])
        case .createDocument:
            return [.documents(.created(try store.create(named: store.nextUntitledName())))]
        case .renameDocument(let old, let new):
            if old == name { first += settleWrites(closing: true) }
            let final = try store.rename(old, to: new, at: state.environment.clock.now)
            if old == name {
                files.reopened(known: store.fingerprint(of: final), knownDraft: store.draftFingerprint(for: final))
            }
            updateMemory { $0.renamed(old, to: final, in: store.folder) }
            return first + [.documents(.renamed(from: old, to: final))]
        case .deleteDocument(let target, let records):
            // Deleting the only document: its replacement is created first, so a full disk
            // refuses the delete instead of leaving no document to show.
            var replacement: String?
            if target == name { first += settleWrites(closing: true) }
            if target == name, try store.documentNames().count == 1 {
                do {
                    replacement = try store.create(named: store.nextUntitledName())
                } catch {
                    throw DocumentError("Could not delete “\(target)”: a new document to show instead could not be created (\(Self.describe(error))). Nothing was deleted.")
                }
            }
            do {
                try store.delete(target, at: state.environment.clock.now)
            } catch {
                if let replacement { store.removeCreated(replacement) }
                throw error
            }
            updateMemory { $0.forget(document: target, in: store.folder) }
            return first + [.documents(.deleted(name: target, records: records, replacement: replacement))]
        case .restoreDocument:
            return [.documents(.restored(try store.restore(at: state.environment.clock.now)))]
        case .saveDocumentAs(let raw):
            // One atomic create with the records in place: a failure leaves no empty file.
            first += settleWrites(closing: true)
            let newName = try store.create(named: raw, containing: state.document ?? SurveyDocument())
            files.known = store.fingerprint(of: newName)
            files.writer.setKnown(files.known)
            files.persisted = state.document
            try? store.saveDraft(state.draft, for: newName, in: state.draftQuestionnaire)
            files.knownDraft = store.draftFingerprint(for: newName)
            return first + [.documents(.savedAs(newName))]
        case .rememberSession:
            remember()
            return []
        case .keepUnsavedWork:
            let records = state.unsavedRecords
            guard !records.isEmpty else { return [] }
            let kept = try keepForRecovery(records, for: name)
            // The New form is in the recovery (encrypted), all its file holds and more: its file
            // in clear goes, or it would be offered again beside the survey put back.
            if state.questionnaire.form?.publicKey != nil, state.form.showingDraft,
               store.draftFingerprint(for: name) == files.knownDraft {
                try? store.removeDraftSecurely(for: name)
            }
            return kept
        case .buildSearchIndex:
            searchAhead.set("")
            buildSearchIndex(state.records)
            return []
        case .searchAhead(let text):
            searchAhead.set(text)
            return []
        case .finishSearch(let job):
            finishSearch(job)
            return []
        case .cancelSearch:
            jobs.cancel(.search)
            return []
        case .restoreRecovery(let recovery, let theirs):
            // The open document's changes reach its file first: the merge is made on them.
            if recovery.documentName == name { first += settleWrites() }
            let done = try store.restore(recovery, theirsWhereBothChanged: theirs, clock: state.ruleClock)
            let summary = done.merge.summary(into: done.name) + (done.notPutAway.map { ". \($0): it is offered again" } ?? "")
            return first + [.recovery(.restored(into: done.name, summary: summary))]
        case .putAwayRecovery(let recovery, let replaced):
            try store.putAway(recovery, replaced: replaced, at: state.environment.clock.now)
            return [.recovery(.found(store.recoveries()))]
        case .discardRecovery(let recovery):
            try store.discard(recovery)
            return [.recovery(.discarded(count: recovery.records.count))]
        case .keepDeleted(let records):
            try store.appendDeleted(records, for: name, at: state.environment.clock.now)
            return []
        case .keepDeletedMember(let member):
            try store.appendDeletedMember(member, for: name)
            return []
        case .forgetDeleted(let ids):
            try store.removeFromDeleted(ids: ids, for: name)
            return []
        case .lookForRecoveries:
            return [.recovery(.found(store.recoveries()))]
        case .readHistory(let survey):
            return [.documents(.historyRead(document: name, survey: survey, try store.editHistory(for: name, survey: survey).entries))]
        case .readVerification(let thenVerify):
            return [.verify(.read(document: name, try store.verificationLog(for: name), thenVerify: thenVerify))]
        case .noteKeyed(let added, var entry):
            guard let id = id(of: added) else { return [] }
            entry.survey = id
            try store.appendVerification([entry], for: name)
            return []
        case .noteVerification(let entries):
            try store.appendVerification(entries, for: name)
            return []
        case .noteCorrection(let entry, let path, let value):
            guard let survey = state.document?.records.first(where: { $0.instanceID == entry.survey }),
                  survey.value(at: path) == value else { return [] }
            try store.appendVerification([entry], for: name)
            return []
        case .noteAudit(let document, var events, let added):
            // A New form's events take the id its survey got when saved (as `noteKeyed`).
            if let added {
                guard let id = id(of: added) else { return [] }
                for i in events.indices where events[i].survey.isEmpty { events[i].survey = id }
            }
            // A survey the save sealed carries these inside its submission already.
            try store.appendAudit(unsealedAudit(events), for: document)
            return []
        case .readSyncSummary, .resolveConflict, .syncDocument:
            return try attemptSync(effect, noting: &first)
        case .attachFile(let typed):
            // `~/photos/tree.jpg` as a shell reads it.
            var path = typed
            if path.hasPrefix("~/"), let home = ProcessInfo.processInfo.environment["HOME"], !home.isEmpty {
                path = home + path.dropFirst()
            }
            return [.form(.fileAttached(try store.copyAttachment(from: path, for: name)))]
        }
    }

    /// The current file is gone from its name but the same file (inode) is in the folder
    /// under another: another program renamed it. Follow it, with the New form's file, so
    /// nothing is written under the old name where no one would look. Returns the new name
    /// (for `DocumentOutcome.movedOutside`).
    mutating func followOutsideRename() -> String? {
        let name = state.documentName
        guard !state.session.documentMissing, store.fingerprint(of: name) == nil, let known = files.known,
              let moved = store.documentName(sameFileAs: known) else { return nil }
        // `survey docs rename` moves the draft and the deleted surveys too; a plain `mv`
        // leaves them behind.
        if store.draftFingerprint(for: moved) == nil, let ours = files.knownDraft,
           store.draftFingerprint(for: name) == ours {
            try? store.moveDraft(from: name, to: moved)
        }
        // Never over deleted surveys already under the new name (the move refuses to replace).
        try? store.moveDeleted(from: name, to: moved)
        files.known = store.fingerprint(of: moved)
        files.knownDraft = store.draftFingerprint(for: moved)
        return moved
    }

    private mutating func listDocuments() throws -> [DocumentSummary] {
        let names = try store.documentNames()   // a folder that cannot be listed is an error, not "no documents"
        var fresh: [String: (FileFingerprint, DocumentSummary)] = [:]
        let list = names.compactMap { name -> DocumentSummary? in
            guard let fingerprint = store.fingerprint(of: name) else { return nil }
            if let cached = summaryCache[name], cached.0 == fingerprint {
                fresh[name] = cached
                return cached.1
            }
            if fingerprint.size >= Self.backgroundCountThreshold {
                // Counted in the background; shown as "…" until then.
                count(name, fingerprint: fingerprint)
                return DocumentSummary(name: name, recordCount: nil, problem: nil,
                                       modified: Date(timeIntervalSince1970: TimeInterval(fingerprint.modifiedSeconds)),
                                       byteSize: Int(fingerprint.size))
            }
            guard let summary = store.summary(of: name) else { return nil }
            fresh[name] = (fingerprint, summary)
            return summary
        }
        summaryCache = fresh
        return list
    }

    /// Work running off the main thread whose result the screen is waiting for.
    public var hasBackgroundWork: Bool {
        // The writer's own flag, not its lane's count, which drops a moment after the writer
        // says it is idle (`settleWrites` waits for the writer).
        BackgroundJobs.Lane.allCases.contains { $0 != .writing && jobs.isBusy($0) }
            || files.writer.isBusy || stream != nil || mailbox.hasMail
    }

    /// Background work whose result should show as soon as it is ready (the list growing as a
    /// document loads, or narrowing once its `/` index is built): look in often.
    public var isAwaitedSoon: Bool {
        stream != nil || jobs.isBusy(.searchIndex) || jobs.isBusy(.search) || mailbox.hasMail
    }

    /// Takes in what background work finished, each result as actions; true when any was
    /// (draw again). The wake-up descriptor is emptied first, so a result that comes after
    /// this wakes the loop again. The rest of a large document is looked in on at every call
    /// (its parts are taken at most ten times a second, `pollTimeout` keeps the time).
    @discardableResult
    public mutating func collectBackgroundWork() -> Bool {
        // In a fixed order of kinds, each kind in the order it came (a stable sort).
        let mail = mailbox.take().enumerated().sorted { ($0.element.kind, $0.offset) < ($1.element.kind, $1.offset) }.map(\.element)
        lastMail = mail.map(\.kind)
        var handled = takeLoadedPart()
        var counted = false
        for message in mail {
            switch message {
            case .documentPart:
                continue   // taken above, at its own pace
            case .written(let outcome):
                take(outcome).forEach { send(.outcome($0)) }
            case .documentCounted(let name, let fingerprint, let summary):
                counting.remove(name)
                // One that could not be counted is left out until the list reads it again.
                guard let summary else { continue }
                summaryCache[name] = (fingerprint, summary)
                counted = true
            case .searchIndexBuilt(let index):
                send(.outcome(.search(.indexBuilt(index))))
            case .searchFinished(let search):
                send(.outcome(.search(.finished(search))))
            case .sync(let report):
                take(syncReport: report)
            }
            handled = true
        }
        // Every document counted since the last look is shown in one refresh of the list.
        if counted { perform(.listDocuments).forEach { send(.outcome($0)) } }
        return handled
    }

    /// How long the loop may wait for a key before it must look in without being woken: nil
    /// waits for a key or a wake-up alone. Two things keep a timer, each only while it is
    /// needed: a part of a large document left for later (parts are taken ten times a
    /// second, so drawing the growing list does not take the processor from the reading),
    /// and the documents list, refreshed every second while it is open so documents changed
    /// outside the app show up. Without a wake-up descriptor, background work is looked in
    /// on every 50 ms.
    public var pollTimeout: Duration? {
        var timeout: Duration?
        func atMost(_ d: Duration) { timeout = min(timeout ?? d, d) }
        if partDeferred, stream != nil, let last = lastLoadedPart {
            atMost(max(.zero, Self.partInterval - (ContinuousClock.now - last)))
        }
        if state.popover == .documents { atMost(.seconds(1)) }
        if !wake.isAvailable, hasBackgroundWork { atMost(.milliseconds(50)) }
        return timeout
    }

    /// Waits for background work and takes it in (tests).
    public mutating func finishBackgroundWork() {
        finishLoading()
        jobs.waitUntilIdle(.searchIndex)
        // An index taken in may leave a search to finish, whose result is taken in after.
        collectBackgroundWork()
        jobs.waitUntilIdle(.search)
        jobs.waitUntilIdle(.sync)
        settleWrites().forEach { send(.outcome($0)) }
        jobs.waitUntilIdle(.counting)
        collectBackgroundWork()
    }

    /// The state file is a convenience: failing to write it is never an error.
    private func updateMemory(_ change: (inout SessionMemory) -> Void) {
        guard let memoryURL else { return }
        try? SessionMemory.update(at: memoryURL, change)
    }

    private func remember() {
        // The record showing (on the New form, the one highlighted in the list) and the order.
        updateMemory { $0.remember(document: state.documentName, place: state.place, in: store.folder) }
    }

    /// The `deviceid` and `username` a form's metadata asks for: this laptop and login.
    static let device = DeviceMetadata.current()

    static func describe(_ error: Error) -> String {
        if let e = error as? DocumentError { return e.message }
        return PropertyListReader.reason(error)
    }

    public var screen: CellGrid { Screen.render(state) }

    /// The frame, drawn into `grid` (an earlier frame's, reused): the same cells as `screen`.
    public func render(into grid: inout CellGrid) { Screen.render(state, into: &grid) }
}

extension WallClock {
    /// The machine's clock: the one place the app reads the time for its state.
    public static let system = WallClock { Date() }
}
