import FoundationEssentials
import SurveyValues
import SurveyForms

/// The record form's state: what it shows, the highlighted item, the answer being typed.
/// Every setter is private to this file: the features that change the form (typing, Add,
/// Clear, opening a document, a failed save's rollback) do it through the methods below, so
/// the form's rules (a new draft forgets its hidden answers and its start time; a fresh
/// document drops the typing, the scroll and the question) are stated once, here.
public struct FormState: Equatable, Sendable {
    /// The unsent New form.
    public private(set) var draft: Record
    /// The form shows the New form; the list's cursor still remembers the highlighted row.
    public private(set) var showingDraft: Bool
    public private(set) var formItem: AppState.FormItem = .field(EntryNumber(0))
    public private(set) var editing: EditBuffer?
    /// The first row of a long form shown (the highlighted question is kept in view).
    public private(set) var formScroll = 0
    /// Answers of questions a later answer hid, for the record on the form: kept for this
    /// session, not saved (as ODK does), and put back if the question shows again.
    public private(set) var hiddenAnswers = HiddenAnswers()
    /// When the New form's first answer was committed: the form's `start` metadata.
    public private(set) var draftStarted: Date?
    /// Keys pressed (and clicks) on the New form since it was last empty: the keyer
    /// statistics' keystrokes per survey, written when it is added (`Effect.noteKeyed`).
    public private(set) var draftKeys = 0
    /// The form version this New form was started with, when a sync took a newer one while
    /// it was in progress (issue 28): it is finished under that version, its answers keyed
    /// against those questions; nil once it is emptied (added, cleared), and for a New form
    /// under the document's own version. Kept here, with the draft, so a failed save that
    /// puts the New form back puts its version back too.
    public private(set) var draftForm: Questionnaire?
    /// Heads-down entry: [ Add ] on the New form goes straight on to the next empty New
    /// form, editing its first question, instead of showing the survey just added (F5).
    public private(set) var addStartsNextForm = false
    /// Ctrl-N showed a New form that already holds answers: until the next other key, typed
    /// letters are refused instead of landing on the last respondent's answers.
    public private(set) var heldNewFormShown = false
    /// The y/n question about a survey asked on the status line: delete it, add a copy of it,
    /// clear the answers this form version does not ask.
    public private(set) var pendingQuestion: SurveyQuestion?
    /// Which instance of each repeat the form shows (`FormWalk.RepeatHeading.selectionKey`):
    /// the first when unnamed.
    public private(set) var instances: [String: Int] = [:]
    /// The y/n question about a roster of the survey on the form: add another member,
    /// delete the one shown.
    public private(set) var rosterQuestion: RosterQuestion?
    /// What Ctrl-Z can take back on the New form (which has no undo history of its own): the
    /// members deleted from it and the answers Del cleared, the last last, so Ctrl-Z puts
    /// them back one by one, newest first, while that New form is on screen (issue 27: a
    /// second Ctrl-Z brings back the first member deleted).
    public private(set) var draftUndo: [DraftUndo] = []
    /// A path typed into an attachment question, being copied into the media folder: Enter
    /// (or Tab, ↓) goes on once the copy's name is the answer.
    public private(set) var attaching: Attaching?
    /// A member added by hand (^O, `y`) that holds no answer yet: in memory only, never
    /// saved, and dropped once the keyer leaves it empty (`AppState+UnsavedMember`).
    public private(set) var unsavedMember: UnsavedMember?

    init(draft: Record, showingDraft: Bool) {
        self.draft = draft
        self.showingDraft = showingDraft
    }

    // MARK: What is shown and highlighted

    /// The New form (true) or the record the list highlights (false).
    mutating func showDraft(_ showing: Bool) { showingDraft = showing }
    public mutating func highlight(_ item: AppState.FormItem) { formItem = item }
    mutating func scroll(to top: Int) { formScroll = top }

    // MARK: Typing

    mutating func beginEditing(_ buffer: EditBuffer) { editing = buffer }
    mutating func stopEditing() { editing = nil }
    /// A key typed into the field: changed in place, as a copy would duplicate a long value
    /// on every key.
    mutating func editText(_ change: (inout TextInput) -> Void) {
        guard editing != nil else { return }
        change(&editing!.input)
    }

    // MARK: The New form

    /// The New form as it now stands (a committed answer, a paste).
    mutating func setDraft(_ record: Record) { draft = record }
    /// An empty New form: its hidden answers, its start time and its form version go with
    /// the old one.
    mutating func emptyDraft() {
        draft = Record()
        draftForm = nil
        instances = [:]
        draftUndo = []
        draftStarted = nil
        draftKeys = 0
        hiddenAnswers = HiddenAnswers()
        if unsavedMember?.survey == .draft { unsavedMember = nil }
    }
    /// One more key on the New form.
    mutating func countDraftKey() { draftKeys += 1 }
    /// The first answer committed on the New form starts its clock (`start` metadata).
    mutating func startDraftClock(at now: Date) {
        if draftStarted == nil { draftStarted = now }
    }
    /// The New form goes on under `questionnaire`, the version it was started with, while
    /// the document takes a newer one (nil: the document's own again).
    mutating func keepDraftForm(_ questionnaire: Questionnaire?) { draftForm = questionnaire }
    /// `${last-saved#…}` of the New form's own version follows the document too.
    mutating func followLastSaved(_ record: Record?) {
        if let kept = draftForm, kept.readsLastSaved { draftForm = kept.withLastSaved(record) }
    }

