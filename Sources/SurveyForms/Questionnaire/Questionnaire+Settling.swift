import FoundationEssentials
import SurveyValues

extension Questionnaire {
    /// The form's dependency graph over every scope, built with the questionnaire; nil
    /// without a form.
    var dependencies: FormDependencies? { outline?.value.graph }

    /// Whether this questionnaire settles surveys (computes calculations, hides answers):
    /// a designer's form, at its top level.
    package var settles: Bool { form != nil && outline != nil && scopeNumber == 0 }

    /// The record with calculations filled in and answers of hidden questions moved to
    /// `hidden` (kept for this session, not saved, as ODK does), or brought back from there
    /// when their question shows again; in the survey and in every instance of its rosters.
    ///
    /// One pass over the form's rows in the order of its dependency graph
    /// (`FormDependencies`): each row's calculation, relevance and offered choices are
    /// decided after everything they read, so a chain settles in one pass in any row order.
    /// With `before`, only what the answers that differ from it reach is evaluated again
    /// (JavaRosa's triggerables), and only in the instances it reaches: an edit in member 3
    /// re-evaluates member 3's rules and the rules outside that read the roster. A
    /// calculation that reads nothing (`now()`, `random()`) is therefore computed when a
    /// survey is completed, not at every edit, as in ODK. A form whose value rules go round
    /// through `choice_filter` (the load check refuses other cycles) is settled by passes.
    ///
    /// In a roster: a repeat with `repeat_count` gets the instances it asks for while it
    /// shows (never fewer: extra instances are the keyer's to delete); a new instance (one
    /// this change added, still empty) gets its defaults; each instance's calculations and
    /// `relevant` are its own, and a repeat's `relevant` or its group's hides every answer
    /// in it, each put aside under its path (`member[2]/job`). A change in the number of a
    /// roster's instances forgets what was put aside in it: its places moved.
    ///
    /// `before` is the survey as it was before the change being settled. `changedAt`, if
    /// given, is where that change is (an answer, or a repeat's name for an instance added,
    /// removed or moved): only that answer, and the instances on its way, are compared with
    /// `before`, which saves reading the rest of a large survey twice; without it every
    /// answer is compared.
    /// An answer is put aside only when that change hid it (or stopped offering its choice):
    /// one the form already hid or did not offer before (a survey keyed with an older version
    /// of the form) is the respondent's word and stays in the survey, whatever else is
    /// edited. nil (a survey being completed for [ Add ]) puts aside every answer the form
    /// hides.
    public func settled(_ record: Record, changedAt path: AnswerPath? = nil, before: Record? = nil,
                        hidden: inout [String: PropertyValue], clock: Clock) -> Record {
        guard settles else { return record }
        let stored = record.values
        guard let settling = settle(stored, changedAt: path, before: before, beforeValues: nil, hidden: hidden, clock: clock) else { return record }
        hidden = settling.hidden
        return Self.record(record, stored: stored, changedTo: settling.values, keys: settling.changedKeys.sorted())
    }

    /// `settled(_:changedAt:before:hidden:clock:)` for one answer keyed: `before` with the
    /// answer at `path` set to `value`, given `before`'s answers as `before.values` reads them.
    /// Nothing is read out of the survey's packed bytes and the changed roster is packed once
    /// (a member's edit read and packed a roster of 20 three times over, a third of a key).
    /// Returns the settled survey and its answers (what its `values` reads), or nil, changing
    /// nothing, when an instance on the path is missing.
    public func settled(_ before: Record, values: [String: PropertyValue], setting value: PropertyValue?, at path: AnswerPath,
                        hidden: inout [String: PropertyValue], clock: Clock) -> (record: Record, values: [String: PropertyValue])? {
        var now = values
        guard AnswerTree.set(value, path.name, at: path.steps[...], in: &now) else { return nil }
        let top = path.steps.first?.name ?? path.name
        guard settles,
              let settling = settle(now, changedAt: path, before: before, beforeValues: values, hidden: hidden, clock: clock) else {
            var record = before
            record[top] = now[top]
            return (record, now)
        }
        hidden = settling.hidden
        var items = settling.changedItems
        if let step = path.steps.first, !settling.changedKeys.contains(top) || items[top] != nil {
            items[top, default: []].insert(step.index)
        } else {
            items[top] = nil
        }
        let keys = settling.changedKeys.union([top]).sorted()
        return (Self.record(before, stored: values, changedTo: settling.values, keys: keys, items: items), settling.values)
    }

