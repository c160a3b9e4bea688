import FoundationEssentials
import SurveyValues
import SurveyForms

/// The interview as a tree (issue 30; CSEntry's case tree, Collect's hierarchy view): every
/// group, roster and member of the survey on the form with its questions and their answers
/// (`—` for none), problems marked, for finding one's place and going there (Ctrl-G). Typing
/// narrows it by a question's label or name, any case or accent, keeping the members and
/// groups around what matches; Tab shows the problems alone. Built once when it opens (keys
/// go to it while it is open, so the survey cannot change under it). Only what the form asks
/// now is listed: a question `relevant` hides, a calculation, metadata and notes are not.
public struct InterviewTree: Equatable, Sendable {
    /// A row's place in `rows`, the tree's own numbering of the form's nodes: typed, so it is
    /// never mixed up with a question's row in its scope (`FieldIndex`), an entry of the
    /// walk the form pane shows, or a position among the rows shown (`highlighted`).
    public struct RowNumber: Hashable, Comparable, Sendable {
        public let index: Int
        public init(_ index: Int) { self.index = index }
        public static func < (a: RowNumber, b: RowNumber) -> Bool { a.index < b.index }
    }

    public struct Row: Equatable, Sendable {
        public enum Kind: Equatable, Sendable { case group, roster, member, question }
        public var kind: Kind
        public var depth: Int
        public var label: String
        /// A question's answer as shown (`—` when none); a roster's member count; a member's
        /// first answer.
        public var answer: String
        /// A question's name, for narrowing by it ("go to `plot_id`").
        public var name: String
        /// What the form refuses or lacks here (a member or roster: something inside it).
        public var problem: String?
        /// Where it is: a question's members (with `name`), a member's own steps, a roster's
        /// parent's (with `name`).
        public var steps: [AnswerPath.Step]
        /// The row it is inside (a group, a roster, a member), nil at the top: narrowing and
        /// marking walk up these, never back over every earlier row.
        public var parent: RowNumber? = nil
    }

    public let rows: [Row]
    /// What was typed to narrow it, and whether only problems show.
    public private(set) var filter = ""
    public private(set) var problemsOnly = false
    /// The rows shown, in order.
    public private(set) var visible: [RowNumber]
    /// The highlighted row, among `visible`.
    public private(set) var highlighted = 0

    public init(rows: [Row], highlighting path: AnswerPath? = nil) {
        self.rows = rows
        self.visible = rows.indices.map(RowNumber.init)
        if let path, let at = rows.firstIndex(where: { $0.kind == .question && $0.steps == path.steps && $0.name == path.name }) {
            highlighted = at
        }
    }

    public var highlightedRow: Row? { visible.indices.contains(highlighted) ? self[visible[highlighted]] : nil }

    public subscript(number: RowNumber) -> Row { rows[number.index] }
    public var problemCount: Int { rows.filter { $0.kind == .question && $0.problem != nil }.count }

    public mutating func move(by delta: Int) {
        guard !visible.isEmpty else { return }
        switch delta {
        case .min: highlighted = 0
        case .max: highlighted = visible.count - 1
        default: highlighted = min(max(0, highlighted + delta), visible.count - 1)
        }
    }

    public mutating func type(_ character: Character) { narrow(filter + String(character)) }
    public mutating func backspace() { if !filter.isEmpty { narrow(String(filter.dropLast())) } }
    public mutating func toggleProblemsOnly() {
        problemsOnly.toggle()
        narrow(filter)
    }

    /// The rows whose label or name holds every word typed (a question, or a group, roster
    /// or member by its label), with the rows around them, so a match inside a member says
    /// which member; the highlight stays on its row when that still shows.
    private mutating func narrow(_ text: String) {
        let kept = highlightedRow.flatMap { row in rows.firstIndex(of: row) }.map(RowNumber.init)
        filter = text
        let words = TextFolding.folded(text).split(separator: " ").map(String.init)
        var shown = Array(repeating: false, count: rows.count)
        for (i, row) in rows.enumerated() {
            if problemsOnly, row.kind != .question || row.problem == nil { continue }
            let haystack = TextFolding.folded(row.label + " " + row.name)
            guard words.allSatisfy({ haystack.contains($0) }) else { continue }
            shown[i] = true
            // Its ancestors, up to one already shown (then so are the rest).
            var up = row.parent
            while let j = up, !shown[j.index] {
                shown[j.index] = true
                up = self[j].parent
            }
        }
        visible = rows.indices.filter { shown[$0] }.map(RowNumber.init)
        highlighted = kept.flatMap { visible.firstIndex(of: $0) }
            ?? visible.firstIndex { self[$0].kind == .question && (!problemsOnly || self[$0].problem != nil) } ?? 0
    }
}

