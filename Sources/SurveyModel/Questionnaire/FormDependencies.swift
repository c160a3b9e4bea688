import Foundation

/// Which of a form's questions read which, as JavaRosa's triggerable graph: each field a node,
/// each `${name}` its rules read an edge from that question to it. Built once per form
/// (`Questionnaire.dependencies`), in time linear in the form's size, so settling a survey is
/// one pass in `order` instead of passes until nothing changes (a chain of 1,000 calculations
/// written last-first took minutes that way), and a change re-evaluates only what reads it.
///
/// Two kinds of edge. What decides a field's *value* — its `calculation`, its `relevant` and
/// every enclosing group's, its `choice_filter` — orders the pass. What only *judges* it —
/// `required`, `constraint`, a dynamic `default` — is in `readers` (so a caller knows which
/// rules to judge again) but orders nothing: `. < ${b}` on `a` beside `${a} * 2` on `b` is
/// no cycle.
struct FormDependencies: Sendable {
    /// For each field, the fields whose rules read it (value and judging edges alike).
    let readers: [[Int]]
    /// For each field, the fields whose value decides its own (value edges reversed).
    let inputs: [[Int]]
    /// Every field, each after every field whose value decides it; nil when value edges go
    /// round (the load check refuses cycles through `relevant`, `calculation` and `required`,
    /// but not through `choice_filter`), and then settling falls back to passes.
    let order: [Int]?

    init(fields: [FieldSpec], form: XLSForm, enclosingGroups: [[Int]]) {
        let questions = form.questions
        let count = min(fields.count, questions.count)
        var index: [String: Int] = [:]
        for i in 0..<count where !questions[i].name.isEmpty && questions[i].kind != .endGroup && index[questions[i].name] == nil {
            index[questions[i].name] = i
        }
        func references(_ expression: FormExpression?, of i: Int) -> [Int] {
            (expression?.fieldReferences ?? []).compactMap { index[$0] }.filter { $0 != i }
        }
        var inputs = Array(repeating: [Int](), count: fields.count)
        var readers = Array(repeating: [Int](), count: fields.count)
        for i in 0..<count {
            let q = questions[i]
            var decides = references(q.calculation, of: i) + references(q.relevant, of: i) + references(q.choiceFilter, of: i)
            decides += enclosingGroups[i]
            let judges = references(q.required, of: i) + references(q.constraint, of: i) + references(q.dynamicDefault, of: i)
            inputs[i] = Array(Set(decides)).sorted()
            for j in Set(decides + judges) { readers[j].append(i) }
        }
        self.inputs = inputs
        self.readers = readers.map { $0.sorted() }
        self.order = Self.topologicalOrder(inputs)
    }

    /// Kahn's algorithm, taking the lowest row first among the ready, so fields without
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

    /// The fields a change of `changed` can alter (their value or whether they show), the
    /// changed fields included: everything downstream along value edges.
    func affected(by changed: [Int]) -> [Bool] {
        var outputs = Array(repeating: [Int](), count: inputs.count)
        for (i, list) in inputs.enumerated() { for j in list { outputs[j].append(i) } }
        var seen = Array(repeating: false, count: inputs.count)
        var stack = changed.filter { inputs.indices.contains($0) }
        for i in stack { seen[i] = true }
        while let i = stack.popLast() {
            for j in outputs[i] where !seen[j] {
                seen[j] = true
                stack.append(j)
            }
        }
        return seen
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