    /// `settled(_:changedAt:before:hidden:clock:)` firing no trigger: for a survey merged
    /// from two laptops (`settledAfterMerge`), whose answers were keyed elsewhere, where each
    /// trigger already fired, with that laptop's clock.
    func settledFiringNoTrigger(_ record: Record, before: Record, clock: Clock) -> Record {
        guard settles else { return record }
        let stored = record.values
        guard let settling = settle(stored, changedAt: nil, before: before, beforeValues: nil, hidden: [:], clock: clock,
                                    firesTriggers: false) else { return record }
        return Self.record(record, stored: stored, changedTo: settling.values, keys: settling.changedKeys.sorted())
    }

    /// Which rules a settling evaluated, for tests: each row (a node of `FormOutline`) and the
    /// instance it was evaluated in.
    func settledEvaluations(_ record: Record, changedAt path: AnswerPath? = nil, before: Record? = nil,
                            clock: Clock) -> [(node: Int, steps: [AnswerPath.Step])] {
        settle(record.values, changedAt: path, before: before, beforeValues: nil, hidden: [:], clock: clock, recording: true)?.evaluated ?? []
    }

    /// One settling of the answers `stored` (see `settled`); nil without a form.
    private func settle(_ stored: [String: PropertyValue], changedAt path: AnswerPath?, before: Record?,
                        beforeValues: [String: PropertyValue]?, hidden: [String: PropertyValue], clock: Clock,
                        recording: Bool = false, firesTriggers: Bool = true) -> Settling? {
        guard form != nil, let outline = outline?.value, scopeNumber == 0 else { return nil }
        var settling = Settling(questionnaire: self, outline: outline, values: stored, before: before, beforeValues: beforeValues,
                                hidden: hidden, clock: clock)
        settling.recordsEvaluations = recording
        settling.firesTriggers = firesTriggers
        var affected: [[[AnswerPath.Step]]]
        if let before {
            var seeds: [(node: Int, steps: [AnswerPath.Step])] = []
            if let path {
                // The change is at `path`: only the top-level answer it is under is compared
                // (a roster member by member), so an edit costs reading that one answer twice.
                let key = path.steps.first?.name ?? path.name
                var now: [String: PropertyValue] = [:], then: [String: PropertyValue] = [:]
                now[key] = stored[key]
                then[key] = beforeValues.map { $0[key] } ?? before[key]
                settling.compare(scope: 0, now, then, at: [], only: path.steps[...], seeds: &seeds)
                // What differs fires triggers; the answer keyed again as it was does not.
                for (node, steps) in seeds { settling.changedNodes[node, default: []].append(steps) }
                if let scope = outline.scope(at: path.steps),
                   let i = outline.scopes[scope].fields.firstIndex(where: { $0.key == path.name }) {
                    let g = outline.scopes[scope].offset + i
                    seeds.append((g, path.steps))
                    // A change named by a repeat's name moved its instances (a move keeps
                    // their number, so comparing would take it for edits in two of them).
                    if outline.scopeOfRepeatRow[g] != nil {
                        settling.restructured(path.name, at: path.steps, now: AnswerTree.value(stored, path.steps[...], path.name))
                    }
                }
            } else {
                settling.compare(scope: 0, stored, beforeValues ?? before.values, at: [], seeds: &seeds)
                for (node, steps) in seeds { settling.changedNodes[node, default: []].append(steps) }
            }
            affected = outline.graph.affected(by: seeds)
        } else {
            affected = Array(repeating: [[]], count: outline.count)
        }
        settling.settle(affected)
        // ODK fires a value-change trigger after the change's recomputation (JavaRosa's
        // xformsValueChanged_triggeredAfterRecomputation): the triggered rows are set once
        // the pass is done, then what reads them is settled in its turn. Each row fires at
        // most once in each instance per change, so triggers that name each other end.
        while !settling.pendingTriggers.isEmpty {
            let set = settling.firePending()
            if !set.isEmpty { settling.settle(outline.graph.affected(by: set)) }
        }
        return settling
    }