extension InterviewTree {
    /// The tree of `record` under `top`: its groups, rosters with every member (as many as
    /// stored, or as `repeat_count` asks), their questions, each with its answer and the
    /// problem `problems` names for it.
    public static func rows(of record: Record, in top: Questionnaire, clock: Questionnaire.Clock,
                            problems: [Questionnaire.Problem]) -> [Row] {
        let values = record.values
        var problemAt: [AnswerPath: String] = [:]
        for problem in problems where problemAt[problem.path] == nil { problemAt[problem.path] = problem.message }
        var rows: [Row] = []

        func answers(at steps: ArraySlice<AnswerPath.Step>, in answers: [String: PropertyValue]) -> [String: PropertyValue]? {
            FormWalk.answers(at: steps, in: answers)
        }

        /// The row appended last.
        var last: RowNumber { RowNumber(rows.count - 1) }

        func walk(_ questionnaire: Questionnaire, steps: [AnswerPath.Step], depth start: Int, parent: RowNumber?) {
            let relevance = FormInstance(top, values: values, clock: clock).relevance(at: steps)
            let member = answers(at: steps[...], in: values) ?? [:]
            var depth = start
            var groups: [RowNumber?] = []   // each open group: its row, when it was listed
            var inside: RowNumber? { groups.last(where: { $0 != nil }).flatMap { $0 } ?? parent }
            for i in questionnaire.fields.indices {
                let field = questionnaire.fields[i]
                let shown = relevance.indices.contains(i) ? relevance[i] : true
                if let node = questionnaire.repeatAtRow(FieldIndex(i)) {
                    guard shown else { continue }
                    let stored: Int
                    if case .array(let items)? = member[node.name] {
                        stored = items.reduce(0) { n, item in if case .dictionary = item { n + 1 } else { n } }
                    } else { stored = 0 }
                    let count = max(stored, FormInstance(top, values: values, clock: clock).repeatCount(of: node, parent: steps) ?? 0)
                    var label = field.label.isEmpty ? node.name : field.label
                    if label.namesAnAnswer { label = questionnaire.filledIn(label, from: Questionnaire.scoped(record, steps)) }
                    rows.append(Row(kind: .roster, depth: depth, label: label, answer: count == 0 ? "none" : String(count),
                                    name: node.name, problem: nil, steps: steps, parent: inside))
                    let roster = last
                    let inner = questionnaire.instanceQuestionnaire(for: node)
                    for k in 0..<count {
                        let memberSteps = steps + [AnswerPath.Step(name: node.name, index: k)]
                        let memberAnswers = answers(at: memberSteps[...], in: values) ?? [:]
                        let first = inner.fields.first { $0.kind.isAnswered && memberAnswers[$0.key] != nil }
                        rows.append(Row(kind: .member, depth: depth + 1, label: "\(k + 1) of \(count)",
                                        answer: first.map { text($0, memberAnswers[$0.key]) } ?? "", name: "",
                                        problem: nil, steps: memberSteps, parent: roster))
                        walk(inner, steps: memberSteps, depth: depth + 2, parent: last)
                    }
                    continue
                }
                switch field.kind {
                case .groupStart:
                    if shown && !field.label.isEmpty {
                        rows.append(Row(kind: .group, depth: depth, label: field.label, answer: "", name: field.key,
                                        problem: nil, steps: steps, parent: inside))
                        groups.append(last)
                        depth += 1
                    } else {
                        groups.append(nil)
                    }
                case .groupEnd:
                    if case .some(.some) = groups.popLast() { depth -= 1 }
                case .metadata, .calculated, .note, .notCollected:
                    continue
                default:
                    guard shown else { continue }
                    let path = AnswerPath(steps, field.key)
                    let value = member[field.key]
                    rows.append(Row(kind: .question, depth: depth, label: field.label.isEmpty ? field.key : field.label,
                                    answer: value.map { text(field, $0) }.flatMap { $0.isEmpty ? nil : $0 } ?? "—",
                                    name: field.key, problem: problemAt[path], steps: steps, parent: inside))
                }
            }
        }

        /// A choice shows its label, as the form does.
        func text(_ field: FieldSpec, _ value: PropertyValue?) -> String {
            let shown = field.screenText(value)
            guard case .choice = field.kind, !field.choiceLabels.isEmpty else { return shown }
            return shown.split(separator: " ").map { field.choiceLabels[String($0)] ?? String($0) }.joined(separator: ", ")
        }

        walk(top, steps: [], depth: 0, parent: nil)
        // A member or roster with a problem inside says so too, so a closed eye finds it.
        for i in rows.indices where rows[i].kind == .question && rows[i].problem != nil {
            var up = rows[i].parent
            while let j = up, rows[j.index].problem == nil {
                rows[j.index].problem = "a problem inside"
                up = rows[j.index].parent
            }
        }
        return rows
    }
}
