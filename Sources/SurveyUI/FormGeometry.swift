/// Where the form's heading, fields and buttons sit inside the form's rectangle. Shared by
/// drawing and by mouse hit-testing so the two can never disagree. Spacing shrinks with the
/// height: blank lines go first, the heading last. The buttons are never cut: on a narrow
/// form they move under the labels, then take short labels, then stack.
public struct FormGeometry: Equatable, Sendable {
    public let heading: Rect?
    public let labels: [Rect]
    public let values: [Rect]
    public let clearButton: Rect
    public let addButton: Rect
    /// The button texts drawn: the full ones, or the short ones on a narrow form.
    public let clearButtonLabel: String
    public let addButtonLabel: String

    public static let clearLabel = "[ Clear ]"
    public static let addLabel = "[ Add ]"
    public static let shortClearLabel = "[Clear]"
    public static let shortAddLabel = "[Add]"

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

    public init(form: Rect, labels fieldLabels: [String]) {
        let n = fieldLabels.count
        let labelWidth = fieldLabels.map { TextWidth.width(of: $0) }.max() ?? 0
        let labelX = form.x + 2
        let valueX = labelX + labelWidth + 2

        // Buttons first: the widest arrangement that fits the form's width.
        let rows = [ButtonRow(x: valueX, clear: Self.clearLabel, add: Self.addLabel, stacked: false),
                    ButtonRow(x: labelX, clear: Self.clearLabel, add: Self.addLabel, stacked: false),
                    ButtonRow(x: labelX, clear: Self.shortClearLabel, add: Self.shortAddLabel, stacked: false),
                    ButtonRow(x: labelX, clear: Self.shortClearLabel, add: Self.shortAddLabel, stacked: true)]
        let buttons = rows.first { $0.x + $0.width <= form.maxX } ?? rows[rows.count - 1]
        let buttonRows = buttons.stacked ? 2 : 1

        // (heading rows, gap between fields, blank row before buttons), most spacious first.
        let options = [(2, 2, 1), (2, 1, 1), (0, 1, 1), (0, 1, 0)]
        let needed = { (o: (Int, Int, Int)) in o.0 + max(0, n * o.1 - (o.1 - 1)) + o.2 + buttonRows }
        let choice = options.first { needed($0) <= form.height } ?? (0, 1, 0)
        let (headingRows, gap, buttonGap) = choice

        heading = headingRows > 0 ? Rect(x: form.x + 2, y: form.y, width: form.width - 3, height: 1) : nil
        let valueWidth = min(form.maxX - 1 - valueX, 60)
        var labels: [Rect] = []
        var values: [Rect] = []
        let top = form.y + headingRows
        for i in 0..<n {
            let y = top + i * gap
            labels.append(Rect(x: labelX, y: y, width: labelWidth, height: 1))
            values.append(Rect(x: valueX, y: y, width: valueWidth, height: 1))
        }
        self.labels = labels
        self.values = values
        let buttonsY = top + max(0, n * gap - (gap - 1)) + buttonGap
        clearButtonLabel = buttons.clear
        addButtonLabel = buttons.add
        let clearWidth = TextWidth.width(of: buttons.clear)
        clearButton = Rect(x: buttons.x, y: buttonsY, width: clearWidth, height: 1)
        addButton = buttons.stacked
            ? Rect(x: buttons.x, y: buttonsY + 1, width: TextWidth.width(of: buttons.add), height: 1)
            : Rect(x: buttons.x + clearWidth + 2, y: buttonsY, width: TextWidth.width(of: buttons.add), height: 1)
    }

    /// The form item under a point, for clicks.
    public func item(at p: Point) -> AppState.FormItem? {
        if clearButton.contains(p) { return .clear }
        if addButton.contains(p) { return .add }
        for i in values.indices {
            let row = Rect(x: labels[i].x, y: labels[i].y, width: values[i].maxX - labels[i].x, height: 1)
            if row.contains(p) { return .field(i) }
        }
        return nil
    }
}