    /// `record` with the values of `keys` as in `values`. Changing a packed survey moves the
    /// bytes after the key, so hundreds of changes (a long chain settling) are packed anew
    /// instead (keys sorted, as survey writes them). `stored` is `record`'s answers, as both
    /// callers read them: checking it by packing them again (`Record(stored) == record`) was
    /// a quarter of a commit on the flat 500-row bench, to confirm what both callers guarantee.
    ///
    /// `items`: keys holding a roster changed only in these members (of as many as before),
    /// whose other members' bytes are kept as they are.
    private static func record(_ record: Record, stored: [String: PropertyValue], changedTo values: [String: PropertyValue],
                               keys: [String], items: [String: Set<Int>] = [:]) -> Record {
        if keys.count > 16 { return Record(values) }
        var result = record
        for key in keys {
            if let indexes = items[key], case .array(let now)? = values[key], result.setItems(indexes, of: key, to: now) { continue }
            result[key] = values[key]
        }
        return result
    }
}

/// One settling of a survey: the answers as they change, the survey before the change, and
/// what was decided on the way (whether each row shows, in each instance).
private struct Settling {
    struct At: Hashable {
        let node: Int
        let steps: [AnswerPath.Step]
    }

    let questionnaire: Questionnaire
    let outline: FormOutline
    var values: [String: PropertyValue]
    /// The survey before the change (nil: none, it is being completed), read out of its
    /// record only when a rule asks what showed before: most changes never do.
    private let before: Record?
    /// `before`'s answers once read, with each roster whose instances were added, removed or
    /// moved as it is now: its places no longer say which instance was which, so only the
    /// change itself can hide an answer there.
    private var previousValues: [String: PropertyValue]?
    /// `before`'s answers when the caller had them read already.
    private let givenBefore: [String: PropertyValue]?
    private var realigned: [(steps: [AnswerPath.Step], key: String, value: PropertyValue?)] = []
    var hidden: [String: PropertyValue]
    let clock: Questionnaire.Clock
    /// Instances this change added (still empty): their defaults are filled in, and an
    /// answer their rules hide is put aside, as on a survey being completed.
    var fresh: Set<[AnswerPath.Step]> = []
    var changedKeys: Set<String> = []
    /// For a key changed only inside members of its roster (no instance added, removed or
    /// moved, nothing set on the key itself), which members: only they are packed again.
    var changedItems: [String: Set<Int>] = [:]
    /// The rows whose answers this change set, in the instances it set them in: what was
    /// keyed (the seeds) and what a trigger set, for the triggers they fire.
    var changedNodes: [Int: [[AnswerPath.Step]]] = [:]
    /// Whether a change fires the triggers it reaches (a merge's settling fires none).
    var firesTriggers = true
    /// Rows whose trigger this change fired, in the instances it fired them in, to be set
    /// after the pass (`firePending`); those already set, never set twice.
    private(set) var pendingTriggers: [At] = []
    private var firedTriggers: Set<At> = []
    private var shownNow: [At: Bool] = [:]
    private var shownBefore: [At: Bool] = [:]
    private var scopes: [Questionnaire?]

    /// Each row evaluated, in the instance it was evaluated in (for tests: what a change
    /// reached), kept only when `recordsEvaluations` asks (not on every commit).
    var evaluated: [(node: Int, steps: [AnswerPath.Step])] = []
    var recordsEvaluations = false

    init(questionnaire: Questionnaire, outline: FormOutline, values: [String: PropertyValue], before: Record?,
         beforeValues: [String: PropertyValue]?, hidden: [String: PropertyValue], clock: Questionnaire.Clock) {
        self.questionnaire = questionnaire
        self.outline = outline
        self.values = values
        self.before = before
        givenBefore = beforeValues
        self.hidden = hidden
        self.clock = clock
        self.scopes = Array(repeating: nil, count: outline.scopes.count)
    }

    mutating func scope(_ number: Int) -> Questionnaire {
        if let q = scopes[number] { return q }
        let q = questionnaire.scopeQuestionnaire(number: number)
        scopes[number] = q
        return q
    }

    // MARK: - What changed

