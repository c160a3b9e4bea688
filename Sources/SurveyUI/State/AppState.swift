import FoundationEssentials
import SurveyValues
import SurveyForms

/// The whole app as one value: everything a frame is drawn from and every key acts on.
/// After launch `update` is its only writer, so a test can state the exact state after
/// each action.
public struct AppState: Equatable, Sendable {
    public enum Focus: Equatable, Sendable { case list, form }
    /// Only one popover is ever open; opening one replaces any other.
    public enum Popover: Equatable, Sendable {
        case list
        case help
        /// The document manager (F3); its cursor and rename field are in `manager`.
        case documents
        /// "Delete NAME (N records)?"
        case confirmDelete(name: String, records: Int?)
        /// The current document vanished from disk: offer to save its records under a name.
        case saveAs(TextInput)
        /// Surveys kept by an earlier session that could not save them: put back or discard.
        case recovery(Recovery)
        /// The choices of a choice question, to pick from (see `ChoicePicker`).
        case picker(ChoicePicker)
        /// Ctrl-G: the interview as a tree, to go to a question (see `InterviewTree`).
        case tree(InterviewTree)
        /// Verify mode: a survey keyed again from paper (see `VerifySession`).
        case verify(VerifySession)
        /// Who is keying, or why a stored survey is changed (the audit log's prompts); indirect:
        /// a reason's prompt holds the change it waits for, and that, what was open.
        indirect case audit(AuditPrompt)
    }
    /// What fills the form's place: the record form, or facts about the document (F4).
    public enum Detail: Equatable, Sendable { case form, info, conflicts }
    /// What the form shows: a stored record, or the unsent New form (the draft).
    public enum Shown: Equatable, Sendable { case record(Int), draft }
    /// The highlighted item of the form, in Tab order: the fields, then Clear, then Add.
    public enum FormItem: Equatable, Sendable { case field(FormWalk.EntryNumber), clear, add }

    public struct StatusMessage: Equatable, Sendable {
        public enum Kind: Equatable, Sendable { case info, error }
        public var text: String
        public var kind: Kind
        public init(_ text: String, kind: Kind = .info) { self.text = text; self.kind = kind }
    }

    /// What to put back when a save fails, so nothing the user typed is lost: the records
    /// and the list's highlight, and the form, the screen and the popovers whole, as they
    /// were before the change. The rest of the session (undo, the file's condition, why the
    /// save failed) and the list's filter and order go on.
    struct Rollback: Equatable, Sendable {
        var document: SurveyDocument
        var listCursor: Int
        var form: FormState
        var screen: ScreenState
        var popovers: PopoverState
        /// What the file held before the change, where it differs from `document`: a member
        /// added by hand is in memory only until its first answer (`UnsavedMember`), so the
        /// undo step of that answer, and a merge with another program's change, start from
        /// the survey without it.
        var fileBase: SurveyDocument? = nil

        /// The document the change started from on disk (`fileBase`, else `document`).
        var documentOnDisk: SurveyDocument { fileBase ?? document }
    }

    // The app's state is these ten sub-states (TCA's scoped state), each documented where
    // it is declared. Nine of the fields used most keep their old names through the
    // forwarding properties of `AppState+Fields.swift`.

    /// What the runtime supplies: the clock, the time zone, this machine, the folder.
    public var environment: AppEnvironment
    /// The document open: its records, its form, its file's condition, undo and saving.
    public var session: DocumentSession
    /// Filter, order, the projection the list shows and its highlighted row (see `SurveyListState`).
    public var list = SurveyListState()
    /// The record form: what it shows, the highlighted item, the answer being typed.
    public var form: FormState
    /// The audit log being gathered, for a form with an `audit` row (`AppState+Audit`).
    public var audit = AuditTrail()
    /// The open popover, and the one help was opened over.
    public var popovers = PopoverState()
    /// The status line: what the last action did, why something did not happen, or a y/n
    /// question (`StatusLineState`); any user input but F1 clears it (`Action.clearsStatus`).
    public var statusLine = StatusLineState()
    /// The terminal's size, the split, which pane has the focus, form or info.
    public var screen: ScreenState
    /// The document manager's list as last read from disk, its highlight and rename field.
    public var manager = DocumentManagerState()
    /// Caches views read from, kept between frames (references: never compared, never
    /// rolled back): the form's rules' answers for the record on the form (`FormRuleCache`),
    /// the five-field form's geometry. Copies share them; a test gives a copy fresh ones to
    /// draw it with nothing remembered.
    var caches = ViewCaches()
    /// The titles (or rule marks) of the list rows on screen, worked out after every action
    /// (`keepShownListRows`) and only read by drawing; never compared.
    var shownListRows = ShownListRows()
    /// What a failed save puts back, while a save is in flight.
    var rollback: Rollback?

