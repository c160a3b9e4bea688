/// What one field of the questionnaire puts on the form, for laying it out: nothing (a
/// question `relevant` hides, metadata, a group's end), a group heading, a note, or a
/// labelled value with perhaps a line under it (the hint, or what is wrong with the answer).
public enum FormRow: Equatable, Sendable {
    case hidden
    case heading(String)
    case note(String)
    case field(label: String, extraLine: Bool)
}

/// Where the form's heading, fields and buttons sit inside the form's rectangle. Shared by
/// drawing, by mouse hit-testing and by scrolling, so the three can never disagree. Spacing
/// shrinks with the height: blank lines go first, the heading last; a form still too tall
/// scrolls, with its heading kept. Labels too long for the label column go on their own
/// lines above their value. The buttons are never cut: on a narrow form they move under the
/// labels, then take short labels, then stack.
public struct FormGeometry: Equatable, Sendable {
    public let heading: Rect?
    /// Per field; an empty rect when the field is not on screen (hidden or scrolled away).
    public let labels: [Rect]
    public let values: [Rect]
    public let clearButton: Rect
    public let addButton: Rect
    /// The button texts drawn: the full ones, or the short ones on a narrow form.
    public let clearButtonLabel: String
    public let addButtonLabel: String
    /// Lines that are not a label or a value: group headings, notes, labels on lines of
    /// their own, hints. Only those on screen.
    public let decorations: [Decoration]
    /// The rows the fields and buttons scroll in, the first of them shown, and how many rows
    /// the whole form takes.
    public let viewport: Rect
    public let scroll: Int
    public let contentHeight: Int
    /// Each field's rows in the whole form (nil when hidden), and the buttons' rows.
    let fieldSpans: [ClosedRange<Int>?]
    let clearSpan: ClosedRange<Int>
    let addSpan: ClosedRange<Int>

    public struct Decoration: Equatable, Sendable {
        public enum Kind: Equatable, Sendable { case heading, note, label, extra }
        public let field: Int
        public let kind: Kind
        public let text: String
        public let rect: Rect
    }

    public static let clearLabel = "[ Clear ]"
    public static let addLabel = "[ Add ]"
    public static let shortClearLabel = "[Clear]"
    public static let shortAddLabel = "[Add]"
    /// [ Add ]'s place on an incomplete survey: it finishes it (`AppState+Incomplete`).
    public static let finishLabel = "[ Finish ]"
    public static let shortFinishLabel = "[Finish]"

    /// How the two buttons are placed: from the left edge `x`, with these labels, side by
    /// side (two cells apart) or one under the other.
    private struct ButtonRow {
        let x: Int
        let clear: String
        let add: String
        let stacked: Bool
        var width: Int {
            let (c, a) = (TextWidth.width(of: clear), TextWidth.width(of: add))
            return stacked ? max(c, a) : c + 2 + a
        }
    }

    /// The original five fields' shape: one plain labelled row each.
    public init(form: Rect, labels fieldLabels: [String]) {
        self.init(form: form, rows: fieldLabels.map { .field(label: $0, extraLine: false) }, scroll: 0)
    }

    /// A row's lines, as laid out in a form of some width whatever the scroll.
    struct Block: Sendable {
        let field: Int
        let lines: [(Decoration.Kind, String)]
        let labelInline: String?
        let extra: Bool
        var height: Int { lines.count + (labelInline != nil || lines.first?.0 == .label ? 1 : 0) + (extra ? 1 : 0) }
    }

    /// What of the layout depends only on the rows and the form's width: the label column's
    /// width and each row's lines (labels measured, notes and long labels wrapped). Measuring
    /// 500 labels is most of laying a long form out, and neither a key that only moves the
    /// highlight nor a scroll changes it, so `FormRuleCache` keeps it with the rows.
    struct Layout: Sendable {
        let width: Int
        let labelWidth: Int
        let blocks: [Block]
        let total: Int

