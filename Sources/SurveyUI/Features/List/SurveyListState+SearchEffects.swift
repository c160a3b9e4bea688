import FoundationEssentials

/// The background search follows the list through effects, not by the runtime watching the
/// state after every action (issue 29): `update` notes what the list wanted before the action
/// and returns what changed. A search left to finish that is a different one now is
/// `finishSearch` (a newer query replaces the one under way) or `cancelSearch` (nothing is
/// waited for any more); text typed while the `/` index is being built is `searchAhead`, so
/// the build searches ahead for what is on the line by the time it is done.
extension SurveyListState {
    /// What the background search follows, taken before an action.
    struct SearchFollowed: Equatable {
        var toFinish: SearchJob?
        var typedWhileIndexing: String?
    }

    var searchFollowed: SearchFollowed {
        SearchFollowed(toFinish: searchToFinish, typedWhileIndexing: indexPending ? activeFilter.text : nil)
    }

    /// The effects that bring the background search in step with the list, since `before`.
    func searchEffects(since before: SearchFollowed) -> [Effect] {
        let now = searchFollowed
        var effects: [Effect] = []
        if now.toFinish != before.toFinish { effects.append(now.toFinish.map(Effect.finishSearch) ?? .cancelSearch) }
        // The build starts searching ahead for nothing (`buildSearchIndex`): only text says more.
        if let typed = now.typedWhileIndexing, typed != (before.typedWhileIndexing ?? "") { effects.append(.searchAhead(typed)) }
        return effects
    }
}
