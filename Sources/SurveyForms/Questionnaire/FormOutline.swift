import SurveyValues
/// A form's questionnaires, one per scope (the top level, then each repeat's rows, nested
/// ones too), numbered as one list, with the dependency graph over all of them. Built once
/// per `Questionnaire` (at load, or a language switch), shared by the questionnaires of its
/// repeats, so a rule evaluated anywhere in a roster can find any question of the form and
/// settling never rebuilds the graph.
///
/// Every row of every scope is one node, numbered as JavaRosa numbers nothing but as a flat
/// form always was: the top level's fields keep their indexes (`0..<fields.count`), and each
/// repeat's rows follow in the form's order. A `begin repeat` row is the node of the repeat
/// itself, in the scope around it.
final class FormOutline: Sendable {
    struct Scope: Sendable {
        /// The repeat this scope is one instance of; nil for the top level.
        let node: FormNode?
        /// The repeats from the top down to this one, by name (empty at the top level).
        let chain: [String]
        let fields: [FieldSpec]
        /// The scope's rows as a form of their own (the form's choices and settings).
        let form: XLSForm
        let enclosingGroups: [[Int]]
        let tree: [FormNode]
        /// The number of this scope's first row among all rows.
        let offset: Int
        /// The `begin repeat` row of this scope in the scope around it (a node number).
        let repeatRow: Int?
    }

    let scopes: [Scope]
    /// The scope of each node.
    let scopeOf: [Int]
    /// The nodes named so, in form order (a name may be used in a repeat and outside it).
    let byName: [String: [Int]]
    /// The scope holding the rows of the repeat whose `begin repeat` row is a node.
    let scopeOfRepeatRow: [Int: Int]
    /// A select question's choices' labels in the language shown, by question name, for
    /// `jr:choice-name` anywhere in the form.
    let choiceLabels: [String: [String: String]]
    let graph: FormDependencies
    /// Each scope's questionnaire, built once per language (`scopeQuestionnaire(number:)` is
    /// asked for every rule of every member: building it each time was a twentieth of a
    /// roster key). Kept without their outline, which each is given on the way out, so
    /// nothing here holds the outline that holds it.
    let scopeQuestionnaires = ScopeQuestionnaires()

    var count: Int { scopeOf.count }

    init(root: Questionnaire) {
        var scopes: [Scope] = []
        var scopeOf: [Int] = []
        var scopeOfRepeatRow: [Int: Int] = [:]
        func add(_ q: Questionnaire, form: XLSForm, node: FormNode?, chain: [String], repeatRow: Int?) {
            let offset = scopeOf.count
            let number = scopes.count
            scopes.append(Scope(node: node, chain: chain, fields: q.fields, form: form, enclosingGroups: q.enclosingGroups,
                                tree: q.tree, offset: offset, repeatRow: repeatRow))
            scopeOf += Array(repeating: number, count: q.fields.count)
            if let repeatRow { scopeOfRepeatRow[repeatRow] = number }
            // The repeats directly in this scope, groups looked through.
            let direct = q.tree.flatMap(\.descendants).filter { $0.kind == .repeat && $0.repeats == chain }
            for inner in direct {
                guard let question = inner.question else { continue }
                var sub = Questionnaire(form: form.scoped(to: question.children), language: root.language, outlined: false)
                sub.tree = inner.children
                add(sub, form: form.scoped(to: question.children), node: inner, chain: chain + [inner.name],
                    repeatRow: offset + inner.fieldIndex.row)
            }
        }
        if let form = root.form { add(root, form: form, node: nil, chain: [], repeatRow: nil) }
        var byName: [String: [Int]] = [:]
        var labels: [String: [String: String]] = [:]
        for scope in scopes {
            for (i, field) in scope.fields.enumerated() where !field.key.isEmpty && field.kind != .groupEnd {
                byName[field.key, default: []].append(scope.offset + i)
                if !field.choiceLabels.isEmpty, labels[field.key] == nil { labels[field.key] = field.choiceLabels }
            }
        }
        // The nodes are numbered scope after scope, so the lists are in that order; form
        // order among a name's nodes is what `resolve` falls back to.
        self.scopes = scopes
        self.scopeOf = scopeOf
        self.byName = byName
        self.scopeOfRepeatRow = scopeOfRepeatRow
        self.choiceLabels = labels
        self.graph = FormDependencies(scopes: scopes, scopeOf: scopeOf, byName: byName)
    }

    /// The node `${name}` means in a rule evaluated in the scope `chain`: the one in this
    /// instance or the nearest instance around it (pyxform's `../name`, `../../name`), else
    /// the first elsewhere in the form (an absolute path: a node-set).
    func resolve(_ name: String, from chain: [String]) -> Int? {
        guard let candidates = byName[name] else { return nil }
        guard candidates.count > 1 else { return candidates[0] }
        var best: Int?
        var depth = -1
        for g in candidates {
            let c = scopes[scopeOf[g]].chain
            if c.count > depth, c.count <= chain.count, Array(chain.prefix(c.count)) == c {
                best = g
                depth = c.count
            }
        }
        return best ?? candidates[0]
    }

    /// The repeats whose instances hold a node's values: its scope's, and for a `begin
    /// repeat` row its own too (its values are the instances).
    func valueChain(_ g: Int) -> [String] {
        let scope = scopes[scopeOf[g]]
        if let inner = scopeOfRepeatRow[g] { return scopes[inner].chain }
        return scope.chain
    }

    /// The scope whose instances `steps` lead to, or nil when no repeat of the form is there.
    func scope(at steps: [AnswerPath.Step]) -> Int? {
        var current = 0
        for step in steps {
            guard !scopes.isEmpty,
                  let row = scopes[current].fields.indices.first(where: {
                      scopes[current].fields[$0].key == step.name && scopeOfRepeatRow[scopes[current].offset + $0] != nil }),
                  let inner = scopeOfRepeatRow[scopes[current].offset + row] else { return nil }
            current = inner
        }
        return scopes.isEmpty ? nil : current
    }
}

/// Derived data a value carries but does not compare: equal forms have equal outlines, so
/// `Questionnaire`'s equality stays that of its fields, form and language.
struct Derived<Value: Sendable>: Equatable, Sendable {
    package let value: Value
    static func == (a: Derived, b: Derived) -> Bool { true }
}

/// `FormOutline.scopeQuestionnaires`: a lock-protected table, filled on first use.
final class ScopeQuestionnaires: @unchecked Sendable {
    private let lock = Lock()
    private var built: [String: Questionnaire] = [:]

    func questionnaire(_ number: Int, language: String?, build: () -> Questionnaire) -> Questionnaire {
        let key = "\(number)\u{0}\(language ?? "\u{1}")"
        if let known = lock.withLock({ built[key] }) { return known }
        let made = build()
        lock.withLock { built[key] = made }
        return made
    }
}