        init(rows: [FormRow], width: Int) {
            self.width = width
            let textWidth = max(1, width - 3)
            // The label column: as wide as the longest label, up to two fifths of the form.
            let cap = max(12, (width - 4) * 2 / 5)
            let widths = rows.map { row -> Int in
                if case .field(let label, _) = row { return TextWidth.width(of: label) }
                return 0
            }
            let labelWidth = min(widths.max() ?? 0, cap)
            self.labelWidth = labelWidth
            var blocks: [Block] = []
            for (i, row) in rows.enumerated() {
                switch row {
                case .hidden: continue
                case .heading(let text):
                    blocks.append(Block(field: i, lines: [(.heading, text)], labelInline: nil, extra: false))
                case .note(let text):
                    let lines = TextWrap.lines(text, width: textWidth)
                    blocks.append(Block(field: i, lines: (lines.isEmpty ? [""] : lines).map { (.note, $0) }, labelInline: nil, extra: false))
                case .field(let label, let extra):
                    if widths[i] <= labelWidth {
                        blocks.append(Block(field: i, lines: [], labelInline: label, extra: extra))
                    } else {
                        blocks.append(Block(field: i, lines: TextWrap.lines(label, width: textWidth).map { (.label, $0) },
                                            labelInline: nil, extra: extra))
                    }
                }
            }
            self.blocks = blocks
            total = blocks.reduce(0) { $0 + $1.height }
        }
    }

    public init(form: Rect, rows: [FormRow], scroll requestedScroll: Int, keepHeading: Bool = false, finishing: Bool = false) {
        self.init(form: form, rows: rows, scroll: requestedScroll, layout: Layout(rows: rows, width: form.width), keepHeading: keepHeading,
                  finishing: finishing)
    }