    /// The rows whose answers differ from before, in the instances they differ in; a roster
    /// whose instances were added, removed or moved is its repeat's row, changed as a whole.
    ///
    /// `only`: the instances the change is in (`changedAt`'s steps), so a roster of the
    /// same size is compared in the one instance on the way, not member by member.
    mutating func compare(scope number: Int, _ now: [String: PropertyValue], _ before: [String: PropertyValue],
                          at steps: [AnswerPath.Step], only: ArraySlice<AnswerPath.Step>? = nil,
                          seeds: inout [(node: Int, steps: [AnswerPath.Step])]) {
        let scope = outline.scopes[number]
        for (i, field) in scope.fields.enumerated() where !field.key.isEmpty && field.kind != .groupEnd {
            let a = now[field.key], b = before[field.key]
            guard a != b else { continue }
            let g = scope.offset + i
            if let inner = outline.scopeOfRepeatRow[g] {
                let nowItems = Self.dictionaries(a), beforeItems = Self.dictionaries(b)
                if let nowItems, let beforeItems, nowItems.count == beforeItems.count {
                    let focus = only?.first.flatMap { $0.name == field.key && nowItems.indices.contains($0.index) ? $0.index : nil }
                    for k in focus.map({ [$0] }) ?? Array(nowItems.indices) where nowItems[k] != beforeItems[k] {
                        compare(scope: inner, nowItems[k], beforeItems[k], at: steps + [AnswerPath.Step(name: field.key, index: k)],
                                only: only?.dropFirst(), seeds: &seeds)
                    }
                    continue
                }
                restructured(field.key, at: steps, now: a)
            }
            seeds.append((g, steps))
        }
    }

    /// A roster whose instances were added, removed or moved (or that holds another tool's
    /// value): its places no longer say which instance was which, so each is compared with
    /// itself as it is now, what was put aside in it is forgotten, and its empty instances
    /// are new ones, to get their defaults.
    mutating func restructured(_ key: String, at steps: [AnswerPath.Step], now value: PropertyValue?) {
        realigned.append((steps, key, value))
        for (k, item) in (Self.dictionaries(value) ?? []).enumerated() where item.isEmpty {
            fresh.insert(steps + [AnswerPath.Step(name: key, index: k)])
        }
        let prefix = (steps.map { "\($0.name)[\($0.index + 1)]/" }.joined()) + key + "["
        for place in hidden.keys where place.hasPrefix(prefix) { hidden[place] = nil }
    }

    /// A roster's members (none when the key is absent), nil for another value.
    private static func dictionaries(_ value: PropertyValue?) -> [[String: PropertyValue]]? {
        value.map(\.members) ?? []
    }

    // MARK: - Settling

    /// One pass in the graph's order over what `affected` names; or, when value rules go
    /// round, passes until nothing changes, each settling at least one more link of the
    /// longest chain.
    mutating func settle(_ affected: [[[AnswerPath.Step]]]) {
        if let order = outline.graph.order { return pass(order, affected) }
        let all = Array(0..<outline.count)
        let everything = Array(repeating: [[AnswerPath.Step]()], count: outline.count)
        for _ in 0...outline.count {
            let last = values
            pass(all, everything)
            if values == last { break }
        }
    }

    /// Sets each row whose trigger fired, in the form's order, to its calculation as the
    /// survey now stands; returns those whose value changed, to settle what reads them.
    mutating func firePending() -> [(node: Int, steps: [AnswerPath.Step])] {
        let due = pendingTriggers.sorted { $0.node != $1.node ? $0.node < $1.node : Self.documentOrder($0.steps, $1.steps) }
        pendingTriggers = []
        var set: [(node: Int, steps: [AnswerPath.Step])] = []
        for at in due where firedTriggers.insert(at).inserted {
            if fire(at.node, at: at.steps) { set.append((at.node, at.steps)) }
        }
        return set
    }

    /// ODK's setvalue on xforms-value-changed: the calculation (none: empty) evaluated once,
    /// now, and kept until a trigger changes again. A value the question's type refuses is
    /// not stored (see `triggered`).
    private mutating func fire(_ g: Int, at steps: [AnswerPath.Step]) -> Bool {
        let scope = outline.scopes[outline.scopeOf[g]]
        let i = g - scope.offset
        guard isShown(g, steps) else { return false }
        let field = scope.fields[i]
        let key = field.key
        let before = AnswerTree.value(values, steps[...], key)
        let result = scope.form.questions[i].calculation.map { computedValue($0, at: steps, current: XLSForm.text(of: before)) }
        guard let value = Self.triggered(result, for: field), value != before else { return false }
        set(value, key, at: steps)
        changedNodes[g, default: []].append(steps)
        return true
    }

