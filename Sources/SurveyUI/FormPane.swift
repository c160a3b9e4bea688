import SurveyModel

/// The record form: five labelled fields and the Clear and Add buttons, with the highlight
/// shown in reverse and the field being typed underlined with the caret in it.
struct FormPane: View {
    let state: AppState

    func draw(into grid: inout CellGrid, in rect: Rect) {
        guard !rect.isEmpty else { return }
        let fields = state.questionnaire.fields
        let geometry = FormGeometry(form: rect, labels: fields.map(\.label))
        let active = state.popover == nil && (state.focus == .form || !state.layout.isSplit)
        if let heading = geometry.heading {
            let text: String
            switch state.shown {
            case .record: text = "Survey \(state.positionTitle)"   // as the list shows it (filtered, sorted)
            case .draft: text = "New survey"
            }
            grid.put(text, x: heading.x, y: heading.y, style: .accent, clip: heading)
        }
        for (i, field) in fields.enumerated() {
            let labelRect = geometry.labels[i]
            let highlighted = active && state.formItem == .field(i)
            let labelWidth = TextWidth.width(of: field.label)
            grid.put(field.label, x: labelRect.maxX - labelWidth, y: labelRect.y,
                     style: highlighted ? .bold : .plain, clip: rect)
            drawValue(i, in: geometry.values[i].intersection(rect), highlighted: highlighted, into: &grid)
        }
        drawButton(geometry.clearButtonLabel, geometry.clearButton.intersection(rect),
                   highlighted: active && state.formItem == .clear, into: &grid)
        drawButton(geometry.addButtonLabel, geometry.addButton.intersection(rect),
                   highlighted: active && state.formItem == .add, into: &grid)
    }

    private func drawValue(_ index: Int, in rect: Rect, highlighted: Bool, into grid: inout CellGrid) {
        guard !rect.isEmpty else { return }
        if let edit = state.editing, edit.fieldIndex == index {
            TextFieldView(buffer: edit).draw(into: &grid, in: rect)
            return
        }
        let style = highlighted ? Style(.reverse) : Style(.underline)
        if highlighted { grid.cursor = Point(x: rect.x, y: rect.y) }
        grid.fill(rect, style: style)
        grid.put(state.fieldText(index), x: rect.x, y: rect.y, style: style, clip: rect)
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
        grid.put("Cannot read \(documentName).plist", x: inner.x, y: y, style: .error, clip: inner)
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
