import Synchronization
/// The message line above the key bar: what just happened, or why something was refused.
/// A message longer than the width wraps to a second row when the layout gave it one; what
/// still does not fit ends in "…" and F1 help shows it whole.
struct StatusLine: View {
    let message: AppState.StatusMessage?

    func draw(into grid: inout CellGrid, in rect: Rect) {
        guard let message, !rect.isEmpty else { return }
        let style: Style = message.kind == .error ? .error : .plain
        let rows = Self.rows(message.text, width: Self.textWidth(in: rect.width), maxRows: rect.height)
        for (i, row) in rows.enumerated() {
            grid.put(row, x: rect.x + 1, y: rect.y + i, style: style, clip: rect)
        }
    }

    /// Whether `text` is its own wrapping in one row of `width` cells, told from its bytes
    /// alone: no more bytes than cells (no character is wider than its UTF-8 bytes), nothing
    /// a wrap would change (a control character, a space at either end or two together).
    /// Most messages are; the layout asks on every key, so it must not measure or wrap them.
    static func isOneRow(_ text: String, width: Int) -> Bool {
        let utf8 = text.utf8
        guard !utf8.isEmpty, utf8.count <= width, utf8.first != 0x20, utf8.last != 0x20 else { return false }
        var previous: UInt8 = 0
        for byte in utf8 {
            if byte < 0x20 || byte == 0x7F || (byte == 0x20 && previous == 0x20) { return false }
            previous = byte
        }
        return true
    }

    /// The cells a message may use on a screen `width` wide (one column of margin on the left).
    static func textWidth(in width: Int) -> Int { max(0, width - 1) }

    /// The text in at most `maxRows` rows of `width` cells, broken between words (inside a
    /// word longer than a row), the last row ending in "…" when text is left over. Looks at
    /// no more of the text than the rows can hold, so a message quoting 1 MB costs its rows.
    static func rows(_ text: String, width: Int, maxRows: Int) -> [String] {
        guard width > 0, maxRows > 0, !text.isEmpty else { return [] }
        if isOneRow(text, width: width) { return [text] }
        let head = text.prefix(width * maxRows + 1)
        var rows: [String] = []
        for line in TextWrap.lines(String(head), width: width) {
            rows += TextWidth.width(of: line) > width ? TextWrap.hardLines(line, width: width) : [line]
        }
        guard rows.count > maxRows || head.endIndex < text.endIndex else { return rows }
        rows = Array(rows.prefix(maxRows))
        rows[rows.count - 1] = TextWidth.truncate(rows[rows.count - 1] + "…", to: width)
        return rows
    }
}

/// The bottom bar: the keys that work right now, straight from the key table.
struct KeyBar: View {
    let mode: InputMode

    /// Draws the bar; a one-row bar is drawn once per mode and width and copied after that,
    /// since it changes only with them and is on every frame.
    func draw(into grid: inout CellGrid, in rect: Rect) {
        guard !rect.isEmpty else { return }
        guard rect.height == 1 else { return drawFresh(into: &grid, in: rect) }
        let key = DrawnKey(mode: mode, width: rect.width)
        let cells: [Cell]
        if let known = Self.drawnBars.withLock({ $0[key] }) {
            cells = known
        } else {
            var row = CellGrid(size: Size(width: rect.width, height: 1))
            drawFresh(into: &row, in: row.bounds)
            cells = row.cells
            Self.drawnBars.withLock { bars in
                if bars.count >= 256 { bars.removeAll() }
                bars[key] = cells
            }
        }
        grid.paste(cells, x: rect.x, y: rect.y, clip: rect)
    }

    private struct DrawnKey: Hashable { let mode: InputMode; let width: Int }
    private static let drawnBars = Mutex<[DrawnKey: [Cell]]>([:])

    func drawFresh(into grid: inout CellGrid, in rect: Rect) {
        grid.fill(rect, style: .chrome)
        var x = rect.x + 1
        for binding in Self.fitting(KeyMap.barBindings(for: mode), width: rect.width - 1) {
            let keyWidth = TextWidth.width(of: binding.keyLabel)
            grid.put(binding.keyLabel, x: x, y: rect.y, style: Style([.reverse, .bold], role: .chrome), clip: rect)
            grid.put(binding.barLabel ?? "", x: x + keyWidth + 1, y: rect.y, style: .chrome, clip: rect)
            x += Self.itemWidth(binding) + 2
        }
    }

    private static func itemWidth(_ b: KeyBinding) -> Int {
        TextWidth.width(of: b.keyLabel) + 1 + TextWidth.width(of: b.barLabel ?? "")
    }

    /// The bindings that fit, keeping F1 (which lists all keys) and ^Q for as long as
    /// possible, so a narrow terminal still says how to get help and out. What goes first is
    /// what works in the most modes (F2, F3: the same everywhere), the last of those first:
    /// the keys of this mode alone say the most about it (issue 30: inside a roster, PgUp/PgDn
    /// and ^O/^D were cut at 80 columns while F3 stayed).
    static func fitting(_ bindings: [KeyBinding], width: Int) -> [KeyBinding] {
        var items = bindings
        let total = { (list: [KeyBinding]) in list.reduce(0) { $0 + itemWidth($1) + 2 } - 2 }
        let essential: (KeyBinding) -> Bool = { $0.keys.contains(.function(1)) || $0.keys.contains(.control("q")) }
        let reach: (KeyBinding) -> Int = { binding in InputMode.allCases.filter { binding.modes.contains($0) }.count }
        while !items.isEmpty && total(items) > width {
            let droppable = items.indices.filter { !essential(items[$0]) }
            if let widest = droppable.map({ reach(items[$0]) }).max(), let i = droppable.last(where: { reach(items[$0]) == widest }) {
                items.remove(at: i)
            } else {
                items.removeLast()
            }
        }
        return items
    }
}

/// What a terminal too small for the form shows instead of crashing, down to 1x1.
struct TooSmallView: View {
    let size: Size

    func draw(into grid: inout CellGrid, in rect: Rect) {
        let min = Layout.minimumSize
        let full = ["Terminal too small", "\(size.width)x\(size.height), need \(min.width)x\(min.height)"]
        let short = ["Too small", "\(size.width)x\(size.height)"]
        let lines = rect.width >= TextWidth.width(of: full[1]) ? full : short
        let top = rect.y + max(0, (rect.height - lines.count) / 2)
        for (i, line) in lines.enumerated() where top + i < rect.maxY {
            let w = TextWidth.width(of: line)
            grid.put(line, x: rect.x + max(0, (rect.width - w) / 2), y: top + i, style: i == 0 ? .bold : .plain, clip: rect)
        }
    }
}
