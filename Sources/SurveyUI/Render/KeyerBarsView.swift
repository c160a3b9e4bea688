import SurveyValues
import SurveyForms

/// F4's picture of the keyers (issue 30: "a supervisor wants a picture"): for each login, a
/// bar of the surveys it keyed, scaled to the busiest keyer, and under it a bar of its keyer
/// error rate (keyer errors per field verified in its surveys), scaled to the worst, with
/// the numbers beside each bar, so nothing is told by length alone. Two lines per keyer,
/// so it reads the same at 60 columns as at 120; rows that do not fit are left out, last first.
struct KeyerBarsView {
    let rows: [KeyerStatistics.Row]

    static let block: Character = "█"

    func draw(into grid: inout CellGrid, in rect: Rect) {
        guard rect.height >= 3, rect.width >= 20 else { return }
        grid.put("Keyers: surveys keyed; keyer errors per field verified", x: rect.x, y: rect.y, style: .bold, clip: rect)
        let nameWidth = min(12, max(rows.map { $0.login.count }.max() ?? 0, 4))
        let barX = rect.x + nameWidth + 1
        let barWidth = max(4, rect.width - nameWidth - 1 - 24)
        let mostSurveys = rows.map(\.surveysKeyed).max() ?? 0
        let worstRate = rows.map(\.keyerErrorRate).max() ?? 0
        var y = rect.y + 1
        for row in rows where y + 1 < rect.maxY {
            grid.put(row.login, x: rect.x, y: y, clip: Rect(x: rect.x, y: y, width: nameWidth, height: 1))
            let surveys = Self.length(Double(row.surveysKeyed), of: Double(mostSurveys), width: barWidth)
            grid.put(String(repeating: Self.block, count: surveys), x: barX, y: y, style: .accent, clip: rect)
            grid.put(counted(row.surveysKeyed, "survey"), x: barX + surveys + (surveys > 0 ? 1 : 0), y: y, clip: rect)
            let errors = Self.length(row.keyerErrorRate, of: worstRate, width: barWidth)
            grid.put(String(repeating: Self.block, count: errors), x: barX, y: y + 1, style: Style(.bold, role: .error), clip: rect)
            var rate = row.fieldsVerified == 0 ? "none verified"
                : "\(StatsText.percent(row.keyerErrorRate)) of \(row.fieldsVerified) verified"
            if row.fieldsVerifiedAsVerifier > 0 {
                rate += " · verifier of \(row.fieldsVerifiedAsVerifier), \(counted(row.verifierErrors, "slip"))"
            }
            grid.put(rate, x: barX + errors + (errors > 0 ? 1 : 0), y: y + 1, style: .muted, clip: rect)
            y += 2
        }
    }

    /// A bar's length: its share of the largest, at least one block for anything above zero.
    static func length(_ value: Double, of largest: Double, width: Int) -> Int {
        guard value > 0, largest > 0 else { return 0 }
        return max(1, Int((value / largest * Double(width)).rounded()))
    }
}

/// Rates as a keyer reads them: `2.5%`.
enum StatsText {
    static func percent(_ rate: Double) -> String {
        let tenths = Int((rate * 1000).rounded())
        return "\(tenths / 10).\(tenths % 10)%"
    }
}
