import SurveyValues
import SurveyForms

/// F4's `c`: the fields a sync or a merge found changed on both sides, one entry each, the
/// survey by its name in the list, the field by its path, this laptop's answer beside the
/// other side's. `m` keeps mine, `t` takes theirs; the highlight says which one the keys
/// act on. Holds only what it draws, made from the state in `make(from:)`.
struct ConflictsView: View {
    struct Entry: Equatable {
        var survey: String
        var field: String
        var mine: String
        var theirs: String
    }

    let entries: [Entry]
    let cursor: Int

    static func make(from state: AppState) -> ConflictsView {
        let titles = Dictionary(state.records.compactMap { r in r.instanceID.map { ($0, r) } }, uniquingKeysWith: { a, _ in a })
        let entries = (state.session.sync?.conflicts ?? []).map { conflict in
            Entry(survey: titles[conflict.id].map { state.session.title(of: $0, limit: 60) } ?? conflict.id,
                  field: conflict.path.isWholeSurvey ? "(the whole survey: edited here, deleted there)"
                      : conflict.path.isMember ? "\(conflict.path) (a member: deleted on one side, edited on the other)"
                      : conflict.path.description,
                  mine: ConflictListing.cellText(conflict.mine, wholeSurvey: conflict.path.isWholeSurvey, member: conflict.path.isMember),
                  theirs: ConflictListing.cellText(conflict.theirs, wholeSurvey: conflict.path.isWholeSurvey, member: conflict.path.isMember))
        }
        return ConflictsView(entries: entries, cursor: state.session.conflictCursor)
    }

    func draw(into grid: inout CellGrid, in rect: Rect) {
        let inner = Rect(x: rect.x + 2, y: rect.y, width: rect.width - 3, height: rect.height)
        guard !inner.isEmpty else { return }
        grid.put("Conflicts (\(entries.count)): m keeps mine, t takes theirs", x: inner.x, y: inner.y, style: .accent, clip: inner)
        // Four lines an entry; the highlighted one kept in view.
        let perEntry = 4
        let fit = max(1, (inner.height - 2) / perEntry)
        let first = max(0, min(cursor - fit / 2, entries.count - fit))
        var y = inner.y + 2
        for (i, entry) in entries.enumerated().dropFirst(first).prefix(fit) {
            let style: Style = i == cursor ? .chrome : .plain
            let marker = i == cursor ? "› " : "  "
            grid.put(marker + entry.survey + " · " + entry.field, x: inner.x, y: y, style: style, clip: inner)
            grid.put("    mine:   " + entry.mine, x: inner.x, y: y + 1, clip: inner)
            grid.put("    theirs: " + entry.theirs, x: inner.x, y: y + 2, clip: inner)
            y += perEntry
        }
    }
}
