import SurveyValues
import SurveyForms

extension AppState {
    /// Where the highlighted question sits among the rosters, outermost first, each roster's
    /// name then the member shown with its first answer: `Tree`, `2 of 3 (“102”)`, `Stems`,
    /// `3 of 3` (issue 30). The form's heading shows it, so a keyer deep in a nested member
    /// knows whose answers these are without scrolling up to the member's heading row, at
    /// any size. Empty outside rosters (`FormState.highlightsMember(in:)` says which, cheaply).
    func breadcrumb(in outline: FormWalk) -> [String] {
        guard case .field(let i) = formItem, let entries = outline.entries, entries.indices.contains(i.index) else { return [] }
        let steps = entries[i.index].steps
        guard !steps.isEmpty else { return [] }
        var crumbs: [String] = []
        for depth in 1...steps.count {
            let prefix = Array(steps.prefix(depth))
            guard let heading = entries.lazy.compactMap(\.heading).first(where: { $0.steps == prefix }) else { continue }
            crumbs.append(RosterText.name(heading))
            crumbs.append("\(heading.shown + 1) of \(heading.count)" + memberTitle(prefix))
        }
        return crumbs
    }
}
