import FoundationEssentials
import SurveyValues
import SurveyForms

/// The screen: the terminal's size, the split, which pane has the focus, form or info.
/// Setters private to this file: features move the focus and switch form and info through
/// these methods; keeping the focus legal for the layout is `resize(to:)`'s (and, with the
/// popovers, `AppState.resize(to:)`'s).
public struct ScreenState: Equatable, Sendable {
    public private(set) var size: Size
    public private(set) var splitWidth: Int
    public private(set) var focus: AppState.Focus = .form
    public private(set) var detail: AppState.Detail = .form

    init(size: Size, splitWidth: Int) {
        self.size = size
        self.splitWidth = splitWidth
    }

    mutating func moveFocus(to pane: AppState.Focus) { focus = pane }

    /// The record form in its place (not F4's facts or the conflicts), and, `focused`, with
    /// the focus: where keying starts.
    mutating func showForm(focused: Bool) {
        detail = .form
        if focused { focus = .form }
    }

    /// F4: facts about the document in the form's place, or the form again. The list pane
    /// keeps the focus it had in the split layout; otherwise the facts take it. Returns what
    /// the facts shown need read: the folder, the sync ledger, the verification record, and
    /// what was changed in the survey shown (`survey`, its id), by whom and why.
    mutating func toggleInfo(split: Bool, survey: String?) -> [Effect] {
        detail = detail == .form ? .info : .form
        guard detail == .info else { return [] }
        focus = split && focus == .list ? .list : .form
        return [.listDocuments, .readSyncSummary, .readVerification(thenVerify: false)] + (survey.map { [.readHistory(survey: $0)] } ?? [])
    }


    /// `c` on F4's facts: the conflicts a sync kept; Esc (or none left): the facts again.
    mutating func showConflicts(_ shown: Bool) {
        if shown { detail = .conflicts } else if detail == .conflicts { detail = .info }
    }

    /// The terminal's new size. Collapsed, there is no list pane to have the focus: the form
    /// takes it (the list popover, where the `/` line may need it, is `AppState.resize`'s).
    mutating func resize(to newSize: Size) {
        size = newSize
        if focus == .list, Layout(size: size, splitWidth: splitWidth).kind == .collapsed { focus = .form }
    }
}

/// The popover open (only one ever is), and the list popover or documents list F1 was
/// pressed over: help describes it, and closing help returns to it. The rule "one popover at
/// a time" is stated here once: the setters are private to this type, so every feature opens
/// and closes popovers through these methods.
public struct PopoverState: Equatable, Sendable {
    public private(set) var open: AppState.Popover?
    public private(set) var underHelp: AppState.Popover?
    /// A popover that appears unasked (kept surveys, over someone keying heads-down) takes no
    /// choice before this moment: keys that were typing are not taken as an answer.
    public private(set) var choicesHeldUntil: Date?
    /// The first line F1's help shows: it scrolls when the keys are more than the screen
    /// holds (issue 30: at 80x24 the form's last keys were cut off, with no way to see them).
    public private(set) var helpScroll = 0
    public init() {}

    /// Opens `popover` in place of whatever was open: never two at once. Also how an open
    /// popover's own state (the picker's filter, the save-as box) is written back. A popover
    /// that appears unasked is opened `holdingChoicesUntil` a moment (and presented again so
    /// holds them anew, after a key it refused); any other opening lets go of the hold.
    public mutating func present(_ popover: AppState.Popover, holdingChoicesUntil moment: Date? = nil) {
        if popover != open, popover != .help { underHelp = nil }
        if popover != open || moment != nil { choicesHeldUntil = moment }
        open = popover
    }

    /// A key typed into the open popover's text box (the audit prompt, verify mode's answer,
    /// the save-as name), presented again as it left it; false when the open one has none.
    mutating func editText(_ change: (inout TextInput) -> Void) -> Bool {
        switch open {
        case .audit(var prompt):
            change(&prompt.input)
            present(.audit(prompt))
        case .verify(var verify):
            verify.edit(change)
            present(.verify(verify))
        case .saveAs(var buffer):
            change(&buffer)
            present(.saveAs(buffer))
        default:
            return false
        }
        return true
    }

