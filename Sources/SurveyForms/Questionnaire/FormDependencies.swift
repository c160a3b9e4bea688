import FoundationEssentials
import SurveyValues

/// Which of a form's questions read which, as JavaRosa's triggerable graph: each row of every
/// scope a node (`FormOutline` numbers them: the top level's fields first, by their index,
/// then each repeat's rows), each `${name}` its rules read an edge from that question to it.
/// Built once per form, with the questionnaire, in time linear in the form's size, so
/// settling a survey is one pass in `order` instead of passes until nothing changes (a chain
/// of 1,000 calculations written last-first took minutes that way), and a change
/// re-evaluates only what reads it.
///
/// Two kinds of edge. What decides a node's *value* — its `calculation`, its `relevant` and
/// every enclosing group's and repeat's, its `choice_filter`, a repeat's `repeat_count` —
/// orders the pass. What only *judges* it — `required`, `constraint`, a dynamic `default` —
/// is in `readers` (so a caller knows which rules to judge again) but orders nothing:
/// `. < ${b}` on `a` beside `${a} * 2` on `b` is no cycle.
///
/// In a roster a change reaches only the instances that read it: `${age}` in a member's rule
/// is that member's age (pyxform's `../age`), so an edit in member 3 re-evaluates member 3's
/// rules and the rules outside that read every age (`sum(${age})`, one evaluation), never
/// the other members'. An edge says how far a change travels: down to the instances the two
/// nodes share (`affected(by:)`), or, for `indexed-repeat`, which reads any instance, to all.
struct FormDependencies: Sendable {
    /// For each node, the nodes whose rules read it (value and judging edges alike).
    let readers: [[Int]]
    /// For each node, the nodes whose value decides its own (value edges reversed).
    let inputs: [[Int]]
    /// Every node, each after every node whose value decides it; nil when value edges go
    /// round (the load check refuses cycles through `relevant`, `calculation` and `required`,
    /// but not through `choice_filter`), and then settling falls back to passes.
    let order: [Int]?
    /// Value edges forward: the reader, and whether it reads any instance (`indexed-repeat`)
    /// rather than its own and those around it.
    private let outputs: [[(node: Int, anyInstance: Bool)]]
    /// The repeats each node's values are kept in, by name, outermost first.
    private let chains: [[String]]
    /// Nodes that read their own values in other instances (a running total through
    /// `indexed-repeat(${total}, ${member}, position(..) - 1)`): an instance's change
    /// reaches every instance of them.
    let readsItsOtherInstances: [Bool]
    /// For each node, the nodes whose change sets it (its `trigger` column, ODK's
    /// value-change trigger): a node with a trigger depends on them, never on what its
    /// calculation reads, so it is computed when one of them changes and then only.
    let triggers: [[Int]]

    init(scopes: [FormOutline.Scope], scopeOf: [Int], byName: [String: [Int]]) {
        let count = scopeOf.count
        var inputs = Array(repeating: [Int](), count: count)
        var readers = Array(repeating: Set<Int>(), count: count)
        var outputs = Array(repeating: [Int: Bool](), count: count)
        var selfReading = Array(repeating: false, count: count)
        var chains = Array(repeating: [String](), count: count)
        var triggers = Array(repeating: [Int](), count: count)
        func resolve(_ name: String, from chain: [String]) -> Int? {
            guard let candidates = byName[name] else { return nil }
            var best: Int?
            var depth = -1
            for g in candidates {
                let c = scopes[scopeOf[g]].chain
                if c.count > depth, c.count <= chain.count, Array(chain.prefix(c.count)) == c { best = g; depth = c.count }
            }
            return best ?? candidates.first
        }
        // A trigger names a question by its element, as pyxform attaches the setvalue to every
        // control of that name: `${age}` is `g1/age` and `g2/age` alike, and an age in a
        // roster as well as outside it (`fired` pins the instances the two share).
        var byElement: [String: [Int]] = [:]
        for (key, nodes) in byName { byElement[FormNode.element(key), default: []] += nodes }
        for scope in scopes {
            let questions = scope.form.questions
            for i in 0..<min(scope.fields.count, questions.count) {
                let g = scope.offset + i
                chains[g] = scope.chain
                let q = questions[i]
                var decides: [(Int, Bool)] = []
                for name in q.trigger {
                    for j in (byElement[name] ?? []).sorted() where j != g && !triggers[g].contains(j) {
                        triggers[g].append(j)
                        decides.append((j, false))
                    }
                }
                for expression in [q.trigger.isEmpty ? q.calculation : nil, q.relevant, q.choiceFilter, q.repeatCount] {
                    for (name, any) in expression?.referencesByReach ?? [] {
                        guard let j = resolve(name, from: scope.chain) else { continue }
                        if j == g { if any { selfReading[g] = true }; continue }
                        decides.append((j, any))
                    }
                }
                for j in scope.enclosingGroups[i] { decides.append((scope.offset + j, false)) }
                if let row = scope.repeatRow { decides.append((row, false)) }
                var judges: [Int] = []
                for expression in [q.required, q.constraint, q.dynamicDefault] {
                    for (name, _) in expression?.referencesByReach ?? [] {
                        if let j = resolve(name, from: scope.chain), j != g { judges.append(j) }
                    }
                }
                inputs[g] = Array(Set(decides.map(\.0))).sorted()
                for (j, any) in decides { outputs[j][g] = (outputs[j][g] ?? false) || any }
                for j in decides.map(\.0) + judges { readers[j].insert(g) }
            }
        }
        self.inputs = inputs
        self.readers = readers.map { $0.sorted() }
        self.outputs = outputs.map { $0.sorted { $0.key < $1.key }.map { (node: $0.key, anyInstance: $0.value) } }
        self.chains = chains
        self.readsItsOtherInstances = selfReading
        self.triggers = triggers
        self.order = Self.topologicalOrder(inputs)
    }

