import FoundationEssentials
import SurveyValues
import SurveyForms

/// The screen: the terminal's size, the split, which pane has the focus, form or info.
/// Setters private to this file: features move the focus and switch form and info through
/// these methods, and keeping the focus legal for the layout is `AppState.resize(to:)`'s.
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
    /// The record form, or facts about the document (F4), in the form's place.
    mutating func showDetail(_ shown: AppState.Detail) { detail = shown }
    mutating func resize(to newSize: Size) { size = newSize }
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
    /// popover's own state (the picker's filter, the save-as box) is written back.
    public mutating func present(_ popover: AppState.Popover) {
        if popover != open, popover != .help { underHelp = nil }
        if popover != open { choicesHeldUntil = nil }
        open = popover
    }

    /// Closes whatever is open, help and what it was opened over alike.
    public mutating func dismiss() {
        open = nil
        underHelp = nil
        choicesHeldUntil = nil
    }

    /// The open popover takes no choice until `moment` (see `choicesHeldUntil`).
    mutating func holdChoices(until moment: Date) {
        choicesHeldUntil = moment
    }

    /// F1: help over the list popover or the documents list explains that list, and closing
    /// help goes back there; over anything else, closing help closes it all.
    mutating func showHelp() {
        underHelp = open.flatMap { $0 == .list || $0 == .documents ? $0 : nil }
        open = .help
        helpScroll = 0
    }

    /// Help's first line shown, already kept within what there is to show.
    mutating func scrollHelp(to line: Int) { helpScroll = line }

    /// Esc (or F1 on help): help goes back to what it was opened over; anything else closes.
    mutating func close() {
        open = open == .help ? underHelp : nil
        underHelp = nil
        if open == nil { choicesHeldUntil = nil }
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
