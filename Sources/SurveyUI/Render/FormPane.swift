import SurveyValues
import SurveyForms

/// The record form: the questionnaire's labelled fields (with group headings, notes and
/// hints when it is a designer's form) and the Clear and Add buttons, with the highlight
/// shown in reverse and the field being typed underlined with the caret in it. A long form
/// scrolls under its heading, with ↑/↓ marks where more rows are.
///
/// As STYLE.md asks (`FormPane(rows:highlight:editing:)`), it holds what it draws, made from
/// the state by `make(from:)`, so it can be drawn from hand-made rows.
struct FormPane: View {
    /// "Survey 3 of 10 · title", or "New survey".
    let heading: String
    /// Where the highlighted question is among the rosters (`AppState.breadcrumb`): shown
    /// in the heading in place of the title, cut from the outside when the pane is narrow.
    var breadcrumb: [String] = []
    /// The questionnaire as rows (`FormRows`), and the first row shown.
    let rows: [FormRow]
    let scroll: Int
    /// The highlighted item, nil when the form is not where keys go (so nothing is shown
    /// highlighted).
    let highlight: AppState.FormItem?
    /// The field being typed, drawn as a text box in place of its value.
    let editing: EditBuffer?
    /// What is wrong with a stored answer, by field: drawn under it, and the value in red.
    let problems: [EntryNumber: String]
    /// A supervisor's comment on a survey sent back, under the questions it names.
    var notes: [EntryNumber: String] = [:]
    /// The questions, for each one's hint and whether its value is underlined.
    let fields: [FieldSpec]
    /// What a field shows when not being typed. Asked only for the rows that show, so a
    /// 500-question form costs what a screenful does: that is why it is a function.
    let answer: (_ entry: EntryNumber) -> (text: String, placeholder: Bool)
    /// The rows laid out in a rectangle, made with the state's cached layout; drawn into
    /// another rectangle, the rows are laid out again.
    var laidOut: (rect: Rect, geometry: FormGeometry)? = nil
    /// An incomplete survey: the second button is `[ Finish ]`.
    var finishing = false

    /// The pane for the current state: the one place the state is read for the form.
    static func make(from state: AppState) -> FormPane {
        var heading: String
        switch state.shown {
        case .record: heading = "Survey \(state.positionTitle)"   // as the list shows it (filtered, sorted)
        case .draft: heading = "New survey"
        }
        // An incomplete survey says so, and its [ Finish ] finishes it (`AppState+Incomplete`).
        let finishing = state.finishesShownSurvey
        if finishing { heading += " · incomplete" }
        let breadcrumb = RosterText.breadcrumb(at: state.formItem, in: state.outline, record: state.formRecord, state.questionnaire)
        if breadcrumb.isEmpty, let title = state.questionnaire.form?.title, !title.isEmpty { heading += " · " + title }
        // Another role's survey says so where the form starts (`AppState+Owners`).
        if case .record(let i) = state.shown, let owner = state.session.othersOwner(of: state.records[i]) {
            heading += " · " + SurveyOwner.possessive(owner) + ", read-only"
        }
        if state.sentBackComment != nil { heading += " · sent back" }
        let active = (state.popover == nil || state.inputMode == .picking) && (state.screen.focus == .form || !state.isSplit)
        let shown = ShownForm(state)
        let rect = state.layout.form
        return FormPane(heading: heading, breadcrumb: breadcrumb, rows: shown.rows, scroll: state.form.formScroll,
                        highlight: active ? state.formItem : nil, editing: state.editing,
                        problems: shown.storedAnswerProblems, notes: shown.notes, fields: shown.outline.fields,
                        answer: { shown.displayedAnswer($0) },
                        laidOut: (rect, shown.geometry(in: rect)), finishing: finishing)
    }

    func draw(into grid: inout CellGrid, in rect: Rect) {
        guard !rect.isEmpty else { return }
        let geometry = laidOut.flatMap { $0.rect == rect ? $0.geometry : nil } ?? FormGeometry(form: rect, rows: rows, scroll: scroll, keepHeading: !breadcrumb.isEmpty,
                                                                                     finishing: finishing)
        if let heading = geometry.heading {
            grid.put(headingText(width: heading.width), x: heading.x, y: heading.y, style: .accent, clip: heading)
        }
        for decoration in geometry.decorations {
            let r = decoration.rect.intersection(rect)
            switch decoration.kind {
            case .heading: grid.put(decoration.text, x: r.x, y: r.y, style: .accent, clip: r)
            case .note: grid.put(decoration.text, x: r.x, y: r.y, clip: r)
            case .label:
                let highlighted = highlight == .field(EntryNumber(decoration.field))
                grid.put(decoration.text, x: r.x, y: r.y, style: highlighted ? .bold : .plain, clip: r)
            case .extra:
                if let problem = problems[EntryNumber(decoration.field)] {
                    grid.put(problem, x: r.x, y: r.y, style: .error, clip: r)
                } else if let note = notes[EntryNumber(decoration.field)] {
                    grid.put(note, x: r.x, y: r.y, style: .accent, clip: r)
                } else {
                    grid.put(fields[decoration.field].hint, x: r.x, y: r.y, style: .muted, clip: r)
                }
            }
        }
        for (i, row) in rows.enumerated() {
            // The rows are the walk's entries, one for one; the geometry's arrays go by row.
            let entry = EntryNumber(i)
            guard case .field(let label, _) = row, !geometry.values[i].isEmpty else { continue }
            let labelRect = geometry.labels[i]
            let highlighted = highlight == .field(entry)
            if !labelRect.isEmpty {
                let labelWidth = TextWidth.width(of: label)
                grid.put(label, x: labelRect.maxX - labelWidth, y: labelRect.y,
                         style: highlighted ? .bold : .plain, clip: rect)
            }
            drawValue(entry, in: geometry.values[i].intersection(rect), highlighted: highlighted,
                      problem: problems[entry] != nil, into: &grid)
        }
        drawButton(geometry.clearButtonLabel, geometry.clearButton.intersection(rect),
                   highlighted: highlight == .clear, into: &grid)
        drawButton(geometry.addButtonLabel, geometry.addButton.intersection(rect),
                   highlighted: highlight == .add, into: &grid)
        let edge = rect.maxX - 1
        if geometry.hasMoreAbove { grid.put("↑", x: edge, y: geometry.viewport.y, style: .accent, clip: rect) }
        if geometry.hasMoreBelow { grid.put("↓", x: edge, y: geometry.viewport.maxY - 1, style: .accent, clip: rect) }
    }