    /// A flat form's graph (its fields, no repeats), as the tests build it.
    init(fields: [FieldSpec], form: XLSForm, enclosingGroups: [[Int]]) {
        let scope = FormOutline.Scope(node: nil, chain: [], fields: fields, form: form, enclosingGroups: enclosingGroups,
                                      tree: [], offset: 0, repeatRow: nil)
        var byName: [String: [Int]] = [:]
        for (i, field) in fields.enumerated() where !field.key.isEmpty && field.kind != .groupEnd { byName[field.key, default: []].append(i) }
        self.init(scopes: [scope], scopeOf: Array(repeating: 0, count: fields.count), byName: byName)
    }

    /// Kahn's algorithm, taking the lowest node first among the ready, so nodes without
    /// dependencies between them keep the form's order.
    private static func topologicalOrder(_ inputs: [[Int]]) -> [Int]? {
        var waiting = inputs.map(\.count)
        var outputs = Array(repeating: [Int](), count: inputs.count)
        for (i, list) in inputs.enumerated() { for j in list { outputs[j].append(i) } }
        var ready = Heap(waiting.indices.filter { waiting[$0] == 0 })
        var order: [Int] = []
        order.reserveCapacity(inputs.count)
        while let i = ready.popMin() {
            order.append(i)
            for j in outputs[i] {
                waiting[j] -= 1
                if waiting[j] == 0 { ready.insert(j) }
            }
        }
        return order.count == inputs.count ? order : nil
    }

    /// What changes of `changed` can alter (a value, or whether it shows), the changed nodes
    /// included: for each node, the instances to evaluate it in, each given by the steps to
    /// an instance of a repeat around it (empty: all its instances; no entry: none). A change
    /// at `member[3]` reaches the member rules of member 3 and the top-level rules that read
    /// the roster, along value edges.
    func affected(by changed: [(node: Int, steps: [AnswerPath.Step])]) -> [[[AnswerPath.Step]]] {
        var reached = Array(repeating: [[AnswerPath.Step]](), count: inputs.count)
        var stack: [(Int, [AnswerPath.Step])] = []
        func reach(_ node: Int, _ steps: [AnswerPath.Step]) {
            let steps = readsItsOtherInstances[node] ? [] : steps
            // Already reached in these instances, or in instances around them.
            if reached[node].contains(where: { steps.starts(with: $0) }) { return }
            reached[node].removeAll { $0.starts(with: steps) }
            reached[node].append(steps)
            stack.append((node, steps))
        }
        for (node, steps) in changed where inputs.indices.contains(node) { reach(node, Array(steps.prefix(chains[node].count))) }
        while let (node, steps) = stack.popLast() {
            for (reader, anyInstance) in outputs[node] {
                if anyInstance { reach(reader, []); continue }
                // The repeats the two share: the reader's instances inside the changed one.
                let a = chains[node], b = chains[reader]
                var shared = 0
                while shared < min(a.count, b.count), a[shared] == b[shared] { shared += 1 }
                reach(reader, Array(steps.prefix(shared)))
            }
        }
        return reached
    }
}

/// A binary min-heap of field indexes, so the order is the form's wherever the graph allows
/// and building it stays O(n log n).
private struct Heap {
    private var items: [Int] = []
    init(_ values: [Int]) { for v in values { insert(v) } }

    mutating func insert(_ value: Int) {
        items.append(value)
        var i = items.count - 1
        while i > 0, items[(i - 1) / 2] > items[i] {
            items.swapAt(i, (i - 1) / 2)
            i = (i - 1) / 2
        }
    }

    mutating func popMin() -> Int? {
        guard let first = items.first else { return nil }
        let last = items.removeLast()
        guard !items.isEmpty else { return first }
        items[0] = last
        var i = 0
        while true {
            let l = 2 * i + 1, r = l + 1
            var m = i
            if l < items.count, items[l] < items[m] { m = l }
            if r < items.count, items[r] < items[m] { m = r }
            if m == i { break }
            items.swapAt(i, m)
            i = m
        }
        return first
    }
}
