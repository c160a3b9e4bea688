/// One terminal cell. A wide character occupies its cell and marks the next one as a
/// continuation (empty `text`), so the grid's columns always match the terminal's.
public struct Cell: Hashable, Sendable {
    public var text: String
    public var style: Style

    public init(_ text: String = " ", style: Style = .plain) {
        self.text = text
        self.style = style
    }

    public var isContinuation: Bool { text.isEmpty }
    public static let blank = Cell()
}

/// The in-memory screen every view draws into (ratatui's Buffer). The UI core renders a
/// whole frame here with no I/O, tests read it back as text, and the terminal module copies it
/// to curses. Writes outside the grid or outside a view's clip rect are dropped, so no view
/// can spill into another.
public struct CellGrid: Equatable, Sendable {
    public let size: Size
    public private(set) var cells: [Cell]
    /// Where the terminal's cursor goes: the caret while typing, else the focused item.
    public var cursor: Point?
    /// Whether the caret is shown there (a text box being typed in). Elsewhere the terminal's
    /// cursor still sits on the focused item, hidden, so screen readers and braille displays
    /// that follow it read what has the focus.
    public var showsCaret = false

    public init(size: Size) {
        self.size = size
        self.cells = Array(repeating: .blank, count: size.width * size.height)
    }

    public var bounds: Rect { Rect(x: 0, y: 0, width: size.width, height: size.height) }

    public subscript(x: Int, y: Int) -> Cell {
        get {
            guard x >= 0, y >= 0, x < size.width, y < size.height else { return .blank }
            return cells[y * size.width + x]
        }
        set {
            guard x >= 0, y >= 0, x < size.width, y < size.height else { return }
            cells[y * size.width + x] = newValue
        }
    }

    /// Fills a rectangle (clipped to the grid) with one character and style.
    public mutating func fill(_ rect: Rect, with text: String = " ", style: Style = .plain) {
        let r = rect.intersection(bounds)
        guard !r.isEmpty else { return }
        for y in r.y..<r.maxY {
            for x in r.x..<r.maxX { self[x, y] = Cell(text, style: style) }
        }
    }

    /// Writes text from `(x, y)` clipped to `clip` (and the grid), cutting with an ellipsis
    /// when `truncate` is set and the text would not fit. Returns the columns used.
    /// Control characters are drawn as U+FFFD so nothing typed or loaded can move the cursor.
    @discardableResult
    public mutating func put(_ text: String, x: Int, y: Int, style: Style = .plain,
                             clip: Rect? = nil, truncate: Bool = true) -> Int {
        let area = (clip ?? bounds).intersection(bounds)
        guard y >= area.y, y < area.maxY, x < area.maxX else { return 0 }
        let available = area.maxX - max(x, area.x)
        guard available > 0 else { return 0 }
        if let used = putPrintableASCII(text, x: x, y: y, style: style, area: area, truncate: truncate) {
            return used
        }
        let shown = truncate ? TextWidth.truncate(text, to: area.maxX - x) : text
        var column = x
        for character in shown {
            let safe = Self.printable(character)
            let w = TextWidth.width(of: safe)
            if w == 0 { continue }
            if column + w > area.maxX { break }
            if column >= area.x {
                self[column, y] = Cell(String(safe), style: style)
                if w == 2 { self[column + 1, y] = Cell("", style: style) }
            }
            column += w
        }
        return column - x
    }

    /// `put` for text that is all printable ASCII (most of any screen): one cell per byte,
    /// each cell's text taken from a table, so nothing is measured or allocated. Returns nil
    /// (the general path) for anything else, and when the text must be cut with "…".
    private mutating func putPrintableASCII(_ text: String, x: Int, y: Int, style: Style,
                                            area: Rect, truncate: Bool) -> Int? {
        let utf8 = text.utf8
        guard utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) else { return nil }
        if truncate && utf8.count > area.maxX - x { return nil }
        var column = x
        let row = y * size.width
        for byte in utf8 {
            if column >= area.maxX { break }
            if column >= area.x { cells[row + column] = Cell(Self.asciiText[Int(byte)], style: style) }
            column += 1
        }
        return column - x
    }

    /// One-character strings for the ASCII bytes, made once.
    private static let asciiText: [String] = (0..<128).map { String(Character(Unicode.Scalar(UInt8($0)))) }

    private static func printable(_ c: Character) -> Character {
        for s in c.unicodeScalars where s.value < 0x20 || (s.value >= 0x7F && s.value < 0xA0) {
            return "\u{FFFD}"
        }
        return c
    }

    /// The columns of row `y` that differ from `previous` (first to last change), nil when
    /// the row is the same; every column when the grids differ in width. For the terminal,
    /// which then leaves unchanged cells alone.
    public func changedColumns(from previous: CellGrid, row y: Int) -> Range<Int>? {
        guard y >= 0, y < size.height else { return nil }
        guard size.width == previous.size.width, y < previous.size.height else { return 0..<size.width }
        let start = y * size.width
        var first = 0
        while first < size.width, cells[start + first] == previous.cells[start + first] { first += 1 }
        guard first < size.width else { return nil }
        var last = size.width - 1
        while last > first, cells[start + last] == previous.cells[start + last] { last -= 1 }
        return first..<last + 1
    }

    /// Whether the cells of row `y` in `columns` are all one printable ASCII character each.
    public func isPrintableASCII(row y: Int, columns: Range<Int>) -> Bool {
        let start = y * size.width
        for x in columns {
            let utf8 = cells[start + x].text.utf8
            guard utf8.count == 1, let byte = utf8.first, byte >= 0x20, byte < 0x7F else { return false }
        }
        return true
    }

    /// One row as plain text; continuation cells are skipped so wide characters read naturally.
    public func rowText(_ y: Int) -> String {
        var s = ""
        for x in 0..<size.width {
            let c = self[x, y]
            if !c.isContinuation { s += c.text }
        }
        return s
    }

    /// Every row, for tests and snapshots.
    public var lines: [String] { (0..<size.height).map(rowText) }
}
