import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// One terminal cell. A wide character occupies its cell and marks the next one as a
/// continuation (empty `text`), so the grid's columns always match the terminal's.
///
/// Eight bytes with no references: the character is kept as a number (a single scalar's
/// value, or the place of a longer grapheme cluster in a table shared by every grid), so a
/// grid is made, cleared, compared and thrown away without counting references or
/// comparing strings. `text` gives the character back as a string.
public struct Cell: Hashable, Sendable {
    /// A scalar's value (below 0x110000), `continuationCode`, or `clusterFlag` plus the
    /// cluster's place in `Cell.clusters`.
    @usableFromInline var code: UInt32
    public var style: Style
    /// The two bytes `style` leaves over, kept zero so that equal cells are equal bytes and
    /// a row can be compared with one `memcmp` (`changedColumns`).
    @usableFromInline var spare: UInt16 = 0

    @usableFromInline static let continuationCode: UInt32 = 0xFFFF_FFFF
    @usableFromInline static let clusterFlag: UInt32 = 0x8000_0000

    public init(_ text: String = " ", style: Style = .plain) {
        self.code = Self.code(of: text)
        self.style = style
    }

    @inlinable init(code: UInt32, style: Style) {
        self.code = code
        self.style = style
    }

    public var text: String {
        get {
            if code == Self.continuationCode { return "" }
            if code & Self.clusterFlag != 0 { return Self.clusters.withLock { $0.texts[Int(code & ~Self.clusterFlag)] } }
            return String(Character(Unicode.Scalar(code) ?? "\u{FFFD}"))
        }
        set { code = Self.code(of: newValue) }
    }

    /// The cell's character when it is one Unicode scalar (nil for a continuation or a
    /// cluster of several scalars), read without making a string.
    @inlinable public var scalar: Unicode.Scalar? {
        code < 0x11_0000 ? Unicode.Scalar(code) : nil
    }

    @inlinable public var isContinuation: Bool { code == Self.continuationCode }
    public static let blank = Cell()

    /// The grapheme clusters of more than one scalar (an emoji with its selector, a letter
    /// with a combining accent) drawn so far, each kept once for the life of the process:
    /// there are as many as distinct such characters were shown, not one per cell.
    private static let clusters = Mutex(ClusterTable())

    private struct ClusterTable: ~Copyable {
        var texts: [String] = []
        var codes: [String: UInt32] = [:]
    }

    private static func code(of text: String) -> UInt32 {
        let utf8 = text.utf8
        if utf8.count == 1, let byte = utf8.first { return UInt32(byte) }
        if utf8.isEmpty { return continuationCode }
        let scalars = text.unicodeScalars
        if let first = scalars.first, scalars.index(after: scalars.startIndex) == scalars.endIndex {
            return first.value
        }
        return clusters.withLock { table in
            if let known = table.codes[text] { return known }
            let code = clusterFlag | UInt32(table.texts.count)
            table.texts.append(text)
            table.codes[text] = code
            return code
        }
    }
}

/// The in-memory screen every view draws into (ratatui's Buffer). The UI core renders a
/// whole frame here with no I/O, tests read it back as text, and the terminal module copies it
/// to curses. Writes outside the grid or outside a view's clip rect are dropped, so no view
/// can spill into another.
public struct CellGrid: Equatable, Sendable {
    public private(set) var size: Size
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

