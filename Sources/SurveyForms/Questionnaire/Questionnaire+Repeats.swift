import FoundationEssentials
import SurveyValues

/// Repeats (rosters) in a questionnaire: which there are, each one's own questions, and the
/// form's rules judged in every instance.
///
/// A repeat's questions are a questionnaire of their own (`instanceQuestionnaire(for:)`,
/// `scopeQuestionnaire`), run on one instance at a time, so `required`, `constraint`,
/// `relevant`, `choice_filter` and types apply inside a roster by the very code that applies
/// them to a flat form. Its rules read the survey from that instance
/// (`Questionnaire+Context`): `${age}` in a member's constraint is that member's age, as
/// pyxform writes it (`../age`), `${village}` the survey's, and `count(${member})`,
/// `sum(${age})`, `position(..)` and `indexed-repeat` see the roster.
extension Questionnaire {
    /// Every repeat of the form, nested ones too, depth first in the form's order.
    public var repeats: [FormNode] {
        tree.flatMap(\.descendants).filter { $0.kind == .repeat }
    }

    /// The node at `path` (`/data/member/name`), or nil.
    public func node(atPath path: String) -> FormNode? {
        tree.lazy.flatMap(\.descendants).first { $0.path == path }
    }

    /// The repeat a top-level field stands for (its `begin repeat` row), or nil.
    public func repeatNode(forField index: FieldIndex) -> FormNode? {
        tree.first { $0.kind == .repeat && $0.fieldIndex == index }
    }

    /// The repeat whose `begin repeat` row is this scope's field `index` (inside groups too),
    /// or nil. Read from the outline: a form's walk asks it of every row, and gathering the
    /// tree's nodes each time was a tenth of a roster key.
    public func repeatAtRow(_ index: FieldIndex) -> FormNode? {
        guard let outline = outline?.value, outline.scopes.indices.contains(scopeNumber) else { return nil }
        return outline.scopeOfRepeatRow[outline.scopes[scopeNumber].offset + index.row].flatMap { outline.scopes[$0].node }
    }

    /// The repeat's own questions, as the fields of one instance (groups as heading rows, a
    /// nested repeat as one row), in this questionnaire's language.
    public func instanceQuestionnaire(for node: FormNode) -> Questionnaire {
        guard node.kind == .repeat, let outline = outline?.value,
              let number = outline.scopes.firstIndex(where: { $0.node?.path == node.path }) else { return Questionnaire(fields: []) }
        return scopeQuestionnaire(number: number)
    }

    /// The answers one instance's rules read: the survey's, overlaid by each instance on the
    /// way down, innermost last, so a name of the instance means its own answer.
    static func scope(_ record: Record, _ steps: [AnswerPath.Step]) -> Record {
        guard !steps.isEmpty else { return record }
        var values = record.values
        var outer = record.values
        for step in steps {
            guard case .array(let items)? = outer[step.name], items.indices.contains(step.index),
                  case .dictionary(let answers) = items[step.index] else { return Record(values) }
            values.merge(answers) { $1 }
            outer = answers
        }
        return Record(values)
    }

    /// Every problem inside the survey's repeats, instance by instance in the form's order,
    /// for the repeats shown (their own `relevant` and their groups'): a stored value of the
    /// wrong type, a required question left empty, a constraint broken, a choice not
    /// offered, each with where it is. `problems(in:)` (the gate for [ Add ]) includes them.
    func repeatProblems(in record: Record, clock: Clock) -> [(path: AnswerPath, message: String)] {
        var found: [(path: AnswerPath, message: String)] = []
        let values = record.values
        collectRepeatProblems(in: values, parent: [], shown: relevance(of: values, at: [], clock: clock), clock: clock, into: &found)
        return found
    }

    /// A roster that disagrees with its `repeat_count` (issue 27): more members stored than
    /// the count now asks for (it went down after they were keyed: they are kept, visibly,
    /// until the keyer deletes them or changes the count), or a count beyond what survey makes.
    func repeatCountProblems(_ node: FormNode, stored: Int, values: [String: PropertyValue], parent: [AnswerPath.Step],
                             label: String, clock: Clock) -> [(path: AnswerPath, message: String)] {
        guard let asked = repeatCountAsked(of: node, values: values, parent: parent, clock: clock) else { return [] }
        let path = AnswerPath(parent, node.name)
        if asked > Double(Self.repeatCountLimit) {
            let text = asked < 1e15 ? String(Int(asked)) : "\(asked)"
            return [(path, "the form's count asks for \(text) \(label) entries; survey keeps at most \(Self.repeatCountLimit): correct the count")]
        }
        if stored > Int(asked) {
            return [(path, "\(stored) \(label) entries where the form counts \(Int(asked)): delete those after \(Int(asked)) (^D) or change the count")]
        }
        return []
    }

    func collectRepeatProblems(in values: [String: PropertyValue], parent: [AnswerPath.Step], shown: [Bool], clock: Clock,
                               members: Set<[AnswerPath.Step]>? = nil, memberRelevance: (([AnswerPath.Step]) -> [Bool])? = nil,
                               into found: inout [(path: AnswerPath, message: String)]) {
        guard let outline = outline?.value else { return }
        let offset = outline.scopes[scopeNumber].offset
        for (i, field) in fields.enumerated() where shown.indices.contains(i) && shown[i] {
            guard let number = outline.scopeOfRepeatRow[offset + i] else { continue }
            let inner = scopeQuestionnaire(number: number)
            if members == nil, let node = outline.scopes[number].node {
                found += repeatCountProblems(node, stored: AnswerTree.count(values, parent[...], field.key), values: values,
                                             parent: parent, label: field.label.isEmpty ? field.key : field.label, clock: clock)
            }
            for index in 0..<AnswerTree.count(values, parent[...], field.key) {
                let steps = parent + [AnswerPath.Step(name: field.key, index: index)]
                if let members, !members.contains(steps) { continue }
                // Reached only through repeats shown, where `relevance(at:values:)` is this.
                let innerShown = memberRelevance?(steps) ?? inner.relevance(of: values, at: steps, clock: clock)
                for problem in inner.problems(of: values, at: steps, shown: innerShown, clock: clock) {
                    found.append((AnswerPath(steps, inner.fields[problem.index].key), problem.message))
                }
                inner.collectRepeatProblems(in: values, parent: steps, shown: innerShown, clock: clock, members: members,
                                            memberRelevance: memberRelevance, into: &found)
            }
        }
    }
}
