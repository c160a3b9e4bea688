import SurveyValues
import SurveyForms

/// The two small dialogs of the document manager: confirming a delete, and naming a file for
/// records whose document vanished. Both are popovers, so they replace any other.
struct ConfirmDeletePopover {
    let name: String
    let records: Int?

    func draw(into grid: inout CellGrid, layout: Layout) {
        let count = records.map { counted($0, "record") } ?? "unreadable"
        let text = ["Delete “\(name)” (\(count))?", "",
                    "It goes to the trash: u in the documents list brings it back.", "",
                    "Press y to delete it, n to keep it."]
        drawDialog(title: "Delete document", lines: text, into: &grid, layout: layout)
    }
}

struct SaveAsPopover {
    let name: String
    let records: Int
    let buffer: TextInput
    let unreadable: Bool

    func draw(into grid: inout CellGrid, layout: Layout) {
        let what = unreadable ? "was made unreadable by another program; it is left as it is."
                              : "was deleted or renamed outside survey."
        let lines = ["“\(name)” \(what)",
                     "Save its \(counted(records, "record")) as:", "", "", "Enter saves; Esc keeps them in memory for now."]
        let inner = drawDialog(title: "Document missing", lines: lines, into: &grid, layout: layout)
        let fieldWidth = max(0, inner.width - 2)
        let wrappedCount = lines.prefix(2).reduce(0) { $0 + TextWrap.lines($1, width: inner.width - 2).count }
        let field = Rect(x: inner.x + 1, y: inner.y + wrappedCount + 1, width: fieldWidth, height: 1).intersection(inner)
        TextFieldView(buffer: buffer).draw(into: &grid, in: field)
    }
}

/// A centred box with a title and wrapped lines; returns the inside.
@discardableResult
func drawDialog(title: String, lines: [String], into grid: inout CellGrid, layout: Layout) -> Rect {
    let width = min(62, layout.size.width - 2)
    let wrapped = lines.flatMap { $0.isEmpty ? [""] : TextWrap.lines($0, width: width - 4) }
    let box = layout.centeredBox(width: width, height: wrapped.count + 2)
    let inner = grid.box(box, title: title, style: .accent)
    for (i, line) in wrapped.enumerated() where i < inner.height {
        grid.put(line, x: inner.x + 1, y: inner.y + i, style: i == 0 ? .bold : .plain,
                 clip: Rect(x: inner.x + 1, y: inner.y, width: inner.width - 1, height: inner.height))
    }
    return inner
}