    /// `layout` must be of these rows at this form's width. `keepHeading`: the heading row
    /// stays however small the form (it carries the breadcrumb of a member being keyed).
    /// `finishing`: the second button is `[ Finish ]` (an incomplete survey), not `[ Add ]`.
    init(form: Rect, rows: [FormRow], scroll requestedScroll: Int, layout: Layout, keepHeading: Bool = false, finishing: Bool = false) {
        let labelX = form.x + 2
        let textWidth = max(1, form.maxX - 1 - labelX)
        let labelWidth = layout.labelWidth
        let valueX = labelX + labelWidth + 2

        // Buttons first: the widest arrangement that fits the form's width.
        let (add, shortAdd) = finishing ? (Self.finishLabel, Self.shortFinishLabel) : (Self.addLabel, Self.shortAddLabel)
        let rowsOfButtons = [ButtonRow(x: valueX, clear: Self.clearLabel, add: add, stacked: false),
                             ButtonRow(x: labelX, clear: Self.clearLabel, add: add, stacked: false),
                             ButtonRow(x: labelX, clear: Self.shortClearLabel, add: shortAdd, stacked: false),
                             ButtonRow(x: labelX, clear: Self.shortClearLabel, add: shortAdd, stacked: true)]
        let buttons = rowsOfButtons.first { $0.x + $0.width <= form.maxX } ?? rowsOfButtons[rowsOfButtons.count - 1]
        let buttonRows = buttons.stacked ? 2 : 1

        let blocks = layout.blocks
        let total = layout.total
        let n = blocks.count

        // (heading rows, gap between fields, blank row before buttons), most spacious first;
        // when none fits, the form scrolls under a one-row heading.
        let options = keepHeading ? [(2, 2, 1), (2, 1, 1), (1, 1, 1), (1, 1, 0)] : [(2, 2, 1), (2, 1, 1), (0, 1, 1), (0, 1, 0)]
        let needed = { (o: (Int, Int, Int)) in o.0 + total + max(0, n - 1) * (o.1 - 1) + o.2 + buttonRows }
        let fitting = options.first { needed($0) <= form.height }
        let (headingRows, gap, buttonGap) = fitting ?? (form.height >= 8 || keepHeading && form.height >= 3 ? 1 : 0, 1, 1)

        heading = headingRows > 0 ? Rect(x: form.x + 2, y: form.y, width: form.width - 3, height: 1) : nil
        let viewport = Rect(x: form.x, y: form.y + headingRows, width: form.width, height: form.height - headingRows)
        let contentHeight = total + max(0, n - 1) * (gap - 1) + buttonGap + buttonRows
        let scroll = fitting != nil ? 0 : max(0, min(requestedScroll, contentHeight - viewport.height))
        self.viewport = viewport
        self.scroll = scroll
        self.contentHeight = contentHeight

        // Content row → screen rect, empty when scrolled out of the viewport.
        func place(_ x: Int, _ contentY: Int, _ width: Int) -> Rect {
            let y = viewport.y + contentY - scroll
            guard y >= viewport.y, y < viewport.maxY else { return Rect(x: x, y: y, width: 0, height: 0) }
            return Rect(x: x, y: y, width: width, height: 1)
        }
        let valueWidth = min(form.maxX - 1 - valueX, 60)
        let stackedValueX = labelX + 2
        let stackedValueWidth = min(form.maxX - 1 - stackedValueX, 60)
        let nowhere = Rect(x: form.x, y: form.y, width: 0, height: 0)
        var labels = Array(repeating: nowhere, count: rows.count)
        var values = Array(repeating: nowhere, count: rows.count)
        var spans: [ClosedRange<Int>?] = Array(repeating: nil, count: rows.count)
        var decorations: [Decoration] = []
        var y = 0
        for (k, block) in blocks.enumerated() {
            let start = y
            for (kind, text) in block.lines {
                let r = place(labelX, y, textWidth)
                if !r.isEmpty { decorations.append(Decoration(field: block.field, kind: kind, text: text, rect: r)) }
                y += 1
            }
            if let label = block.labelInline {
                labels[block.field] = place(labelX, y, labelWidth)
                _ = label
                values[block.field] = place(valueX, y, valueWidth)
                y += 1
            } else if block.lines.first?.0 == .label {
                labels[block.field] = Rect(x: labelX, y: viewport.y + start - scroll, width: 0, height: 0)
                values[block.field] = place(stackedValueX, y, stackedValueWidth)
                y += 1
            }
            if block.extra {
                let r = place(values[block.field].x, y, form.maxX - 1 - values[block.field].x)
                if !r.isEmpty { decorations.append(Decoration(field: block.field, kind: .extra, text: "", rect: r)) }
                y += 1
            }
            spans[block.field] = start...(y - 1)
            if k < blocks.count - 1 { y += gap - 1 }
        }
        self.labels = labels
        self.values = values
        self.fieldSpans = spans
        self.decorations = decorations

        let buttonsY = y + buttonGap
        clearButtonLabel = buttons.clear
        addButtonLabel = buttons.add
        let clearWidth = TextWidth.width(of: buttons.clear)
        let addWidth = TextWidth.width(of: buttons.add)
        func button(_ x: Int, _ contentY: Int, _ width: Int) -> Rect {
            // Buttons outside a scrolled viewport are not drawn; without scrolling they
            // are where the fitting spacing put them.
            fitting != nil ? Rect(x: x, y: viewport.y + contentY, width: width, height: 1) : place(x, contentY, width)
        }
        clearButton = button(buttons.x, buttonsY, clearWidth)
        addButton = buttons.stacked ? button(buttons.x, buttonsY + 1, addWidth)
            : button(buttons.x + clearWidth + 2, buttonsY, addWidth)
        clearSpan = buttonsY...buttonsY
        addSpan = (buttons.stacked ? buttonsY + 1 : buttonsY)...(buttons.stacked ? buttonsY + 1 : buttonsY)
    }

    /// Whether rows are above or below the viewport.
    public var hasMoreAbove: Bool { scroll > 0 }
    public var hasMoreBelow: Bool { scroll + viewport.height < contentHeight }

    /// The rows an item takes in the whole form, for scrolling it into view.
    func contentSpan(of item: AppState.FormItem) -> ClosedRange<Int>? {
        switch item {
        case .field(let i): return fieldSpans.indices.contains(i.index) ? fieldSpans[i.index] : nil
        case .clear: return clearSpan
        case .add: return addSpan
        }
    }

    /// The form item under a point, for clicks.
    public func item(at p: Point) -> AppState.FormItem? {
        if clearButton.contains(p) { return .clear }
        if addButton.contains(p) { return .add }
        for i in values.indices where !values[i].isEmpty {
            let left = min(labels[i].x, values[i].x)
            let row = Rect(x: left, y: values[i].y, width: values[i].maxX - left, height: 1)
            if row.contains(p) { return .field(EntryNumber(i)) }
        }
        return nil
    }
}