    /// What the form shows, derived from the list's cursor and `form.showingDraft`. Setting
    /// a record moves the list highlight to it.
    public var shown: Shown {
        get { form.showingDraft || !records.indices.contains(list.rows.cursor) ? .draft : .record(list.rows.cursor) }
        set {
            switch newValue {
            case .record(let i):
                list.select(i)
                form.showDraft(false)
            case .draft:
                form.showDraft(true)
            }
        }
    }

    public init(documentName: String,
                loaded: Result<SurveyDocument, DocumentError>,
                draft: Record = Record(),
                size: Size,
                splitWidth: Int = 80,
                questionnaire: Questionnaire = .standard,
                formTrouble: FormTrouble? = nil,
                environment: AppEnvironment) {
        self.environment = environment
        var session = DocumentSession(questionnaire: questionnaire, documentName: documentName, formTrouble: formTrouble,
                                      loadError: { if case .failure(let error) = loaded { error.message } else { nil } }())
        // The list is refreshed below.
        session.document = try? loaded.get()
        session.followLastSaved()
        self.session = session
        let count = session.document?.records.count ?? 0
        self.form = FormState(draft: draft, showingDraft: count == 0)
        self.screen = ScreenState(size: size, splitWidth: splitWidth)
        self.rollback = nil
        // The list takes the focus in the split layout, unless it is empty: then there is
        // nothing to browse and the first key should start the first survey.
        self.screen.moveFocus(to: layout.isSplit && count > 0 ? .list : .form)
        self.list = SurveyListState(names: ListNames(questionnaire))
        self.list.refresh(records)
        if questionnaire.form != nil { self.form.highlight(firstFormItem) }
    }

    /// The status line's message, if any.
    public var status: StatusMessage? { statusLine.message }

    // MARK: Derived facts

    public var records: RecordList { document?.records ?? [] }
    public var recordCount: Int { records.count }
    public var layout: Layout { Layout(size: size, splitWidth: screen.splitWidth, status: status?.text) }
    /// Whether the layout is split, without laying it out (asked on every key and frame).
    public var isSplit: Bool { Layout.isSplit(size: size, splitWidth: screen.splitWidth) }

    /// The record on the form: the shown record, or the draft.
    public var formRecord: Record {
        switch shown {
        case .record(let i): return records[i]
        case .draft: return draft
        }
    }

    /// The form as the screen walks it: the fields, and each roster's heading and the
    /// instance shown (`FormWalk`). `FormItem.field(i)` and `EditBuffer.fieldIndex` count
    /// its entries; for a flat form they are the fields themselves.
    public var outline: FormWalk {
        guard questionnaire.form != nil else { return FormWalk(flat: questionnaire, relevance: formRelevance) }
        return caches.ruleCache.outline(questionnaire, formRecord, ruleClock, selection: form.instances)
    }

    /// The form as a frame reads it: its rows, answers and geometry (`ShownForm`).
    public var shownForm: ShownForm { ShownForm(self) }

    /// `N of M` for a record, `New` for the draft.
    public var positionTitle: String {
        switch shown {
        case .record(let i):
            // Counted in the list as shown, so a filter's `N of M` agrees with ←/→.
            guard let position = list.projection.position(ofRecord: i) else { return "\(i + 1) of \(recordCount), filtered out" }
            return "\(position + 1) of \(list.projection.count)" + (session.loading == nil && !list.isMatching ? "" : "…")
        case .draft: return "New"
        }
    }

    /// The clock the form's expressions read.
    public var ruleClock: Questionnaire.Clock { Questionnaire.Clock(now: environment.clock.now, timeZone: environment.timeZone) }

