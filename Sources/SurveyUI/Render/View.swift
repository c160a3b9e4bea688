/// A piece of the screen (ratatui's Widget): draws only inside `rect`, does no I/O.
public protocol View {
    func draw(into grid: inout CellGrid, in rect: Rect)
}

extension CellGrid {
    /// Draws a single-line box border, clearing its inside first, and returns the inside.
    @discardableResult
    public mutating func box(_ rect: Rect, title: String? = nil, style: Style = .plain) -> Rect {
        guard rect.width >= 2, rect.height >= 2 else { return Rect(x: rect.x, y: rect.y, width: 0, height: 0) }
        fill(rect)
        for x in rect.x + 1..<rect.maxX - 1 {
            self[x, rect.y] = Cell("─", style: style)
            self[x, rect.maxY - 1] = Cell("─", style: style)
        }
        for y in rect.y + 1..<rect.maxY - 1 {
            self[rect.x, y] = Cell("│", style: style)
            self[rect.maxX - 1, y] = Cell("│", style: style)
        }
        self[rect.x, rect.y] = Cell("┌", style: style)
        self[rect.maxX - 1, rect.y] = Cell("┐", style: style)
        self[rect.x, rect.maxY - 1] = Cell("└", style: style)
        self[rect.maxX - 1, rect.maxY - 1] = Cell("┘", style: style)
        if let title, rect.width > 4 {
            put(" \(title) ", x: rect.x + 2, y: rect.y, style: style.adding(.bold),
                clip: Rect(x: rect.x + 1, y: rect.y, width: rect.width - 2, height: 1))
        }
        return rect.inset(by: 1)
    }
}
