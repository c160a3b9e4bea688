import FoundationEssentials
import SurveyModel

/// What the form's rules say about the record on the form (which questions show, what is
/// wrong with stored answers), remembered between the several asks of one key and the frames
/// after it. A 500-question form re-evaluated each time cost 7–11 ms a key; the answers only
/// change when the record, the questionnaire or the minute (for `now()`) does, so those are
/// the key. A reference shared by copies of the state, which is safe because an entry is
/// only ever used for exactly the inputs it was computed from.
final class FormRuleCache: @unchecked Sendable {
    private struct Entry {
        let record: Record
        /// The record's answers, read out once for every rule asked of it (each reading
        /// decodes every roster: a millisecond with two rosters of 20).
        let values: [String: PropertyValue]
        let fields: [FieldSpec]
        let minute: Int
        let relevance: [Bool]
        /// For the members shown when they were judged.
        var problems: (members: Set<[AnswerPath.Step]>, value: [Questionnaire.Problem])?
        /// The form's outline for one choice of members shown (`FormState.instances`).
        var outline: (selection: [String: Int], value: FormWalk)?
    }

    private let lock = Lock()
    private var entry: Entry?

    /// The record's answers, read out once (`Record.values`).
    func values(_ questionnaire: Questionnaire, _ record: Record, _ clock: Questionnaire.Clock) -> [String: PropertyValue] {
        lock.lock(); defer { lock.unlock() }
        return entryFor(questionnaire, record, clock).values
    }

    func relevance(_ questionnaire: Questionnaire, _ record: Record, _ clock: Questionnaire.Clock) -> [Bool] {
        lock.lock(); defer { lock.unlock() }
        return entryFor(questionnaire, record, clock).relevance
    }

    /// The record's problems (`Questionnaire.problems(in:)`, members' by path) for the members
    /// shown: every member of two rosters of 20 cost 20 ms, so only those on screen, and once
    /// per record and members, not per frame.
    func problems(_ questionnaire: Questionnaire, _ record: Record, _ clock: Questionnaire.Clock,
                  members: Set<[AnswerPath.Step]>,
                  compute: ([String: PropertyValue]) -> [Questionnaire.Problem]) -> [Questionnaire.Problem] {
        lock.lock(); defer { lock.unlock() }
        var current = entryFor(questionnaire, record, clock)
        if let known = current.problems, known.members == members { return known.value }
        let found = compute(current.values)
        current.problems = (members, found)
        entry = current
        return found
    }

    /// The outline the form walks (`FormWalk`): asked a dozen times a key, built once.
    func outline(_ questionnaire: Questionnaire, _ record: Record, _ clock: Questionnaire.Clock,
                 selection: [String: Int]) -> FormWalk {
        lock.lock(); defer { lock.unlock() }
        var current = entryFor(questionnaire, record, clock)
        if let known = current.outline, known.selection == selection { return known.value }
        let built = FormWalk.make(questionnaire, record: record, values: current.values, selection: selection,
                                  topRelevance: current.relevance, clock: clock)
        current.outline = (selection, built)
        entry = current
        return built
    }

    private func entryFor(_ questionnaire: Questionnaire, _ record: Record, _ clock: Questionnaire.Clock) -> Entry {
        let minute = Int((clock.now.timeIntervalSince1970 / 60).rounded(.down))
        // The same bytes, not `==`: a changed record is then one comparison, not two decodings.
        if let entry, entry.minute == minute, entry.record.hasIdenticalBytes(record), entry.fields == questionnaire.fields { return entry }
        let values = record.values
        let fresh = Entry(record: record, values: values, fields: questionnaire.fields, minute: minute,
                          relevance: questionnaire.relevance(inValues: values, clock: clock), problems: nil, outline: nil)
        entry = fresh
        return fresh
    }
}

extension FormRuleCache: Equatable {
    /// Remembered answers are not part of what the state is.
    static func == (a: FormRuleCache, b: FormRuleCache) -> Bool { true }
}