    /// Which keys apply right now; decides both what a key does and what the key bar shows.
    public var inputMode: InputMode {
        // The y/n question on the status line takes the keys wherever it was asked.
        switch form.pendingQuestion {
        case .delete: return .confirmingRecordDelete
        case .copy: return .confirmingRecordCopy
        case .duplicate: return .confirmingDuplicate
        case .clearNotAsked: return .confirmingAnswersClear
        case nil: break
        }
        if form.rosterQuestion != nil { return .confirmingRoster }
        switch popover {
        case .help: return .help
        case .list: return list.filterInput != nil ? .filtering : .listPopover
        case .documents: return manager.renaming == nil ? .documents : .renamingDocument
        case .confirmDelete: return .confirmingDelete
        case .saveAs: return .namingDocument
        case .recovery: return .offeringRecovery
        case .picker: return .picking
        case .tree: return .goingTo
        case .verify: return .verifying
        case .audit: return .auditPrompt
        case nil: break
        }
        if document == nil { return .unreadable }
        if list.filterInput != nil { return .filtering }
        if editing != nil { return .formEditing }
        if screen.focus == .list && isSplit { return .listPane }
        if screen.detail == .info { return .documentInfo }
        if screen.detail == .conflicts { return .conflicts }
        return rosterHeadingHere == nil ? .formBrowsing : .rosterBrowsing
    }
}

/// The binding sets of the key table. A mode's raw value is its bit in `InputModes` and its
/// place in `allCases` (declaration order; fewer than 64 modes).
public enum InputMode: UInt8, Equatable, Hashable, Sendable, CaseIterable {
    case listPane, listPopover, formBrowsing, formEditing, help, unreadable
    case documents, renamingDocument, confirmingDelete, namingDocument, documentInfo, offeringRecovery
    case filtering, confirmingRecordDelete, confirmingRecordCopy, confirmingAnswersClear, picking
    /// Browsing the form with the highlight on a roster's heading or inside its member:
    /// the form's keys, and PgUp/PgDn, ^O, ^D for the members.
    case rosterBrowsing
    /// The conflicts a sync kept (F4, then `c`): mine or theirs, field by field.
    case conflicts
    /// "Add another Household member? y/n", "Delete … ? y/n"
    case confirmingRoster
    /// Ctrl-G's tree of the interview: move, narrow by typing, Enter goes there.
    case goingTo
    /// "Survey 3 has the same plot_id 12: add this one too? y/n"
    case confirmingDuplicate
    /// Verify mode: typing an answer again from paper.
    case verifying
    /// The audit log's prompt: who is keying, or why a stored survey is changed.
    case auditPrompt
}

/// A y/n question about one survey (a document index), asked on the status line; `y`
/// carries it out, `n` or Esc keeps the survey as it is.
public enum SurveyQuestion: Equatable, Sendable {
    /// "Delete “Last, First”? y/n"
    case delete(Int)
    /// "Add a copy of “Last, First” as another survey? y/n": [ Add ] on a stored survey.
    case copy(Int)
    /// "Clear N answers this form version does not ask? y/n" (F4), naming the keys.
    case clearNotAsked(Int, keys: [String])
    /// "Survey 3 has the same plot_id 12: add this one too? y/n": [ Add ] of a New form whose
    /// ID items (the form's `id_items`) another survey, at the index, already has.
    case duplicate(Int)

    /// The document index of the survey asked about.
    public var index: Int {
        switch self {
        case .delete(let i), .copy(let i), .clearNotAsked(let i, _), .duplicate(let i): i
        }
    }

    /// The same question about the survey now at `index`.
    func moved(to index: Int) -> SurveyQuestion {
        switch self {
        case .delete: .delete(index)
        case .copy: .copy(index)
        case .clearNotAsked(_, let keys): .clearNotAsked(index, keys: keys)
        case .duplicate: .duplicate(index)
        }
    }
}

/// Answers a later answer hid, for one record (by its id, or the New form): another record
/// on the form starts with none.
public struct HiddenAnswers: Equatable, Sendable {
    public var owner: String?
    public var values: [String: PropertyValue] = [:]
    public init(owner: String? = nil, values: [String: PropertyValue] = [:]) {
        self.owner = owner
        self.values = values
    }

    /// The answers hidden for `owner` (none when they are another record's).
    func values(for owner: String) -> [String: PropertyValue] { self.owner == owner ? values : [:] }
}
