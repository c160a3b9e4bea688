/// The picker popover: a box titled with the question, a line saying what typing does (or
/// what has been typed), and the choices numbered for heads-down entry, `[x]` marking those
/// toggled on a multiple-choice question. Geometry is shared with clicks.
///
/// It holds the picker and where it goes, made from the state by `make(_:from:)`, so it can
/// be drawn from a hand-made picker and cannot read anything else.
struct ChoicePickerView {
    let picker: ChoicePicker
    let geometry: Geometry

    /// The view for the current state: the one place the state is read for the picker.
    static func make(_ picker: ChoicePicker, from state: AppState) -> ChoicePickerView {
        ChoicePickerView(picker: picker, geometry: geometry(picker, state: state))
    }

    struct Geometry {
        let box: Rect
        let hint: Rect
        let rows: Rect
        let scroll: Int
    }

    /// Never over the question it answers (issue 30): under its value, shorter (its choices
    /// scrolling) when the whole list does not fit there; else beside the value in a wide
    /// terminal; else above it; centred only when none of these leaves room for a few
    /// choices. Under first, so the member heading and a note before the question, which are
    /// above it, stay in sight too.
    static func geometry(_ picker: ChoicePicker, state: AppState) -> Geometry {
        let value = state.formGeometry.values[picker.fieldIndex]
        return geometry(picker, layout: state.layout, anchor: value.isEmpty ? nil : value)
    }

    /// The column the choices' numbers (or codes) take.
    static func numberWidth(_ picker: ChoicePicker) -> Int {
        guard let codes = picker.codes else { return String(picker.names.count).count }
        return codes == picker.labels ? 0 : codes.map(\.count).max() ?? 0
    }

    static func geometry(_ picker: ChoicePicker, layout: Layout, anchor: Rect? = nil) -> Geometry {
        let numberWidth = numberWidth(picker)
        let widest = picker.labels.map { TextWidth.width(of: $0) }.max() ?? 0
        let wanted = max(widest + numberWidth + (picker.multiple ? 6 : 2) + 4, TextWidth.width(of: picker.title) + 6, 44)
        var box = layout.centeredBox(width: wanted, height: picker.names.count + 3)
        if let anchor { box = placed(box, by: anchor, layout: layout) ?? box }
        let inner = box.inset(by: 1)
        let hint = Rect(x: inner.x + 1, y: inner.y, width: inner.width - 1, height: min(1, inner.height))
        let rows = Rect(x: inner.x, y: inner.y + 1, width: inner.width, height: inner.height - 1)
        // The picker remembers no scroll: from the top, just enough to show the highlight.
        let scroll = ScrollingList<Int>.scroll(0, showing: picker.highlighted, height: rows.height)
        return Geometry(box: box, hint: hint, rows: rows, scroll: scroll)
    }

    /// The fewest rows a picker placed beside its question keeps: its border, its hint and
    /// two choices (↑/↓ scroll the rest, as in any list). Shorter, it is centred instead.
    static let fewestRows = 5

    /// `box` moved (and shortened, its choices scrolling) next to the value at `anchor`, or
    /// nil when no place next to it leaves room for a few choices.
    static func placed(_ box: Rect, by anchor: Rect, layout: Layout) -> Rect? {
        let x = min(max(0, anchor.x - 2), layout.size.width - box.width)
        let below = layout.popoverBottom - anchor.maxY
        let above = anchor.y - 1
        if below >= box.height { return Rect(x: x, y: anchor.maxY, width: box.width, height: box.height) }
        if below >= fewestRows, below >= above || above < box.height {
            return Rect(x: x, y: anchor.maxY, width: box.width, height: below)
        }
        // Beside the value, right of it, in a terminal wide enough for the box there.
        let besideX = anchor.maxX + 1
        let tall = min(box.height, layout.popoverBottom - 1)
        if besideX + box.width <= layout.size.width, tall >= fewestRows {
            let y = max(1, min(anchor.y, layout.popoverBottom - tall))
            return Rect(x: besideX, y: y, width: box.width, height: tall)
        }
        if above >= box.height { return Rect(x: x, y: anchor.y - box.height, width: box.width, height: box.height) }
        if above >= fewestRows { return Rect(x: x, y: 1, width: box.width, height: above) }
        return nil
    }

    func draw(into grid: inout CellGrid) {
        let g = geometry
        _ = grid.box(g.box, title: picker.title, style: .accent)
        let hint: String
        if !picker.filter.isEmpty {
            hint = "Find: \(picker.filter)" + (picker.visible.isEmpty ? " (no match)" : "")
        } else if picker.isTypingNumber {
            hint = (picker.codes == nil ? "Choice " : "Code ") + "\(picker.digits)…"
        } else if picker.codes != nil {
            hint = picker.multiple ? "Space ticks · a code ticks it · Enter keeps" : "Type the code · Enter chooses"
        } else {
            hint = picker.multiple ? "Space ticks · digit ticks n · Enter keeps" : "Digit or Enter chooses · type to narrow"
        }
        grid.put(hint, x: g.hint.x, y: g.hint.y, style: .muted, clip: g.hint)
        let numberWidth = Self.numberWidth(picker)
        for row in 0..<g.rows.height {
            let position = g.scroll + row
            guard position < picker.visible.count else { break }
            let index = picker.visible[position]
            // The code typed for it: its position, its name when the names are the codes, and
            // nothing more when the label is the code itself.
            let number = picker.codes == nil ? String(position + 1) : picker.codes == picker.labels ? "" : picker.names[index]
            let mark = picker.multiple ? (picker.selected.contains(picker.names[index]) ? "[x] " : "[ ] ") : ""
            let text = " " + String(repeating: " ", count: numberWidth - number.count) + number + " " + mark + picker.labels[index]
            let y = g.rows.y + row
            let line = Rect(x: g.rows.x, y: y, width: g.rows.width, height: 1)
            let highlighted = position == picker.highlighted
            if highlighted {
                grid.fill(line, style: Style(.reverse))
                grid.cursor = Point(x: line.x + 1, y: y)
            }
            grid.put(text, x: line.x, y: y, style: highlighted ? Style(.reverse) : .plain, clip: line)
        }
    }
}
