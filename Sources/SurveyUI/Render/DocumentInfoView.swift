import SurveyValues
import SurveyForms

/// F4: facts about the current document in the form's place, like the original feed app's
/// channel info: where it is, how big, when saved, and how many records need attention.
///
/// It holds only the lines it draws, as (label, value) pairs made from the state by
/// `facts(of:)`, so it can be tested with hand-made facts and cannot read anything else.
struct DocumentInfoView: View {
    let facts: [(String, String)]
    /// Each keyer's totals (`KeyerStatistics`), drawn as bars under the facts.
    var keyers: [KeyerStatistics.Row] = []

    /// The view for the current state: the one place the state is read for F4.
    static func make(from state: AppState) -> DocumentInfoView {
        DocumentInfoView(facts: facts(of: state),
                         keyers: state.session.verification.map { KeyerStatistics($0, timeZone: state.environment.timeZone).totals } ?? [])
    }

    func draw(into grid: inout CellGrid, in rect: Rect) {
        let inner = Rect(x: rect.x + 2, y: rect.y, width: rect.width - 3, height: rect.height)
        guard !inner.isEmpty else { return }
        grid.put("Document info", x: inner.x, y: inner.y, style: .accent, clip: inner)
        var y = inner.y + 2
        let valueWidth = inner.width - 13
        for (label, value) in facts where y < inner.maxY {
            grid.put(label, x: inner.x, y: y, style: .bold, clip: inner)
            // A heading too long for the label column has its lines below it.
            if label.count > 12 { y += 1 }
            // Long values wrap at spaces, and a deep path anywhere, rather than lose their end.
            let lines = TextWrap.lines(value, width: valueWidth).flatMap { TextWrap.hardLines($0, width: valueWidth) }
            for line in lines where y < inner.maxY {
                grid.put(line, x: inner.x + 13, y: y, clip: inner)
                y += 1
            }
        }
        if !keyers.isEmpty, y + 2 < inner.maxY {
            KeyerBarsView(rows: keyers).draw(into: &grid, in: Rect(x: inner.x, y: y + 1, width: inner.width, height: inner.maxY - y - 1))
        }
    }
}