    /// Answers a change hid, for the record they belong to.
    mutating func keepHidden(_ answers: HiddenAnswers) { hiddenAnswers = answers }

    /// Another document opened: its New form, nothing typed, hidden, asked or scrolled.
    mutating func reset(draft newDraft: Record) {
        draft = newDraft
        draftForm = nil
        draftStarted = nil
        draftKeys = 0
        hiddenAnswers = HiddenAnswers()
        editing = nil
        formScroll = 0
        pendingQuestion = nil
        instances = [:]
        rosterQuestion = nil
        draftUndo = []
        unsavedMember = nil
    }

    /// The document turned out unreadable (a large one, read in parts): nothing to edit or
    /// ask about, the New form in the record's place. Returns what was typed (changed) and is
    /// dropped now, for the status to say.
    mutating func forgetDocument() -> String? {
        let typed = editing.flatMap { $0.isChanged ? $0.text : nil }
        editing = nil
        pendingQuestion = nil
        showingDraft = true
        return typed
    }

    // MARK: Rosters

    /// The instance of a repeat the form shows.
    mutating func showInstance(_ index: Int, of key: String) { instances[key] = index }
    /// Shows, in each roster `steps` goes through, the member it names.
    mutating func showMembers(_ steps: [AnswerPath.Step]) {
        var parent: [AnswerPath.Step] = []
        for step in steps {
            showInstance(step.index, of: FormWalk.RepeatHeading.selectionKey(parent: parent, name: step.name))
            parent.append(step)
        }
    }

    mutating func askRoster(_ question: RosterQuestion?) { rosterQuestion = question }
    mutating func keepDeletedMember(_ member: DeletedMember) { draftUndo.append(.member(member)) }
    mutating func keepClearedAnswer(_ answer: ClearedAnswer) { draftUndo.append(.answer(answer)) }
    /// The last thing done to the New form that Ctrl-Z takes back, taken off the list.
    mutating func takeDraftUndo() -> DraftUndo? { draftUndo.popLast() }
    mutating func awaitAttachment(_ pending: Attaching?) { attaching = pending }
    mutating func keepUnsavedMember(_ member: UnsavedMember?) { unsavedMember = member }

    // MARK: Heads-down entry and the y/n question

    /// F5: after Add, straight on to the next New form, or show the survey added.
    mutating func toggleAddStartsNextForm() { addStartsNextForm.toggle() }
    /// Ctrl-N showed a New form holding answers (true), or another key was pressed (false).
    mutating func holdNewForm(_ held: Bool) { heldNewFormShown = held }
    /// A y/n question about a survey, or nil when it was answered or dropped.
    mutating func ask(_ question: SurveyQuestion?) { pendingQuestion = question }
}

/// What Ctrl-Z takes back on the New form.
public enum DraftUndo: Equatable, Sendable {
    case member(DeletedMember)
    case answer(ClearedAnswer)
}

/// An answer Del cleared on the New form: where it was and what it held.
public struct ClearedAnswer: Equatable, Sendable {
    public let path: AnswerPath
    public let value: PropertyValue
    public let label: String
    /// The New form just before the clear and just after it: while it is still as the clear
    /// left it, Ctrl-Z brings back the one before whole (what the clear's triggers set too),
    /// firing nothing, as an undo does.
    let before: Record?
    let after: Record?

    init(path: AnswerPath, value: PropertyValue, label: String, before: Record? = nil, after: Record? = nil) {
        self.path = path
        self.value = value
        self.label = label
        self.before = before
        self.after = after
    }
}

/// A member deleted from the New form: where it was and its answers.
public struct DeletedMember: Equatable, Sendable {
    public let steps: [AnswerPath.Step]
    public let answers: [String: PropertyValue]
    public let label: String
}

/// A member added by hand and not stored yet: which survey and member, and the survey as it
/// was before the add (`before`, what its file holds) and right after it (`added`), so that
/// leaving it empty puts the survey back exactly and an undo never brings back an empty one.
public struct UnsavedMember: Equatable, Sendable {
    public let survey: AppState.Shown
    public let steps: [AnswerPath.Step]
    public let before: Record
    public let added: Record
    /// "Household member", for the status line.
    public let label: String
}

/// The attachment question whose typed path is being copied, and how the key that committed
/// it goes on: `advance` (Enter), `move` (Tab, ↓, ↑ with their wrap), or nothing.
public struct Attaching: Equatable, Sendable {
    public enum Then: Equatable, Sendable { case stay, advance, move(Int, wrap: Bool) }
    public let entry: EntryNumber
    public let then: Then
}