    /// What a trigger stores for `result` in `field`, as JavaRosa's setvalue casts it to the
    /// question's type: nothing (nil inside) for an empty result or NaN; a calculate's text as
    /// it is; a number truncated toward zero for an integer question (JavaRosa's `(int) d`);
    /// else what the question's own parse makes of the text. nil when that parse refuses it:
    /// the answer is left as it is (JavaRosa stops with an error there), never stored as a
    /// string an integer question could not hold.
    static func triggered(_ result: FormValue?, for field: FieldSpec) -> PropertyValue?? {
        guard let result else { return .some(nil) }
        let text = result.string
        if text.isEmpty || text == "NaN" { return .some(nil) }
        if field.kind == .calculated { return .some(.string(text)) }
        var typed = text
        if case .wholeNumber = field.kind, case .number(let n) = result {
            let whole = n.rounded(.towardZero)
            guard whole.isFinite, whole.magnitude < 9e18 else { return nil }
            typed = String(Int64(whole))
        }
        guard case .success(let value) = field.parse(typed) else { return nil }
        return .some(value)
    }

    /// Every node of `order` that `affected` names, in each instance it names.
    mutating func pass(_ order: [Int], _ affected: [[[AnswerPath.Step]]]) {
        shownNow = [:]
        shownBefore = [:]
        for g in order where !affected[g].isEmpty {
            let number = outline.scopeOf[g]
            let scope = outline.scopes[number]
            let i = g - scope.offset
            guard i < scope.form.questions.count else { continue }
            for steps in instances(of: g, in: affected[g]) {
                if recordsEvaluations { evaluated.append((g, steps)) }
                if let inner = outline.scopeOfRepeatRow[g] {
                    settleRepeat(g, inner, at: steps)
                } else {
                    settleField(g, i, scope: number, at: steps)
                }
            }
        }
    }

    /// The instances `g` is kept in (one list of steps each, in document order) that
    /// `reached` leads to: each of those steps, extended by every instance inside it.
    private func instances(of g: Int, in reached: [[AnswerPath.Step]]) -> [[AnswerPath.Step]] {
        let chain = outline.scopes[outline.scopeOf[g]].chain
        if chain.isEmpty { return [[]] }
        var found: [[AnswerPath.Step]] = []
        func walk(_ steps: [AnswerPath.Step], _ answers: [String: PropertyValue]) {
            guard steps.count < chain.count else { found.append(steps); return }
            let name = chain[steps.count]
            guard case .array(let items)? = answers[name] else { return }
            for (k, item) in items.enumerated() {
                if case .dictionary(let inner) = item { walk(steps + [AnswerPath.Step(name: name, index: k)], inner) }
            }
        }
        for start in reached.contains(where: \.isEmpty) ? [[]] : reached.sorted(by: Self.documentOrder) {
            let start = Array(start.prefix(chain.count))
            if let answers = AnswerTree.instance(values, start[...]) { walk(start, answers) }
        }
        return found
    }

    private static func documentOrder(_ a: [AnswerPath.Step], _ b: [AnswerPath.Step]) -> Bool {
        for (x, y) in zip(a, b) where x != y { return x.index < y.index }
        return a.count < b.count
    }

    /// A repeat's row in the instance around it: the instances its `repeat_count` asks for
    /// while it shows, and the defaults of the instances this change added.
    ///
    /// A repeat its `relevant` (or its group's) hides is not part of the survey, as ODK
    /// leaves a non-relevant repeat out of the submission: hidden by this change, the whole
    /// roster is put aside under the repeat's path (members, answers and all, so no empty
    /// shell is left to export as a blank row), and comes back whole when it shows again.
    private mutating func settleRepeat(_ g: Int, _ inner: Int, at steps: [AnswerPath.Step]) {
        let name = outline.scopes[inner].chain.last ?? ""
        let place = AnswerPath(steps, name).description
        guard isShown(g, steps) else {
            if wasShown(g, steps), let current = AnswerTree.value(values, steps[...], name) {
                hidden[place] = current
                set(nil, name, at: steps)
            }
            return
        }
        if AnswerTree.value(values, steps[...], name) == nil, let kept = hidden[place] {
            hidden[place] = nil
            set(kept, name, at: steps)
        }
        var added: [[AnswerPath.Step]] = []
        if let count = outline.scopes[inner].node?.question?.repeatCount {
            let n = count.evaluate(in: questionnaire.context(values, at: steps, current: "", clock: clock)).number
            // A count over the limit makes nothing: it is a problem the survey shows.
            if n.isFinite, n > 0, n <= Double(Questionnaire.repeatCountLimit) {
                added = AnswerTree.grow(name, at: steps, to: Int(n.rounded(.towardZero)), in: &values)
            }
        }
        fresh.formUnion(added)
        let q = scope(inner)
        for k in 0..<AnswerTree.count(values, steps[...], name) {
            let instance = steps + [AnswerPath.Step(name: name, index: k)]
            guard fresh.contains(instance), AnswerTree.instance(values, instance[...])?.isEmpty == true else { continue }
            q.fillDefaults(in: &values, at: instance, clock: clock)
        }
        if !added.isEmpty || fresh.contains(where: { $0.starts(with: steps) }) { changed(steps.first?.name ?? name, in: steps.first) }
    }

