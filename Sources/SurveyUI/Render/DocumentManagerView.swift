import FoundationEssentials
import SurveyValues
import SurveyForms

/// The F3 popover, modelled on the original app's file list: every document with its record
/// count and last change, the current one marked, the highlighted one in reverse, and the
/// inline rename field in place of the highlighted name while renaming.
///
/// Like ratatui's `List` with its `ListState`, it holds the rows and where the cursor and
/// scroll are, nothing else of the state, so it can be drawn from hand-made rows.
struct DocumentManagerView {
    /// Every document of the folder, in the order shown.
    let documents: [DocumentSummary]
    /// The highlighted row, and the first row shown.
    let cursor: Int
    let scroll: Int
    /// The open document's name, marked •.
    let current: String
    /// The rename field, drawn in place of the highlighted name while renaming.
    let renaming: TextInput?
    /// For the Modified column.
    let timeZone: TimeZoneRule

    /// The view for the current state: the one place the state is read for F3.
    static func make(from state: AppState) -> DocumentManagerView {
        DocumentManagerView(documents: state.documents, cursor: state.managerCursor, scroll: state.manager.rows.scroll,
                            current: state.documentName, renaming: state.manager.renaming,
                            timeZone: state.environment.timeZone)
    }

    func draw(into grid: inout CellGrid, layout: Layout) {
        let docs = documents
        let box = layout.documentManagerBox(rowCount: docs.count)
        let inner = grid.box(box, title: "Documents", style: .accent)
        guard inner.height > 0 else { return }
        let columns = Columns(width: inner.width)
        var header = "  " + pad("Name", columns.name) + " " + leftPad("Records", columns.records)
        if columns.modified > 0 { header += "  " + pad("Modified", columns.modified) }
        grid.put(header, x: inner.x, y: inner.y, style: .muted, clip: inner)
        let rows = layout.documentManagerRows(rowCount: docs.count)
        if docs.isEmpty {
            grid.put("  Reading the folder…", x: rows.x, y: rows.y, style: .muted, clip: rows)
            return
        }
        for line in 0..<rows.height {
            let index = scroll + line
            guard index < docs.count else { break }
            let doc = docs[index]
            let y = rows.y + line
            let highlighted = index == cursor
            let style = highlighted ? Style(.reverse) : .plain
            if highlighted {
                grid.fill(rows.row(line), style: style)
                grid.cursor = Point(x: rows.x, y: y)
            }
            if doc.name == current {
                grid.put("•", x: rows.x, y: y, style: style.adding(.bold), clip: rows)
            }
            let nameRect = Rect(x: rows.x + 2, y: y, width: columns.name, height: 1)
            if highlighted, let buffer = renaming {
                TextFieldView(buffer: buffer).draw(into: &grid, in: nameRect)
            } else {
                grid.put(doc.name, x: nameRect.x, y: y, style: style, clip: nameRect)
            }
            // No count and no problem: still being read in the background.
            let count = doc.recordCount.map(String.init) ?? (doc.problem == nil ? "…" : "unreadable")
            grid.put(leftPad(count, columns.records), x: nameRect.maxX + 1, y: y,
                     style: doc.problem != nil ? style.adding(.bold) : style, clip: rows)
            if columns.modified > 0, let date = doc.modified {
                grid.put(LocalTime.text(date, in: timeZone), x: nameRect.maxX + 1 + columns.records + 2, y: y,
                         style: style, clip: rows)
            }
        }
    }

    /// Column widths: the name takes what the count and date leave; the date goes first
    /// when the box is narrow.
    struct Columns {
        let name: Int
        let records: Int
        let modified: Int
        init(width: Int) {
            records = 10
            modified = width >= 52 ? 16 : 0
            name = max(1, width - 2 - 1 - records - (modified > 0 ? modified + 2 : 0) - 1)
        }
    }
}

func pad(_ text: String, _ width: Int) -> String {
    let t = TextWidth.truncate(text, to: width)
    return t + String(repeating: " ", count: max(0, width - TextWidth.width(of: t)))
}

func leftPad(_ text: String, _ width: Int) -> String {
    let t = TextWidth.truncate(text, to: width)
    return String(repeating: " ", count: max(0, width - TextWidth.width(of: t))) + t
}
