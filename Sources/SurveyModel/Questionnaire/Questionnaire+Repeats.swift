import Foundation

/// Repeats (rosters) in a questionnaire: which there are, each one's own questions, how many
/// instances `repeat_count` asks for, and the form's rules judged in every instance.
///
/// A repeat's questions are a questionnaire of their own (`instanceQuestionnaire(for:)`),
/// run on one instance at a time, so `required`, `constraint`, `relevant`, `choice_filter`
/// and types apply inside a roster by the very code that applies them to a flat form. Its
/// rules read the instance's answers first, then those of the instances and the survey
/// around it: `${age}` in a member's constraint is that member's age, as pyxform writes it
/// (`../age`), and `${village}` the survey's. What needs the whole roster at once
/// (`count(${member})`, `sum(${age})`, `position(..)`, `indexed-repeat`) waits for the
/// expression evaluator to know node-sets.
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
    public func repeatNode(forField index: Int) -> FormNode? {
        tree.first { $0.kind == .repeat && $0.fieldIndex == index }
    }

    /// The repeat's own questions, as the fields of one instance (groups as heading rows, a
    /// nested repeat as one row), in this questionnaire's language.
    public func instanceQuestionnaire(for node: FormNode) -> Questionnaire {
        guard let form, let question = node.question, node.kind == .repeat else { return Questionnaire(fields: []) }
        var inner = Questionnaire(form: form.scoped(to: question.children), language: language)
        inner.tree = node.children
        return inner
    }

    /// How many instances the repeat must have in the instance `parent` leads to (none:
    /// the top level): its `repeat_count`, a number or an expression of the answers; nil
    /// when it has none (instances are added by hand) or the count cannot be known yet.
    public func repeatCount(of node: FormNode, in record: Record, parent: [AnswerPath.Step] = [], clock: Clock = Clock()) -> Int? {
        guard let count = node.question?.repeatCount else { return nil }
        let value = count.evaluate(in: context(Self.scope(record, parent), current: "", clock: clock)).number
        guard value.isFinite else { return nil }
        return max(0, Int(value.rounded(.towardZero)))
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
    /// offered, each with where it is. What [ Add ] will check with `problems(in:)` once the
    /// form screen keys rosters.
    public func repeatProblems(in record: Record, clock: Clock = Clock()) -> [(path: AnswerPath, message: String)] {
        var found: [(AnswerPath, String)] = []
        collectRepeatProblems(in: record, parent: [], shown: relevance(in: record, clock: clock), clock: clock, into: &found)
        return found
    }

    private func collectRepeatProblems(in record: Record, parent: [AnswerPath.Step], shown: [Bool], clock: Clock,
                                       into found: inout [(AnswerPath, String)]) {
        for node in tree.flatMap(\.descendants) where node.kind == .repeat && node.repeats.count == parent.count {
            guard shown.indices.contains(node.fieldIndex), shown[node.fieldIndex] else { continue }
            let inner = instanceQuestionnaire(for: node)
            for index in 0..<record.instanceCount(of: node.name, in: parent) {
                let steps = parent + [AnswerPath.Step(name: node.name, index: index)]
                let scope = Self.scope(record, steps)
                for problem in inner.problems(in: scope, clock: clock) {
                    found.append((AnswerPath(steps, inner.fields[problem.index].key), problem.message))
                }
                inner.collectRepeatProblems(in: record, parent: steps, shown: inner.relevance(in: scope, clock: clock),
                                            clock: clock, into: &found)
            }
        }
    }
}
