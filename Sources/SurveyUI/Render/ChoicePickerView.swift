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
        /// The first choice shown (a position among those shown).
        let scroll: Int
        /// The cells a label has on its lines, after the number and the tick box.
        let labelWidth: Int
        /// The lines each shown choice takes: 1, or more when its label is wider than the
        /// terminal lets the box be (it wraps rather than being cut).
        let lineCounts: [Int]

        /// The position of the choice drawn on row `y` of the screen, if any (clicks).
        func position(atRow y: Int) -> Int? {
            guard y >= rows.y, y < rows.maxY else { return nil }
            var line = rows.y
            for position in scroll..<lineCounts.count {
                line += lineCounts[position]
                if y < line { return position }
            }
            return nil
        }
    }

    /// The cells before a choice's label: a space, its number, a space, its tick box.
    static func prefixWidth(_ picker: ChoicePicker) -> Int { numberWidth(picker) + 2 + (picker.multiple ? 4 : 0) }

    /// How many lines `label` takes at `width` cells.
    static func lineCount(_ label: String, width: Int) -> Int {
        TextWidth.width(of: label) <= width ? 1 : max(1, TextWrap.lines(label, width: width).count)
    }

    /// Never over the question it answers (issue 30): under its value, shorter (its choices
    /// scrolling) when the whole list does not fit there; else beside the value in a wide
    /// terminal; else above it; centred only when none of these leaves room for a few
    /// choices. Under first, so the member heading and a note before the question, which are
    /// above it, stay in sight too.
    static func geometry(_ picker: ChoicePicker, state: AppState) -> Geometry {
        let value = state.formGeometry.values[picker.entry.index]
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
        // Labels wider than the box can be (the terminal's width) wrap: the box is as tall as
        // every choice's lines (filtering keeps it the same size).
        let labelWidth = max(1, min(layout.size.width - 2, wanted) - 2 - prefixWidth(picker))
        let allLines = widest <= labelWidth ? picker.labels.count : picker.labels.reduce(0) { $0 + lineCount($1, width: labelWidth) }
        var box = layout.centeredBox(width: wanted, height: allLines + 3)
        if let anchor { box = placed(box, by: anchor, layout: layout) ?? box }
        let inner = box.inset(by: 1)
        let hint = Rect(x: inner.x + 1, y: inner.y, width: inner.width - 1, height: min(1, inner.height))
        let rows = Rect(x: inner.x, y: inner.y + 1, width: inner.width, height: inner.height - 1)
        let counts = picker.visible.map { widest <= labelWidth ? 1 : lineCount(picker.labels[$0], width: labelWidth) }
        // The picker remembers no scroll: from the top, just enough to show the highlight whole.
        var scroll = 0
        if picker.visible.indices.contains(picker.highlighted) {
            var lines = counts[0...picker.highlighted].reduce(0, +)
            while lines > rows.height, scroll < picker.highlighted {
                lines -= counts[scroll]
                scroll += 1
            }
        }
        return Geometry(box: box, hint: hint, rows: rows, scroll: scroll, labelWidth: labelWidth, lineCounts: counts)
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
        let indent = String(repeating: " ", count: Self.prefixWidth(picker))
        var y = g.rows.y
        var position = g.scroll
        while y < g.rows.maxY, position < picker.visible.count {
            let index = picker.visible[position]
            // The code typed for it: its position, its name when the names are the codes, and
            // nothing more when the label is the code itself.
            let number = picker.codes == nil ? String(position + 1) : picker.codes == picker.labels ? "" : picker.names[index]
            let mark = picker.multiple ? (picker.selected.contains(picker.names[index]) ? "[x] " : "[ ] ") : ""
            let prefix = " " + String(repeating: " ", count: numberWidth - number.count) + number + " " + mark
            let label = picker.labels[index]
            let lines = g.lineCounts[position] == 1 ? [label] : TextWrap.lines(label, width: g.labelWidth)
            let highlighted = position == picker.highlighted
            for (n, text) in lines.enumerated() where y < g.rows.maxY {
                let line = Rect(x: g.rows.x, y: y, width: g.rows.width, height: 1)
                if highlighted {
                    grid.fill(line, style: Style(.reverse))
                    if n == 0 { grid.cursor = Point(x: line.x + 1, y: y) }
                }
                grid.put((n == 0 ? prefix : indent) + text, x: line.x, y: y, style: highlighted ? Style(.reverse) : .plain, clip: line)
                y += 1
            }
            position += 1
        }
    }
}