    /// Whether a key on the save-as box that appeared unasked (the file vanished) comes too
    /// soon after it, or after a key it refused (`choicesHeldUntil`): then it is not typed,
    /// and the hold starts again from `now`. Esc (not now) never comes here: it is always taken.
    mutating func refusesNamingKey(at now: Date, holdingFor hold: TimeInterval) -> Bool {
        guard case .saveAs? = open, let until = choicesHeldUntil, now < until else { return false }
        present(open!, holdingChoicesUntil: now.addingTimeInterval(hold))
        return true
    }

    /// The document turned out unreadable: what shows or acts on its surveys (the list,
    /// the picker, the tree, verify) closes; help, the documents and an offer stay.
    mutating func closeSurveyViews() {
        switch open {
        case .list?, .picker?, .tree?, .verify?: dismiss()
        default: break
        }
    }

    /// Closes whatever is open, help and what it was opened over alike.
    public mutating func dismiss() {
        open = nil
        underHelp = nil
        choicesHeldUntil = nil
    }

    /// F1: help over the list popover or the documents list explains that list, and closing
    /// help goes back there; over anything else, closing help closes it all.
    mutating func showHelp() {
        underHelp = open.flatMap { $0 == .list || $0 == .documents ? $0 : nil }
        open = .help
        helpScroll = 0
    }

    /// ↑/↓, PgUp/PgDn, Home/End in help: `delta` lines on, kept within the `most` there is to
    /// scroll (Home/End's `Int.min`/`Int.max` stop at the ends).
    mutating func scrollHelp(by delta: Int, most: Int) {
        let (line, overflow) = helpScroll.addingReportingOverflow(delta)
        helpScroll = min(max(0, overflow ? (delta > 0 ? most : 0) : line), most)
    }

    /// y on "Delete NAME (N records)?": back to the documents list, and the delete asked of
    /// the runtime; nil when that is not the question open.
    mutating func confirmDelete() -> Effect? {
        guard case .confirmDelete(let name, let records) = open else { return nil }
        present(.documents)
        return .deleteDocument(name, records: records)
    }

    /// Esc (or F1 on help): help goes back to what it was opened over; anything else closes.
    /// `filterLine`: a `/` line is being typed where it lives in the list popover (the
    /// collapsed layout), so with nothing else open the list comes back, the line in sight.
    mutating func close(backToTheListFor filterLine: Bool = false) {
        open = open == .help ? underHelp : nil
        underHelp = nil
        if open == nil { choicesHeldUntil = nil }
        if open == nil, filterLine { present(.list) }
    }
}

/// Caches views read from, kept between frames: references, so copies of the state share
/// them, each behind its lock (drawing fills them in), and never compared (see
/// `FormRuleCache`, `FlatFormGeometry`). The list rows' titles are a value instead,
/// `ShownListRows`, worked out in `update`.
struct ViewCaches: Equatable, Sendable {
    let ruleCache = FormRuleCache()
    let flatGeometry = FlatFormGeometry()
}

/// The status line's one message: what the last action did (`tell`), why something did not
/// happen (`warn`, drawn as an error), or a y/n question about a survey (`ask`: drawn as an
/// error would be, because the next key answers it; `form.pendingQuestion` holds what it is
/// about). Each replaces the one before. Its own state, so every feature says things the same
/// few ways and no other code sets the message.
public struct StatusLineState: Equatable, Sendable {
    public private(set) var message: AppState.StatusMessage? = nil

    public init() {}

    mutating func tell(_ text: String) { message = .init(text) }
    mutating func warn(_ text: String) { message = .init(text, kind: .error) }
    mutating func ask(_ question: String) { message = .init(question, kind: .error) }
    /// A message made elsewhere (a read-only remark, an outcome's own kind), or nil to clear.
    mutating func say(_ message: AppState.StatusMessage?) { self.message = message }
    mutating func clear() { message = nil }
}

