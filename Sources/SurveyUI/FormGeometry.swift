/// Where the form's heading, fields and buttons sit inside the form's rectangle. Shared by
/// drawing and by mouse hit-testing so the two can never disagree. Spacing shrinks with the
/// height: blank lines go first, the heading last.
public struct FormGeometry: Equatable, Sendable {
    public let heading: Rect?
    public let labels: [Rect]
    public let values: [Rect]
    public let clearButton: Rect
    public let addButton: Rect

    public static let clearLabel = "[ Clear ]"
    public static let addLabel = "[ Add ]"

    public init(form: Rect, labels fieldLabels: [String]) {
        let n = fieldLabels.count
        // (heading rows, gap between fields, blank row before buttons), most spacious first.
        let options = [(2, 2, 1), (2, 1, 1), (0, 1, 1), (0, 1, 0)]
        let needed = { (o: (Int, Int, Int)) in o.0 + max(0, n * o.1 - (o.1 - 1)) + o.2 + 1 }
        let choice = options.first { needed($0) <= form.height } ?? (0, 1, 0)
        let (headingRows, gap, buttonGap) = choice

        heading = headingRows > 0 ? Rect(x: form.x + 2, y: form.y, width: form.width - 3, height: 1) : nil
        let labelWidth = fieldLabels.map { TextWidth.width(of: $0) }.max() ?? 0
        let labelX = form.x + 2
        let valueX = labelX + labelWidth + 2
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
        clearButton = Rect(x: valueX, y: buttonsY, width: Self.clearLabel.count, height: 1)
        addButton = Rect(x: valueX + Self.clearLabel.count + 2, y: buttonsY, width: Self.addLabel.count, height: 1)
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
