import FoundationEssentials
import SurveyValues

/// A survey merged from two copies (`survey merge`) holds answers neither side stored
/// together, so the form computes its calculations again, as it does for a survey keyed or
/// imported: three-way merge of the answers first, then the form's calculations. Only the
/// calculations change, and only in the surveys merged: every answer is as the merge left
/// it (nothing is hidden or filled in), and a survey taken whole from one side
/// (fast-forwarded, added) is that side's, byte for byte.
///
/// A clash on a calculation is no clash: both sides computed it from answers the merge
/// has now joined, so the form decides it, and it leaves the survey's conflicts; a survey
/// whose only clashes were calculations is merged.
///
/// A row with a `trigger` is no such calculation: it was set when its trigger changed, on
/// the laptop where it changed, with that laptop's clock (`now()`), and nothing computes it
/// again. The merge fires no trigger and copies none of those rows: each is merged as an
/// answer, and a clash on one stays a conflict.
extension Questionnaire {
    /// `merged` with the form's calculations, in the survey and every member, computed
    /// where the answers that differ from `before` (the survey here before the merge) reach;
    /// every other value as `merged` has it.
    public func settledAfterMerge(_ merged: Record, before: Record, clock: Clock) -> Record {
        guard settles else { return merged }
        let settled = settledFiringNoTrigger(merged, before: before, clock: clock).values
        var values = merged.values
        let start = values
        copyCalculations(from: settled, into: &values, at: [])
        return values == start ? merged : Record(values)
    }

    /// Each calculation's value in `settled` put into `values`, in this scope's instance at
    /// `steps` and in the members of its rosters both hold. The depth is the form's.
    private func copyCalculations(from settled: [String: PropertyValue], into values: inout [String: PropertyValue],
                                  at steps: [AnswerPath.Step]) {
        guard let outline = outline?.value else { return }
        let offset = outline.scopes[scopeNumber].offset
        for (i, field) in fields.enumerated() {
            if field.kind == .calculated, !field.key.isEmpty, !isTriggered(i) {
                let value = AnswerTree.value(settled, steps[...], field.key)
                if AnswerTree.value(values, steps[...], field.key) != value { AnswerTree.set(value, field.key, at: steps[...], in: &values) }
            }
            guard let number = outline.scopeOfRepeatRow[offset + i] else { continue }
            let inner = scopeQuestionnaire(number: number)
            let both = min(AnswerTree.count(values, steps[...], field.key), AnswerTree.count(settled, steps[...], field.key))
            for k in 0..<both {
                inner.copyCalculations(from: settled, into: &values, at: steps + [AnswerPath.Step(name: field.key, index: k)])
            }
        }
    }

    /// Whether a conflict's path (`member[2]/number`) names a calculation of the form.
    package func isCalculation(at path: SyncFieldPath) -> Bool {
        var steps: [AnswerPath.Step] = []
        var pending: String?
        for step in path.steps {
            switch step {
            case .key(let key):
                if pending != nil { return false }   // a dictionary the form does not nest
                pending = key
            case .index(let index):
                guard let name = pending else { return false }
                steps.append(AnswerPath.Step(name: name, index: index))
                pending = nil
            }
        }
        guard let name = pending else { return false }
        let scope = scopeQuestionnaire(steps)
        return scope.fields.indices.contains { scope.fields[$0].key == name && scope.fields[$0].kind == .calculated && !scope.isTriggered($0) }
    }

    /// Whether this scope's field `i` has a `trigger` (set when it fires, not computed).
    private func isTriggered(_ i: Int) -> Bool {
        guard let outline = outline?.value else { return false }
        let questions = outline.scopes[scopeNumber].form.questions
        return questions.indices.contains(i) && !questions[i].trigger.isEmpty
    }
}
