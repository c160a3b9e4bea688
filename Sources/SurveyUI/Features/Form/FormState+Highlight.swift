import SurveyValues
import SurveyForms

/// Where the form's highlight rests (issue 29: the form's own rules, beside its reducer,
/// `FormState+Reduce`): its stops in Tab/↑/↓ order, a stop again after a question was
/// hidden, a question or roster found by its path (F8, the tree, a refused Add, verifying),
/// and a long form scrolled to it. What they read of the app is the reducer's `Context`.
extension FormState {
    /// The highlight's stops, in order: the questions a person answers that `relevant` shows
    /// now and roster headings (`FormWalk.isNavigable`), then Clear and Add.
    func stops(in context: Context) -> [FormItem] {
        let walk = context.walk(instances)
        return walk.indices.filter { walk.isNavigable($0) }.map { .field($0) } + [.clear, .add]
    }

    /// ↑/↓ stop at the ends; Tab/Shift-Tab wrap. A highlight left on a question that has
    /// just been hidden moves from where it was.
    mutating func moveHighlight(by delta: Int, wrap: Bool, in context: Context) {
        let items = stops(in: context)
        let rows = context.walk(instances).count
        let n = items.count
        let i: Int
        if let here = items.firstIndex(of: formItem) {
            i = here + delta
        } else {
            // Not a stop any more: the next stop after it (or the one before, going back).
            let after = items.firstIndex { order($0, rows: rows) > order(formItem, rows: rows) } ?? n - 1
            i = delta > 0 ? after : after - 1
        }
        highlight(items[wrap ? ((i % n) + n) % n : min(max(0, i), n - 1)])
    }

    /// The highlight on a stop: the first one from where it is (after a record change hid
    /// its question, or a new form).
    mutating func settleHighlight(in context: Context) {
        let items = stops(in: context)
        guard !items.contains(formItem) else { return }
        let rows = context.walk(instances).count
        highlight(items.first { order($0, rows: rows) > order(formItem, rows: rows) } ?? .add)
    }

    /// Whether the highlight is on a member's question (the breadcrumb has something to
    /// say): cheap, for every layout, where the breadcrumb's words are made once per frame.
    func highlightsMember(in walk: FormWalk) -> Bool {
        guard case .field(let i) = formItem, let entries = walk.entries, entries.indices.contains(i.index) else { return false }
        return !entries[i.index].steps.isEmpty
    }

    /// Scrolls a long form so the highlighted question (and the line under it) is in view.
    mutating func keepHighlightInView(in context: Context) {
        guard context.scrolls else { scroll(to: 0); return }
        let geometry = context.geometry(self)
        guard geometry.viewport.height > 0, let span = geometry.contentSpan(of: formItem) else {
            scroll(to: geometry.scroll)
            return
        }
        var top = geometry.scroll
        // Inside a roster, its heading ("Household member 2 of 4") too, when both fit.
        let walk = context.walk(instances)
        if case .field(let i) = formItem, walk.indices.contains(i), let entry = walk.enclosingHeading(of: i),
           walk.heading(entry) != nil, i != entry,
           let headingSpan = geometry.contentSpan(of: .field(entry)),
           span.upperBound - headingSpan.lowerBound < geometry.viewport.height {
            top = min(top, headingSpan.lowerBound)
            if span.upperBound >= top + geometry.viewport.height { top = span.upperBound - geometry.viewport.height + 1 }
        }
        if span.lowerBound < top { top = span.lowerBound }
        if span.upperBound >= top + geometry.viewport.height { top = span.upperBound - geometry.viewport.height + 1 }
        scroll(to: max(0, min(top, geometry.contentHeight - geometry.viewport.height)))
    }

    /// The highlight on the question at `path`, showing the members it is in (a whole
    /// member's problem: its roster's heading), kept in view. False when the form has no
    /// such row shown: then nothing changed.
    @discardableResult
    mutating func highlight(problemAt path: AnswerPath, in context: Context) -> Bool {
        let before = self
        showMembers(path.steps)
        let walk = context.walk(instances)
        let row = walk.indices.first { walk.heading($0) == nil && walk.isShown($0) && walk.path($0) == path }
            ?? walk.indices.first { i in
                guard let heading = walk.heading(i) else { return false }
                return heading.name == path.name && heading.parent == path.steps
            }
        guard let row else {
            // Nothing to go to: the members shown stay as they were, the highlight with them.
            self = before
            return false
        }
        highlight(.field(row))
        keepHighlightInView(in: context)
        return true
    }

    /// Verify's correction of a keyer error (`AppState.reduce(_: VerifyAction)`): the question
    /// at `path` highlighted (as `highlight(problemAt:)`) and `text` typed into it over what
    /// `record`, the survey on the form, stores there, for the form's commit to judge. False
    /// when the form has no such question now, or it is not the keyer's to change: then
    /// nothing is typed.
    mutating func beginCorrecting(_ path: AnswerPath, to text: String, of record: Record, in context: Context) -> Bool {
        guard highlight(problemAt: path, in: context), case .field(let index) = formItem else { return false }
        let walk = context.walk(instances)
        guard walk.isNavigable(index) else { return false }
        beginEditing(EditBuffer(entry: index, text: text, original: walk.storedText(index, in: record)))
        return true
    }

    /// The heading of the roster `steps` ends in, that member shown, kept in view. False
    /// when the form has no such roster: then nothing changed.
    @discardableResult
    mutating func highlight(memberAt steps: [AnswerPath.Step], in context: Context) -> Bool {
        let before = self
        showMembers(steps)
        guard let last = steps.last,
              let row = context.walk(instances).headingEntry(FormWalk.RepeatHeading.selectionKey(parent: Array(steps.dropLast()),
                                                                                                 name: last.name))
        else {
            self = before   // the members shown stay as they were
            return false
        }
        highlight(.field(row))
        keepHighlightInView(in: context)
        return true
    }

    /// A form item's place in the whole form, for comparing items that are not stops.
    private func order(_ item: FormItem, rows: Int) -> Int {
        switch item {
        case .field(let i): return i.index
        case .clear: return rows
        case .add: return rows + 1
        }
    }
}