    /// One question or calculation in one instance, by the flat form's rule.
    private mutating func settleField(_ g: Int, _ i: Int, scope number: Int, at steps: [AnswerPath.Step]) {
        let scope = outline.scopes[number]
        let field = scope.fields[i]
        let question = scope.form.questions[i]
        let key = field.key
        let place = AnswerPath(steps, key).description
        let showsNow = isShown(g, steps)
        if firesTriggers, !question.trigger.isEmpty, showsNow, !firedTriggers.contains(At(node: g, steps: steps)), fired(g, at: steps) {
            // Set after the pass, once what the calculation reads is recomputed.
            pendingTriggers.append(At(node: g, steps: steps))
        }
        let current = AnswerTree.value(values, steps[...], key)
        if field.kind == .calculated {
            if showsNow, question.trigger.isEmpty, let calculation = question.calculation {
                // `.` is what the calculation holds, for `once()`. Shown, it is computed,
                // so a copy put aside when it was hidden has nothing left to bring back.
                let text = computed(calculation, at: steps, current: XLSForm.text(of: current))
                set(text.isEmpty || text == "NaN" ? nil : .string(text), key, at: steps)
                hidden[place] = nil
            } else if showsNow, !question.trigger.isEmpty, current == nil, let kept = hidden[place] {
                // A triggered value put aside when its row was hidden: nothing computes it
                // again, so it comes back as it was, as an answer does.
                hidden[place] = nil
                set(kept, key, at: steps)
            } else if !showsNow, wasShown(g, steps), let current {
                // Hidden by this change: put aside as it stood. A calculation the form
                // hid before this change keeps what it stored.
                hidden[place] = current
                set(nil, key, at: steps)
            }
            return
        }
        guard field.kind.isAnswered else { return }
        let q = self.scope(number)
        if let current {
            // Hidden by this change, or a cascading choice whose parent this change
            // moved: put aside, to come back if the change is undone.
            let hiddenNow = !showsNow && wasShown(g, steps)
            let withdrawnNow = showsNow && !q.isOffered(current, i, at: steps, in: values, clock: clock) && offeredBefore(current, i, q, steps)
            if hiddenNow || withdrawnNow {
                hidden[place] = current
                set(nil, key, at: steps)
            }
        } else if showsNow, let kept = hidden[place],
                  q.isOffered(kept, i, at: steps, in: values, clock: clock) || (!wasShown(g, steps) && !offeredBefore(kept, i, q, steps)) {
            // Back as it was: offered again, or its question shown again by this change
            // holding an answer this version never offered (an older version's choice).
            // A choice withdrawn earlier stays aside while its question keeps showing.
            hidden[place] = nil
            set(kept, key, at: steps)
        }
    }

    /// Whether a question this row's `trigger` names changed in this settling, in the
    /// instance `steps` leads to or one around it (the repeats the two share pinned to the
    /// changed instance, as JavaRosa resolves a setvalue's target from its trigger's place).
    /// A row inside a roster its trigger is outside is one of the roster's members: JavaRosa
    /// sets it while the roster has one member and refuses to choose among several ("has more
    /// than one node"), so it fires only while there is one.
    private func fired(_ g: Int, at steps: [AnswerPath.Step]) -> Bool {
        let chain = outline.scopes[outline.scopeOf[g]].chain
        return outline.graph.triggers[g].contains { source in
            let from = outline.scopes[outline.scopeOf[source]].chain
            var shared = 0
            while shared < min(chain.count, from.count), chain[shared] == from[shared] { shared += 1 }
            return (changedNodes[source] ?? []).contains { changed in
                let n = min(shared, changed.count, steps.count)
                guard changed.prefix(n) == steps.prefix(n) else { return false }
                return steps.count == n || instances(of: g, in: [Array(steps.prefix(n))]).count == 1
            }
        }
    }

