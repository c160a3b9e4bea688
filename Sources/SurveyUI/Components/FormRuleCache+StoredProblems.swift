import SurveyValues
import SurveyForms

/// A stored survey's answers judged by the form, placed on the walk's entries: read from the
/// cache's problems (issue 29: the cache's own, not `AppState`'s).
extension FormRuleCache {
    /// What is wrong with each answer of stored survey `record` under `questionnaire`, by
    /// entry of `outline` (`ShownForm.storedAnswerProblems`): a roster member's problems under
    /// its own questions, without their path.
    func storedAnswerProblems(_ questionnaire: Questionnaire, _ record: Record, _ clock: Questionnaire.Clock,
                              in outline: FormWalk) -> [EntryNumber: String] {
        // The members on the form (each with the members around it).
        let shownMembers = Set(outline.entries?.map(\.steps).filter { !$0.isEmpty } ?? [])
        let all = problems(questionnaire, record, clock, members: shownMembers)
        var top: [Int: String] = [:]
        // An empty required answer of a stored record is not news on every question; of an
        // incomplete survey it is what is left to key (`AppState+Incomplete`).
        let missingShown = record.isIncomplete
        for problem in all where problem.path.steps.isEmpty {
            if missingShown || record[questionnaire.fields[problem.index].key] != nil { top[problem.index] = problem.message }
        }
        // A flat form's entries are its fields, one for one.
        guard let entries = outline.entries else {
            return Dictionary(uniqueKeysWithValues: top.map { (EntryNumber($0.key), $0.value) })
        }
        var result: [EntryNumber: String] = [:]
        var members: [AnswerPath: EntryNumber] = [:]
        for (i, entry) in zip(outline.indices, entries) where entry.heading == nil {
            if entry.steps.isEmpty {
                if let problem = top[entry.fieldIndex.row] { result[i] = problem }
            } else {
                members[outline.path(i)] = i
            }
        }
        guard !members.isEmpty else { return result }
        // A member's problems come with the survey's, by path (`member[2]/age: …`), judged as
        // the rules judge them there; shown under the member's own question, without the path.
        for problem in all where !problem.path.steps.isEmpty {
            guard let i = members[problem.path], missingShown || record.value(at: problem.path) != nil else { continue }
            let prefix = "\(problem.path): "
            result[i] = problem.message.hasPrefix(prefix) ? String(problem.message.dropFirst(prefix.count)) : problem.message
        }
        return result
    }
}
