import Foundation
import SurveyModel

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
        case saveAs(EditBuffer)
        /// Surveys kept by an earlier session that could not save them: put back or discard.
        case recovery(Recovery)
        /// The choices of a choice question, to pick from (see `ChoicePicker`).
        case picker(ChoicePicker)
    }
    /// What fills the form's place: the record form, or facts about the document (F4).
    public enum Detail: Equatable, Sendable { case form, info }
    /// What the form shows: a stored record, or the unsent New form (the draft).
    public enum Shown: Equatable, Sendable { case record(Int), draft }
    /// The highlighted item of the form, in Tab order: the fields, then Clear, then Add.
    public enum FormItem: Equatable, Sendable { case field(Int), clear, add }

    public struct StatusMessage: Equatable, Sendable {
        public enum Kind: Equatable, Sendable { case info, error }
        public var text: String
        public var kind: Kind
        public init(_ text: String, kind: Kind = .info) { self.text = text; self.kind = kind }
    }

    /// What to put back when a save fails, so nothing the user typed is lost.
    struct Rollback: Equatable, Sendable {
        var document: SurveyDocument
        var draft: Record
        var showingDraft: Bool
        var listCursor: Int
        var editing: EditBuffer?
        var formItem: FormItem
        var focus: Focus
        var popover: Popover?
        var detail: Detail
    }

    public var questionnaire: Questionnaire
    public var documentName: String
    /// nil when the file could not be read: then `loadError` says why and nothing is saved.
    public var document: SurveyDocument? {
        didSet { list.refresh(records) }
    }
    /// Filter, order and the projection the list shows (see `SurveyListState`).
    public var list = SurveyListState()
    /// The titles of the rows on screen, kept between frames (see `ListTitles`).
    let listTitles = ListTitles()
    /// Set while the rest of a large document is still being read: `document` then holds
    /// the records read so far, and nothing may change it (see `AppState+Loading`).
    public var loading: DocumentLoading?
    public var loadError: String?
    /// Set when the document's form cannot be used (it has errors, or is missing): its
    /// surveys are shown as stored and nothing may change them (`AppState+ReadOnly`).
    public var formTrouble: FormTrouble?
    public var draft: Record
    /// The highlighted row of the list; the form shows that record unless `showingDraft`.
    /// Kept as one index plus a flag (not a separate "shown record") so the list highlight
    /// and the form can never disagree.
    public var listCursor: Int
    /// The form shows the New form; `listCursor` still remembers the highlighted row.
    public var showingDraft: Bool
    /// What the form shows, derived from the two above. Setting a record moves the list
    /// highlight to it.
    public var shown: Shown {
        get { showingDraft || !records.indices.contains(listCursor) ? .draft : .record(listCursor) }
        set {
            switch newValue {
            case .record(let i):
                listCursor = i
                showingDraft = false
            case .draft:
                showingDraft = true
            }
        }
    }
    public var listScroll: Int
    public var focus: Focus
    public var formItem: FormItem
    public var editing: EditBuffer?
    public var popover: Popover?
    public var status: StatusMessage?
    public var size: Size
    public var splitWidth: Int
    public var detail: Detail = .form
    /// The document manager's list as last read from disk, and its highlight and rename field.
    public var documents: [DocumentSummary] = []
    public var manager = DocumentManagerState()
    /// Where the documents live, for the info view.
    public var documentFolder: String = ""
    /// Set when the current file was deleted or renamed outside the app: never recreated
    /// behind the user's back.
    public var documentMissing = false
    /// Why, when the file is still there but another program made it unreadable.
    public var missingReason: String?
    /// The name the save-as box offers: the document's own when its file is gone, a free
    /// one ("Farm 2") when an unreadable file still holds the name.
    public var saveAsSuggestion: String?
    /// The user was warned that leaving loses the in-memory records, and may now leave.
    public var leaveConfirmed = false
    /// Why the last save failed, until a save succeeds: while the entry it put back on the
    /// form is still there, that entry exists only in memory and quitting asks first.
    public var lastSaveError: String?
    /// Ctrl-N showed a New form that already holds answers: until the next other key, typed
    /// letters are refused instead of landing on the last respondent's answers.
    public var heldNewFormShown = false
    /// The y/n question about a survey asked on the status line: delete it, add a copy of it,
    /// clear the answers this form version does not ask.
    public var pendingQuestion: SurveyQuestion?
    /// Changes to step back and forth through, and what the save in flight will add to them.
    public var history = UndoHistory()
    var pendingChange: PendingChange?
    /// The list popover or documents list F1 was pressed over: help describes it, and
    /// closing help returns to it.
    public var popoverUnderHelp: Popover?
    /// Time zone for dates shown on screen (tests pin it).
    public var timeZone: TimeZone = .current
    /// The moment `today()`, `now()` and the `start`/`end` metadata read; nil is the real
    /// clock (tests pin it).
    public var pinnedNow: Date?
    /// The first row of a long form shown (the highlighted question is kept in view).
    public var formScroll = 0
    /// Answers of questions a later answer hid, for the record on the form: kept for this
    /// session, not saved (as ODK does), and put back if the question shows again.
    public var hiddenAnswers = HiddenAnswers()
    /// When the New form's first answer was committed: the form's `start` metadata.
    public var draftStarted: Date?
    /// Heads-down entry: [ Add ] on the New form goes straight on to the next empty New
    /// form, editing its first question, instead of showing the survey just added (F5).
    public var addStartsNextForm = false
    /// The `deviceid` metadata a form may ask for.
    public var deviceID = ""
    /// The form's rules' answers for the record on the form, remembered (see FormRuleCache).
    let ruleCache = FormRuleCache()
    var rollback: Rollback?

    public init(documentName: String,
                loaded: Result<SurveyDocument, DocumentError>,
                draft: Record = Record(),
                size: Size,
                splitWidth: Int = 80,
                questionnaire: Questionnaire = .standard,
                formTrouble: FormTrouble? = nil) {
        self.questionnaire = questionnaire
        self.formTrouble = formTrouble
        self.documentName = documentName
        switch loaded {
        case .success(let doc):
            self.document = doc
            self.loadError = nil
        case .failure(let error):
            self.document = nil
            self.loadError = error.message
        }
        self.draft = draft
        let count = document?.records.count ?? 0
        self.showingDraft = count == 0
        self.listCursor = 0
        self.listScroll = 0
        self.size = size
        self.splitWidth = splitWidth
        self.formItem = .field(0)
        self.editing = nil
        self.popover = nil
        self.status = nil
        self.rollback = nil
        // The list takes the focus in the split layout, unless it is empty: then there is
        // nothing to browse and the first key should start the first survey.
        self.focus = .form
        self.focus = layout.isSplit && count > 0 ? .list : .form
        self.list.names = ListNames(questionnaire)
        self.list.refresh(records)
        if questionnaire.form != nil { self.formItem = firstFormItem }
    }

    // MARK: Derived facts

    public var records: RecordList { document?.records ?? [] }
    public var recordCount: Int { records.count }
    public var layout: Layout { Layout(size: size, splitWidth: splitWidth, status: status?.text) }

    /// The record on the form: the shown record, or the draft.
    public var formRecord: Record {
        switch shown {
        case .record(let i): return records[i]
        case .draft: return draft
        }
    }

    /// Text displayed in a field: the edit buffer for the field being typed, else the stored value.
    public func fieldText(_ index: Int) -> String {
        if let editing, editing.fieldIndex == index { return editing.text }
        return formRecord.text(for: questionnaire.fields[index])
    }

    /// What a field shows when it is not being typed: the stored answer (a choice by its
    /// label), a New form's default (dimmed, not yet an answer), or why a row is not asked.
    public func displayedAnswer(_ index: Int) -> (text: String, placeholder: Bool) {
        let field = questionnaire.fields[index]
        let value = formRecord[field.key]
        switch field.kind {
        case .notCollected: return ("(not collected here)", true)
        case .choice:
            guard case .string(let names)? = value else { break }
            let labels = names.split(separator: " ").map { field.choiceLabels[String($0)] ?? String($0) }
            return (labels.joined(separator: ", "), false)
        default: break
        }
        if value == nil, shown == .draft, let text = questionnaire.defaultText(index, in: formRecord, clock: ruleClock) { return (text, true) }
        return (fieldText(index), false)
    }

    /// `N of M` for a record, `New` for the draft.
    public var positionTitle: String {
        switch shown {
        case .record(let i):
            // Counted in the list as shown, so a filter's `N of M` agrees with ←/→.
            guard let position = list.projection.position(ofRecord: i) else { return "\(i + 1) of \(recordCount), filtered out" }
            return "\(position + 1) of \(list.projection.count)" + (loading == nil ? "" : "…")
        case .draft: return "New"
        }
    }

    /// The clock the form's expressions read.
    public var ruleClock: Questionnaire.Clock { Questionnaire.Clock(now: pinnedNow ?? Date(), timeZone: timeZone) }

    /// Which keys apply right now; decides both what a key does and what the key bar shows.
    public var inputMode: InputMode {
        // The y/n question on the status line takes the keys wherever it was asked.
        switch pendingQuestion {
        case .delete: return .confirmingRecordDelete
        case .copy: return .confirmingRecordCopy
        case .clearNotAsked: return .confirmingAnswersClear
        case nil: break
        }
        switch popover {
        case .help: return .help
        case .list: return list.filterInput != nil ? .filtering : .listPopover
        case .documents: return manager.renaming == nil ? .documents : .renamingDocument
        case .confirmDelete: return .confirmingDelete
        case .saveAs: return .namingDocument
        case .recovery: return .offeringRecovery
        case .picker: return .picking
        case nil: break
        }
        if document == nil { return .unreadable }
        if list.filterInput != nil { return .filtering }
        if editing != nil { return .formEditing }
        if focus == .list && layout.isSplit { return .listPane }
        if detail == .info { return .documentInfo }
        return .formBrowsing
    }
}

/// The document manager's own state: which row is highlighted, its scroll, and the inline
/// rename field while one is open.
public struct DocumentManagerState: Equatable, Sendable {
    /// The highlighted document, by name, so a refresh that adds or removes rows keeps it.
    public var highlighted: String?
    public var scroll = 0
    public var renaming: EditBuffer?
    public init() {}
}

/// The binding sets of the key table.
public enum InputMode: Equatable, Hashable, Sendable, CaseIterable {
    case listPane, listPopover, formBrowsing, formEditing, help, unreadable
    case documents, renamingDocument, confirmingDelete, namingDocument, documentInfo, offeringRecovery
    case filtering, confirmingRecordDelete, confirmingRecordCopy, confirmingAnswersClear, picking
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
}