    /// The heading with the breadcrumb after it; when that is wider than the pane, the
    /// breadcrumb alone, its outer rosters dropped for "…" until the member shown fits.
    func headingText(width: Int) -> String {
        guard !breadcrumb.isEmpty else { return heading }
        let whole = heading + " · " + breadcrumb.joined(separator: " › ")
        if TextWidth.width(of: whole) <= width { return whole }
        var crumbs = breadcrumb[...]
        while crumbs.count > 2 {
            let text = (crumbs.count < breadcrumb.count ? "… › " : "") + crumbs.joined(separator: " › ")
            if TextWidth.width(of: text) <= width { return text }
            crumbs = crumbs.dropFirst(2)
        }
        let last = (crumbs.count < breadcrumb.count ? "… › " : "") + crumbs.joined(separator: " › ")
        // Narrower still: the member shown (`3 of 3`) rather than its roster's name, cut.
        return TextWidth.width(of: last) <= width ? last : "… › " + (crumbs.last ?? "")
    }

    private func drawValue(_ index: EntryNumber, in rect: Rect, highlighted: Bool, problem: Bool, into grid: inout CellGrid) {
        guard !rect.isEmpty else { return }
        if let edit = editing, edit.entry == index {
            TextFieldView(buffer: edit.input).draw(into: &grid, in: rect)
            return
        }
        let shown = answer(index)
        let field = fields[index.index]
        var style = highlighted ? Style(.reverse) : field.kind.isAnswered ? Style(.underline) : .plain
        if problem { style = Style(style.attributes.union(.bold), role: .error) }
        if highlighted { grid.cursor = Point(x: rect.x, y: rect.y) }
        grid.fill(rect, style: style)
        grid.put(shown.text, x: rect.x, y: rect.y, style: shown.placeholder ? Style(style.attributes.union(.dim), role: .muted) : style,
                 clip: rect)
    }

    private func drawButton(_ label: String, _ rect: Rect, highlighted: Bool, into grid: inout CellGrid) {
        if highlighted, !rect.isEmpty { grid.cursor = Point(x: rect.x, y: rect.y) }
        grid.put(label, x: rect.x, y: rect.y, style: highlighted ? Style([.reverse, .bold]) : .bold, clip: rect)
    }
}

/// The form's place when the document cannot be read: its name and why. The file is never
/// written while the app shows this.
struct UnreadableDocumentView: View {
    let documentName: String
    let reason: String

    func draw(into grid: inout CellGrid, in rect: Rect) {
        let inner = Rect(x: rect.x + 2, y: rect.y + 1, width: rect.width - 3, height: rect.height - 1)
        var y = inner.y
        let heading = "Cannot read \(documentName).plist"
        grid.put(heading, x: inner.x, y: y, style: .error, clip: inner)
        y += 2
        for line in TextWrap.lines(reason, width: inner.width) where y < inner.maxY {
            grid.put(line, x: inner.x, y: y, clip: inner)
            y += 1
        }
        y += 1
        for line in TextWrap.lines("The file is left as it is. F3 opens another document; Ctrl-Q quits.", width: inner.width) where y < inner.maxY {
            grid.put(line, x: inner.x, y: y, style: .muted, clip: inner)
            y += 1
        }
    }
}

/// The New form's place in a read-only document (`FormTrouble`): nothing can be keyed, so
/// it says why, every error of a form that has them, and how to mend it.
struct FormTroubleView: View {
    let documentName: String
    let trouble: FormTrouble

    func draw(into grid: inout CellGrid, in rect: Rect) {
        let inner = Rect(x: rect.x + 2, y: rect.y + 1, width: rect.width - 3, height: rect.height - 1)
        guard !inner.isEmpty else { return }
        var y = inner.y
        func paragraph(_ text: String, style: Style = .plain) {
            for line in TextWrap.lines(text, width: inner.width).flatMap({ TextWrap.hardLines($0, width: inner.width) }) where y < inner.maxY {
                grid.put(line, x: inner.x, y: y, style: style, clip: inner)
                y += 1
            }
        }
        switch trouble {
        case .errors(_, let errors):
            paragraph("Read-only: cannot use the form of \(documentName)", style: .error)
            y += 1
            paragraph(trouble.remark(document: documentName))
            y += 1
            errors.forEach { paragraph($0) }
        case .missing:
            paragraph("Read-only: the form of \(documentName) is missing", style: .error)
            y += 1
            paragraph(trouble.remark(document: documentName))
        }
        y += 1
        paragraph("Its surveys are listed with their answers as stored; nothing is written. F3 opens another document; Ctrl-Q quits.",
                  style: .muted)
    }
}
