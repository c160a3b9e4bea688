/// The top bar: the document's name and `N of M` (or `New`), plus the `Surveys` button in the
/// collapsed layout, where it is the only way (besides F2) to reach the list.
struct TitleBar: View {
    let documentName: String
    let position: String
    let surveysButton: Rect?
    /// Said after the position where it fits (`2 of 2 · incomplete`), so a form whose heading
    /// gives way for room still says so.
    var remark: String? = nil

    func draw(into grid: inout CellGrid, in rect: Rect) {
        grid.fill(rect, style: .chrome)
        var right = " \(position) "
        if let remark, rect.width >= TextWidth.width(of: right + remark) + 3 + 24 { right = " \(position) · \(remark) " }
        let rightWidth = TextWidth.width(of: right)
        var x = rect.x + 1
        if let button = surveysButton {
            grid.put(Layout.surveysButtonLabel, x: button.x, y: rect.y, style: Style(.bold, role: .chrome), clip: rect)
            x = button.maxX + 1
        }
        let titleClip = Rect(x: rect.x, y: rect.y, width: max(0, rect.maxX - rightWidth - 1 - rect.x), height: 1)
        let title = surveysButton == nil ? "Survey — \(documentName)" : documentName
        grid.put(title, x: x, y: rect.y, style: Style([.reverse, .bold], role: .chrome), clip: titleClip)
        if rect.width >= rightWidth + 12 {
            grid.put(right, x: rect.maxX - rightWidth, y: rect.y, style: .chrome, clip: rect)
        }
    }
}
