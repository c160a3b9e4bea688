import FoundationEssentials
import SurveyValues
import SurveyForms

extension Questionnaire {
    /// `settled` as it was before the dependency graph: repeated until nothing changes, each
    /// pass settling at least one more link of the longest chain. `survey-bench` compares the
    /// graph's one pass with it; the product never runs it (issue 29: out of the product).
    func settledByPasses(_ record: Record, before: Record? = nil, hidden: inout [String: PropertyValue],
                         clock: Clock) -> Record {
        guard let form else { return record }
        // What the survey showed before this change, and whether a value was offered then.
        let wasShown = before.map { FormInstance(self, record: $0, clock: clock).relevance() } ?? Array(repeating: true, count: fields.count)
        func offeredBefore(_ value: PropertyValue, _ i: Int) -> Bool {
            guard let before else { return true }
            return isOffered(value, i, in: before, clock: clock)
        }
        var current = record
        for _ in 0...fields.count {
            var next = current
            let shownNow = FormInstance(self, record: next, clock: clock).relevance()
            for (i, field) in fields.enumerated() where field.kind == .calculated {
                guard let calculation = form.questions[i].calculation else { continue }
                // A calculation the form hid before this change keeps what it stored.
                if !shownNow[i], !wasShown[i] { continue }
                let text = calculation.evaluate(in: context(next, current: "", clock: clock)).string
                next[field.key] = text.isEmpty || text == "NaN" ? nil : .string(text)
            }
            let shown = FormInstance(self, record: next, clock: clock).relevance()
            for (i, field) in fields.enumerated() where field.kind.isAnswered || field.kind == .calculated {
                if let value = next[field.key] {
                    // Hidden by this change, or a cascading choice whose parent this change
                    // moved: put aside, to come back if the change is undone.
                    let hiddenNow = !shown[i] && wasShown[i]
                    let withdrawnNow = shown[i] && !isOffered(value, i, in: next, clock: clock) && offeredBefore(value, i)
                    if hiddenNow || withdrawnNow {
                        hidden[field.key] = value
                        next[field.key] = nil
                    }
                } else if shown[i], let kept = hidden[field.key],
                          isOffered(kept, i, in: next, clock: clock) || (!wasShown[i] && !offeredBefore(kept, i)) {
                    // Back as it was: offered again, or its question shown again by this change
                    // holding an answer this version never offered (an older version's choice).
                    // A choice withdrawn earlier stays aside while its question keeps showing.
                    hidden[field.key] = nil
                    next[field.key] = kept
                }
            }
            if next == current { break }
            current = next
        }
        return current
    }
}
