#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import CNcurses
import SurveyValues
import SurveyForms
import SurveyStorage
import SurveyUI

/// Copies one grid row into a curses window, cell by cell at the grid's own columns.
///
/// Runs of narrow characters in one style go out as a single `wadd_wchnstr` of ready-made
/// cells (most of any screen): printable ASCII, and any other single scalar that `wcwidth`
/// (which both the grid and curses measure with) calls one column, such as "ë", "Ж", "λ" or
/// Arabic letters. Their width cannot be disputed, and curses copies the cells without
/// decoding text or moving its cursor. Every other cell (wide, combining, emoji, a scalar
/// `wcwidth` does not know) is placed with its own `wmove` + `wadd_wch`, so if curses
/// measures a character differently from the grid the error cannot shift the rest of the
/// row in curses' model.
///
/// A cell becomes one `cchar_t`: its first scalar plus the zero-width scalars right after it
/// (combining accents, variation selectors). Everything from the first spacing scalar on
/// (the second emoji of a ZWJ sequence) is dropped, with its dangling joiner, because curses
/// would give it columns of its own.
///
/// Emoji made wide only by VS16 (U+FE0F, e.g. "🏙️") are the one case where the grid (2
/// columns) and curses (`wcwidth` 1) disagree, and terminals disagree too. curses sends a
/// run of cells as one stream, so if the terminal drew the emoji 2 wide, every later cell
/// in the run would land one column right. So such a cell is drawn without its VS16 (text
/// presentation, 1 column everywhere) and its second column stays blank.
struct CursesRowWriter {
    private let window: UnsafeMutablePointer<WINDOW>
    private let palette: CursesPalette
    private var style: Style?
    /// A blank in the current style, copied for each narrow cell.
    private var template = cchar_t()
    private var narrow: [cchar_t] = []
    private var narrowStart = 0
    private var row: Int32 = 0
    private var wide: [wchar_t] = []

    init(window: UnsafeMutablePointer<WINDOW>, palette: CursesPalette) {
        self.window = window
        self.palette = palette
        narrow.reserveCapacity(256)
        wide.reserveCapacity(Int(CCHARW_MAX) + 1)
    }

    /// Draws cells `0..<columns` of row `y`, or only `range` of them. A wide cell whose
    /// second column does not fit is left blank.
    mutating func draw(row y: Int, of grid: CellGrid, columns: Int, range: Range<Int>? = nil) {
        row = Int32(y)
        let cells = grid[row: y]
        let start = cells.startIndex
        for x in range ?? 0..<columns {
            let cell = cells[start + x]
            if cell.isContinuation { continue }
            setStyle(cell.style)
            if let scalar = Self.narrowScalar(cell) {
                if narrow.isEmpty { narrowStart = x }
                var cell = template
                cell.chars.0 = scalar
                narrow.append(cell)
                continue
            }
            flushNarrow()
            let gridWidth = x + 1 < grid.size.width && cells[start + x + 1].isContinuation ? 2 : 1
            guard x + gridWidth <= columns else { continue }
            drawComplex(cell.text, at: x, gridWidth: gridWidth)
        }
        flushNarrow()
    }

    /// The character of a cell that is one narrow scalar (see the type's notes), nil
    /// otherwise; read from the cell's scalar, without making its text.
    static func narrowScalar(_ cell: Cell) -> wchar_t? {
        guard let scalar = cell.scalar else { return nil }
        let value = scalar.value
        if value < 0x80 { return value >= 0x20 && value < 0x7F ? wchar_t(value) : nil }
        guard !isControl(scalar) else { return nil }
        let character = wchar_t(bitPattern: value)
        return wcwidth(character) == 1 ? character : nil
    }

    /// `narrowScalar` for a cell's text.
    static func narrowScalar(_ text: String) -> wchar_t? {
        let utf8 = text.utf8
        if utf8.count == 1, let byte = utf8.first {
            return byte >= 0x20 && byte < 0x7F ? wchar_t(byte) : nil
        }
        // Two to four bytes can be one scalar; more never are.
        guard utf8.count > 1, utf8.count <= 4 else { return nil }
        let scalars = text.unicodeScalars
        guard let scalar = scalars.first, scalars.index(after: scalars.startIndex) == scalars.endIndex,
              !isControl(scalar) else { return nil }
        let character = wchar_t(bitPattern: scalar.value)
        return wcwidth(character) == 1 ? character : nil
    }

    /// Whether cells `columns` of row `y` are all narrow characters: such a span can be
    /// copied alone, since no character in it reaches a column outside it.
    static func isNarrow(row y: Int, columns: Range<Int>, of grid: CellGrid) -> Bool {
        let cells = grid[row: y]
        for x in columns where narrowScalar(cells[cells.startIndex + x]) == nil { return false }
        return true
    }

    private mutating func setStyle(_ newStyle: Style) {
        guard newStyle != style else { return }
        flushNarrow()
        let rendition = palette.rendition(of: newStyle)
        wattr_set(window, rendition.attributes, rendition.pair, nil)
        let blank: [wchar_t] = [0x20, 0]
        template = cchar_t()
        _ = setcchar(&template, blank, rendition.attributes, rendition.pair, nil)
        style = newStyle
    }

    private mutating func flushNarrow() {
        guard !narrow.isEmpty else { return }
        // Copies the cells as they are (the bottom-right one included: the cursor does not
        // advance, so nothing can scroll).
        wmove(window, row, Int32(narrowStart))
        _ = wadd_wchnstr(window, narrow, Int32(narrow.count))
        narrow.removeAll(keepingCapacity: true)
    }

    private mutating func drawComplex(_ text: String, at x: Int, gridWidth: Int) {
        wide.removeAll(keepingCapacity: true)
        let scalars = text.unicodeScalars
        guard let first = scalars.first else { return }
        let firstWidth = TextWidth.width(of: first)
        if Self.isControl(first) || firstWidth > gridWidth {
            wide.append(0xFFFD)   // never let a cell move the cursor or overflow its columns
        } else {
            if firstWidth == 0 { wide.append(0x20) }   // a lone mark combines with a space
            wide.append(wchar_t(bitPattern: first.value))
            // The grid widened a narrow base because of VS16; curses cannot, so draw the base
            // in text presentation, which every terminal agrees is one column.
            let dropPresentationSelector = firstWidth < gridWidth
            for next in scalars.dropFirst() {
                if TextWidth.width(of: next) != 0 || Self.isControl(next) { break }
                if wide.count == Int(CCHARW_MAX) { break }
                if dropPresentationSelector && next == "\u{FE0F}" { continue }
                wide.append(wchar_t(bitPattern: next.value))
            }
            // A joiner left dangling (its partner was dropped) could make a terminal that
            // clusters graphemes join it with the next cell's emoji.
            if wide.count > 1, wide.last == 0x200D { wide.removeLast() }
        }
        wide.append(0)
        var character = cchar_t()
        guard setcchar(&character, wide, 0, 0, nil) != ERR else { return }
        wmove(window, row, Int32(x))
        _ = wadd_wch(window, &character)
    }

    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.isControlCharacter
    }
}