    /// In a function of its own, so the context (which holds the answers) is gone before
    /// they change: held, each change would copy all of them.
    private func computed(_ expression: FormExpression, at steps: [AnswerPath.Step], current: String) -> String {
        computedValue(expression, at: steps, current: current).string
    }

    private func computedValue(_ expression: FormExpression, at steps: [AnswerPath.Step], current: String) -> FormValue {
        expression.evaluate(in: questionnaire.context(values, at: steps, current: current, clock: clock))
    }

    private mutating func set(_ value: PropertyValue?, _ key: String, at steps: [AnswerPath.Step]) {
        guard AnswerTree.value(values, steps[...], key) != value else { return }
        AnswerTree.set(value, key, at: steps[...], in: &values)
        changed(steps.first?.name ?? key, in: steps.first)
    }

    /// The survey's answer `top` changed, inside its member `member` (nil: as a whole).
    private mutating func changed(_ top: String, in member: AnswerPath.Step?) {
        if changedKeys.insert(top).inserted, let member {
            changedItems[top] = [member.index]
        } else if let member {
            changedItems[top]?.insert(member.index)
        } else {
            changedItems[top] = nil
        }
    }

    /// `before`'s answers, read on first use.
    private mutating func previous() -> [String: PropertyValue]? {
        if let previousValues { return previousValues }
        guard var values = givenBefore ?? before?.values else { return nil }
        for (steps, key, value) in realigned { AnswerTree.set(value, key, at: steps[...], in: &values) }
        previousValues = values
        return values
    }

    private mutating func offeredBefore(_ value: PropertyValue, _ i: Int, _ q: Questionnaire, _ steps: [AnswerPath.Step]) -> Bool {
        guard let previous = previous(), !isFresh(steps), AnswerTree.instance(previous, steps[...]) != nil else { return true }
        return q.isOffered(value, i, at: steps, in: previous, clock: clock)
    }

    private func isFresh(_ steps: [AnswerPath.Step]) -> Bool {
        !fresh.isEmpty && steps.indices.contains { fresh.contains(Array(steps.prefix($0 + 1))) }
    }

    // MARK: - Shown

    /// Whether node `g` shows in the instance `steps` lead to, now: its group's, its
    /// repeat's (in the instance around) and its own `relevant`, decided once per pass.
    mutating func isShown(_ g: Int, _ steps: [AnswerPath.Step]) -> Bool {
        let at = At(node: g, steps: steps)
        if let known = shownNow[at] { return known }
        let result = shows(g, steps, in: values, now: true)
        shownNow[at] = result
        return result
    }

    /// The same, before the change; shown for an instance this change added, and for any
    /// survey without a before (it is being completed).
    mutating func wasShown(_ g: Int, _ steps: [AnswerPath.Step]) -> Bool {
        guard let previous = previous(), !isFresh(steps), AnswerTree.instance(previous, steps[...]) != nil else { return true }
        let at = At(node: g, steps: steps)
        if let known = shownBefore[at] { return known }
        let result = shows(g, steps, in: previous, now: false)
        shownBefore[at] = result
        return result
    }

    private mutating func shows(_ g: Int, _ steps: [AnswerPath.Step], in answers: [String: PropertyValue], now: Bool) -> Bool {
        let scope = outline.scopes[outline.scopeOf[g]]
        let i = g - scope.offset
        if let outer = scope.enclosingGroups[i].last {
            guard now ? isShown(scope.offset + outer, steps) : wasShown(scope.offset + outer, steps) else { return false }
        } else if let row = scope.repeatRow {
            let parent = Array(steps.dropLast())
            guard now ? isShown(row, parent) : wasShown(row, parent) else { return false }
        }
        guard i < scope.form.questions.count, let relevant = scope.form.questions[i].relevant else { return true }
        let current = XLSForm.text(of: AnswerTree.value(answers, steps[...], scope.fields[i].key))
        return relevant.evaluate(in: questionnaire.context(answers, at: steps, current: current, clock: clock)).boolean
    }
}
