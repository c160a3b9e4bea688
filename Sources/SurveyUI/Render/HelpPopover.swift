import SurveyValues
import SurveyForms

/// F1: the last status message in full when there is one (the status line may have cut it),
/// then the highlighted field's info (Age: "If the survey taker refuses, that is okay", as in
/// the original app), then the keys of the mode underneath, from the key table.
///
/// It holds only what it draws (the title, the info, the mode whose keys it lists, the last
/// message), made from the state by `make(from:)`, so it can be drawn from hand-made text.
struct HelpPopover {
    let title: String
    let info: String
    /// The mode under the help, whose keys are listed from the key table.
    let mode: InputMode
    let message: AppState.StatusMessage?
    /// The first line shown (`PopoverState.helpScroll`).
    var scroll = 0

    /// The popover for the current state: the one place the state is read for F1.
    static func make(from state: AppState) -> HelpPopover {
        var below = state
        below.popovers.close()   // the mode help was opened over
        let mode = below.inputMode
        let title: String
        let info: String
        switch (mode, state.formItem) {
        case (.formBrowsing, .field(let i)), (.rosterBrowsing, .field(let i)), (.formEditing, .field(let i)):
            let outline = state.outline
            let field = outline.field(i)
            title = field.label
            if let heading = outline.heading(i) {
                let name = RosterText.name(heading)
                info = heading.fixedCount == nil
                    ? "A roster: one \(name) at a time. PgUp/PgDn show the previous / next one, ^O adds one after this, ^D deletes this one (asks y/n; Ctrl-Z undoes on a saved survey). After the last question of each, Enter asks whether to add another."
                    : "A roster of \(heading.fixedCount!) (the form counts them). PgUp/PgDn show the previous / next one; Enter after the last question of one goes on to the next."
            } else {
                info = field.info
            }
        case (.formBrowsing, .clear):
            title = "Clear"
            info = "Empties the form for a new survey. A record on the form is left as it is."
        case (.formBrowsing, .add) where state.finishesShownSurvey:
            title = "Finish"
            info = "This survey is incomplete (kept before it passed the form's rules). Finish checks every rule, as Add does: when they all pass, the survey is complete (Ctrl-Z takes that back); otherwise it stays incomplete and the first problem is shown."
        case (.formBrowsing, .add):
            title = "Add"
            info = "Adds what the form shows as a new survey at the end of the list."
        case (.picking, _):
            title = state.picker?.title ?? "Choices"
            info = "Pick the answer: a digit chooses that choice, typing narrows the list by label or name, Enter chooses and goes on to the next question."
        case (.documents, _):
            title = "Documents"
            info = "Every survey document in the folder, the current one marked •. Deleted ones go to .trash/ in the folder; u brings the last one back."
        case (.documentInfo, _):
            title = "Document info"
            info = "Facts about the current document: its file, size, last save, and records that need a look. F4 goes back to the form."
        case (.unreadable, _):
            title = "Help"
            info = "This document cannot be read, so it is shown but never written."
        default:
            title = "Survey list"
            info = "Choose a survey to show it on the form. Every change is saved at once."
        }
        return HelpPopover(title: title, info: info, mode: mode, message: state.status, scroll: state.popovers.helpScroll)
    }

    /// The last message wrapped (first, so a small screen still shows it; at most
    /// `maxMessageRows` rows, so a message quoting 1 MB costs what can show), the title
    /// wrapped when it is too long for the border (`titleInside`), the info paragraph wrapped
    /// to `width` (bold), then one line per key (cut, never wrapped, so the columns stay
    /// aligned).
    func lines(width: Int, maxMessageRows: Int, titleInside: Bool = false) -> [(text: String, style: Style)] {
        var lines: [(text: String, style: Style)] = []
        if let message {
            let style: Style = message.kind == .error ? .error : .plain
            lines += StatusLine.rows("Last message: " + message.text, width: width, maxRows: maxMessageRows)
                .map { (text: $0, style: style) }
            lines.append(("", .plain))
        }
        if titleInside {
            lines += TextWrap.lines(title, width: width).map { (text: $0, style: Style.bold) }
            lines.append(("", .plain))
        }
        lines += TextWrap.lines(info, width: width).map { (text: $0, style: Style.bold) }
        lines.append(("", .plain))
        let bindings = KeyMap.helpBindings(for: mode)
        let keyWidth = bindings.map { TextWidth.width(of: $0.keyLabel) }.max() ?? 0
        for b in bindings {
            lines.append((b.keyLabel + String(repeating: " ", count: keyWidth - TextWidth.width(of: b.keyLabel) + 2) + (b.help ?? ""), .plain))
        }
        lines.append(("", .plain))
        lines.append(("Esc or F1 closes this help", .plain))
        return lines
    }

    /// The lines and the box they go in, for `layout`.
    private func laidOut(_ layout: Layout) -> (lines: [(text: String, style: Style)], box: Rect, titleInside: Bool) {
        let width = min(64, layout.size.width - 2)
        // The border shows " title " from its third column to the one before the corner. A
        // title too long for it (a question's whole label) is wrapped inside instead, whatever
        // its script, so none of it is cut.
        let titleInside = TextWidth.width(of: title) + 2 > width - 3
        let wrapped = lines(width: width - 4, maxMessageRows: max(1, layout.size.height), titleInside: titleInside)
        return (wrapped, layout.centeredBox(width: width, height: wrapped.count + 2), titleInside)
    }

    /// The furthest the help scrolls: its last line at the bottom of the box.
    func maxScroll(layout: Layout) -> Int {
        let (lines, box, _) = laidOut(layout)
        return max(0, lines.count - max(0, box.height - 2))
    }

    func draw(into grid: inout CellGrid, layout: Layout) {
        let (wrapped, box, titleInside) = laidOut(layout)
        let inner = grid.box(box, title: titleInside ? "Help" : title, style: .accent)
        let top = min(scroll, max(0, wrapped.count - inner.height))
        for (i, line) in wrapped.dropFirst(top).enumerated() where i < inner.height {
            grid.put(line.text, x: inner.x + 1, y: inner.y + i, style: line.style,
                     clip: Rect(x: inner.x + 1, y: inner.y, width: inner.width - 1, height: inner.height))
        }
        // More above or below: marked on the border, as the form marks its own.
        let edge = box.maxX - 1
        if top > 0 { grid.put("↑", x: edge, y: inner.y, style: .accent, clip: box) }
        if top + inner.height < wrapped.count { grid.put("↓", x: edge, y: inner.maxY - 1, style: .accent, clip: box) }
    }
}
