import SurveyValues
import SurveyForms

/// A large document opened before all of it is read: its first records are shown and can be
/// browsed while `Program` adds the rest as it arrives (`DocumentStream`). Until the end,
/// the document is only part of the file, so nothing may be saved from it: any action that
/// would change the document or leave it is refused with the reason, and the state stays as
/// it was before the key, typed text included, to be kept once the whole document is in.
/// The New form is its own file and stays usable.
public struct DocumentLoading: Equatable, Sendable {
    /// How much of the file is read, 0 to 100.
    public var percent: Int
    /// The place the session memory remembered, while its record is not read yet.
    var place: SessionPlace?
    /// Where the highlight was put meanwhile: once the user moves, the place is forgotten.
    var placeholder: AppState.Shown?

    public init(percent: Int) {
        self.percent = percent
    }
}

extension AppState {
    /// "Still loading… (43%)"
    public var stillLoading: String { "Still loading… (\(session.loading?.percent ?? 100)%)" }

    /// What the status line says while nothing else is said: how far the reading is.
    public var loadingRemark: StatusMessage? {
        session.loading.map { .init("Loading… \($0.percent)%: \(counted(recordCount, "survey")) so far") }
    }

    /// `update` while the document loads. Sorting and finding wait (each part read would
    /// sort or search everything again). Any other action runs on a copy; if it would change
    /// the document or its file, or leave it, the copy is dropped and the status says why.
    mutating func updateWhileLoading(_ action: Action) -> [Effect] {
        switch action {
        case .outcome(.loading(.partLoaded)), .outcome(.loading(.ended)), .outcome(.loading(.launched)), .outcome(.saving(.journalPutBack)),
             .outcome(.saving(.newFormLeftByAnAdd)):
            return transition(&self, action)
        case .list(.beginFilter), .list(.cycleSortKey), .list(.toggleSections):
            statusLine.warn("\(stillLoading): finding and sorting work once the whole document is read")
            return []
        default:
            break
        }
        var trial = self
        let effects = transition(&trial, action)
        // Refused by what it would do to the file, and, should a change ever come without
        // a save, by what it did to the surveys (the same chunks: about a hundred compares).
        let unchanged = trial.document?.records.isSameStorage(as: document?.records ?? []) ?? (document == nil)
        if unchanged, !effects.contains(where: \.changesDocument) {
            self = trial
            return effects
        }
        // A question asked on the status line is answered by this refusal.
        form.ask(nil)
        statusLine.warn("\(stillLoading): changes are saved once the whole document is read")
        return []
    }
}

extension AppState {
    /// The first document opened, and a large one read in parts (`Outcome.loading`).
    mutating func reduce(_ outcome: LoadOutcome) -> [Effect] {
        switch outcome {
        case .launched(let launch):
            // What the runner found while opening the first document (`Launch`). A large
            // document shows its first part; `place`, if its record is not read yet, is
            // restored when it is (unless the user has moved by then).
            environment.documentFolder = launch.folder
            environment.device = launch.device
            if let place = launch.place { restorePlace(place) }
            if let percent = launch.loadingPercent {
                let awaited = launch.place.flatMap { $0.isShown(shown, in: records) ? nil : $0 }
                session.beginLoading(percent: percent, awaiting: awaited, shownMeanwhile: awaited == nil ? nil : shown)
            }
            if let message = launch.journalMessage { statusLine.tell(message) }
        case .identifyRecordsFoundWithoutIDs(let place):
            identifyRecordsInPlace()
            if let place, place.recordID != nil { restorePlace(place) }
        case .partLoaded(let more, let percent):
            guard session.loaded(percent: percent), !more.isEmpty else { break }
            // Added after those shown (through `document`, so the list shows them at once); the
            // place the session memory named is shown once read, unless the user moved or types.
            let start = recordCount
            document?.records.append(contentsOf: more)
            if editing == nil, let index = session.findAwaitedPlace(from: start, shown: shown) { showRecord(index) }
        case .ended(let end):
            // The whole document is read: it stays as shown (every record was added), is
            // replaced by the whole file as `load` reads it (the same record stays highlighted),
            // or turns out unreadable, shown as a document that failed to load is.
            let place = editing == nil ? session.awaitedPlace(shown: shown) : nil
            let unreadable: String? = if case .failed(let message) = end { message } else { nil }
            session.endLoading(unreadable: unreadable)
            if status?.text.hasPrefix("Still loading") == true { statusLine.clear() }
            switch end {
            case .complete:
                break
            case .replaced(let whole):
                takeMergedDocument(whole)
            case .failed:
                // No records, nothing to edit, no popover over the surveys.
                let typed = form.forgetDocument()
                list.forgetRecords(toTop: true)
                document = nil
                screen.showForm(focused: true)
                popovers.closeSurveyViews()
                if let typed { statusLine.warn("“\(typed)” was not kept: \(documentName).plist turned out unreadable") }
            }
            if let place, document != nil { restorePlace(place) }
        }
        return []
    }
}

extension SessionPlace {
    /// Whether `shown` already is the remembered record (by id, else by position: a place
    /// without a record is there at once).
    func isShown(_ shown: AppState.Shown, in records: RecordList) -> Bool {
        guard let id = recordID else { return record.map { $0 < records.count } ?? true }
        guard case .record(let i) = shown else { return false }
        return records[i].instanceID == id
    }
}