    /// Makes this grid what `CellGrid(size:)` makes (blank, no cursor), keeping its storage
    /// when the size is the same, so a frame can be drawn into the grid of an earlier one
    /// without allocating.
    public mutating func reset(size newSize: Size) {
        guard newSize == size else {
            self = CellGrid(size: newSize)
            return
        }
        cells.withUnsafeMutableBufferPointer { $0.update(repeating: .blank) }
        cursor = nil
        showsCaret = false
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

    /// Row `y`'s cells (indexed by `y * size.width + x`, as in `cells`), for reading a row
    /// without a call per cell.
    @inlinable public subscript(row y: Int) -> ArraySlice<Cell> {
        cells[y * size.width..<(y + 1) * size.width]
    }

    /// Fills a rectangle (clipped to the grid) with one character and style.
    public mutating func fill(_ rect: Rect, with text: String = " ", style: Style = .plain) {
        let r = rect.intersection(bounds)
        guard !r.isEmpty else { return }
        let cell = Cell(text, style: style)
        for y in r.y..<r.maxY {
            let row = y * size.width
            for x in r.x..<r.maxX { cells[row + x] = cell }
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
    /// each cell's code the byte itself, so nothing is measured or allocated. Returns nil
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
            if column >= area.x { cells[row + column] = Cell(code: UInt32(byte), style: style) }
            column += 1
        }
        return column - x
    }

    private static func printable(_ c: Character) -> Character {
        for s in c.unicodeScalars where s.isControlCharacter {
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
        let start = y * size.width, width = size.width
        return cells.withUnsafeBufferPointer { now in
            previous.cells.withUnsafeBufferPointer { before in
                // Most rows of a frame are as they were: one memcmp says so (a cell is eight
                // bytes of plain data with no padding, so equal bytes are equal cells).
                if memcmp(now.baseAddress! + start, before.baseAddress! + start, width * MemoryLayout<Cell>.stride) == 0 { return nil }
                var first = 0
                while first < width, now[start + first] == before[start + first] { first += 1 }
                guard first < width else { return nil }
                var last = width - 1
                while last > first, now[start + last] == before[start + last] { last -= 1 }
                return first..<last + 1
            }
        }
    }

    /// Whether the cells of row `y` in `columns` are all one printable ASCII character each.
    public func isPrintableASCII(row y: Int, columns: Range<Int>) -> Bool {
        let start = y * size.width
        for x in columns {
            let code = cells[start + x].code
            guard code >= 0x20, code < 0x7F else { return false }
        }
        return true
    }

    /// The cells `put(text, x: 0, y: 0, clip:)` writes when the clip leaves it `width`
    /// columns (cut with "…" if it does not fit), for drawing the same text again with
    /// `put(cells:x:y:style:clip:)` without measuring it again.
    public static func cells(of text: String, width: Int) -> [Cell] {
        guard width > 0 else { return [] }
        var row = CellGrid(size: Size(width: width, height: 1))
        let used = row.put(text, x: 0, y: 0)
        return Array(row.cells[0..<used])
    }

    /// Writes cells from `cells(of:width:)` from `(x, y)` in `style`, clipped like `put`:
    /// the same cells as putting the text there when the clip leaves the width they were
    /// laid out for. Returns the columns used.
    @discardableResult
    public mutating func put(cells laid: [Cell], x: Int, y: Int, style: Style = .plain, clip: Rect? = nil) -> Int {
        let area = (clip ?? bounds).intersection(bounds)
        guard y >= area.y, y < area.maxY, x < area.maxX, !laid.isEmpty else { return 0 }
        let row = y * size.width
        let first = max(x, area.x)
        let end = min(x + laid.count, area.maxX)
        guard first < end else { return 0 }
        for column in first..<end { cells[row + column] = Cell(code: laid[column - x].code, style: style) }
        return end - x
    }

    /// Copies cells, each with its own style, from `(x, y)` rightwards, clipped to `clip`
    /// (and the grid): for a row drawn once and kept.
    public mutating func paste(_ laid: [Cell], x: Int, y: Int, clip: Rect? = nil) {
        let area = (clip ?? bounds).intersection(bounds)
        guard y >= area.y, y < area.maxY else { return }
        let first = max(x, area.x)
        let end = min(x + laid.count, area.maxX)
        guard first < end else { return }
        let row = y * size.width
        for column in first..<end { cells[row + column] = laid[column - x] }
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
