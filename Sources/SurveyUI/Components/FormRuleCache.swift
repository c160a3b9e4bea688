import FoundationEssentials
import SurveyValues
import SurveyForms

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
        /// The top level's problems, and each roster's (by its name) for its members shown
        /// when they were judged.
        var topProblems: [Questionnaire.Problem]?
        /// The record this one was settled from by a commit, as judged: its top-level problems
        /// are judged again only where the commit reached (`Questionnaire.topLevelProblems`).
        var previous: (values: [String: PropertyValue], relevance: [Bool], problems: [Questionnaire.Problem], reached: Set<Int>?)?
        var rosterProblems: [String: (members: Set<[AnswerPath.Step]>, value: [Questionnaire.Problem])] = [:]
        /// The form's outline for one choice of members shown (`FormState.instances`).
        var outline: (selection: [String: Int], value: FormWalk)?
        /// Each member's relevance, asked by the outline and again by its problems.
        let members = MemberRelevance()
        /// The rows drawn for that outline, asked by every key (to scroll the highlight into
        /// view) and every frame; and their layout at the form's width.
        var drawn: (key: DrawnKey, value: Drawn)?
    }

    /// Which rows: the members shown, and whether the record is a stored one (a draft's
    /// stored answers are never judged) — with the record, all `FormRows.of` reads.
    struct DrawnKey: Equatable {
        let selection: [String: Int]
        let storedRecord: Bool
        /// A supervisor's comment shown beside questions (`reviewNotes`), which a sync changes.
        var review: String? = nil
    }

    /// The form's rows (`FormRows`), what is wrong with the stored answers by row, and the
    /// rows' layout at one width.
    struct Drawn {
        let rows: [FormRow]
        let problems: [EntryNumber: String]
        /// A supervisor's comment, by entry, under the questions it names.
        var notes: [EntryNumber: String] = [:]
        var layout: FormGeometry.Layout?
    }

    /// Members' relevance (`relevance(at:values:)`) for one entry's answers: the outline
    /// and the problems of a member shown both need it, and each evaluated it (PgDn twice
    /// the 200 rules of the member it brings). Used only under the cache's lock.
    private final class MemberRelevance {
        var known: [[AnswerPath.Step]: [Bool]] = [:]

        func lookup(_ questionnaire: Questionnaire, _ values: [String: PropertyValue],
                    _ clock: Questionnaire.Clock) -> ([AnswerPath.Step]) -> [Bool] {
            { [self] steps in
                if let found = known[steps] { return found }
                let made = FormInstance(questionnaire, values: values, clock: clock).relevance(at: steps)
                known[steps] = made
                return made
            }
        }
    }

    private let lock = Lock()
    private var entry: Entry?
    /// How many times rows and layouts were made, for tests: once per record (and members
    /// shown, and width), never per key or frame.
    private(set) var rowsMade = 0, layoutsMade = 0

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
    /// per record and members, not per frame. The top level's are judged once per record and
    /// each roster's once per member shown in it: PgDn to the next member judges that member
    /// alone, not the survey and the other roster again.
    func problems(_ questionnaire: Questionnaire, _ record: Record, _ clock: Questionnaire.Clock,
                  members: Set<[AnswerPath.Step]>) -> [Questionnaire.Problem] {
        lock.lock(); defer { lock.unlock() }
        var current = entryFor(questionnaire, record, clock)
        let instance = FormInstance(questionnaire, values: current.values, clock: clock)
        let top = current.topProblems ?? current.previous.map {
            instance.topLevelProblems(relevance: current.relevance, since: ($0.values, $0.relevance, $0.problems), reached: $0.reached)
        } ?? instance.problems(members: [], topLevel: true, relevance: current.relevance)
        current.topProblems = top
        current.previous = nil
        var found = top
        let byRoster = Dictionary(grouping: members) { $0.first?.name ?? "" }
        for name in byRoster.keys.sorted() {
            let shown = Set(byRoster[name] ?? [])
            if let known = current.rosterProblems[name], known.members == shown {
                found += known.value
                continue
            }
            let judged = instance.problems(members: shown, topLevel: false, relevance: current.relevance,
                                           memberRelevance: current.members.lookup(questionnaire, current.values, clock))
            current.rosterProblems[name] = (shown, judged)
            found += judged
        }
        entry = current
        // By row, as `problems(in:)` gives them: each roster's after the questions before it.
        return found.enumerated().sorted { ($0.element.index, $0.offset) < ($1.element.index, $1.offset) }.map(\.element)
    }

    /// The outline the form walks (`FormWalk`): asked a dozen times a key, built once.
    func outline(_ questionnaire: Questionnaire, _ record: Record, _ clock: Questionnaire.Clock,
                 selection: [String: Int]) -> FormWalk {
        lock.lock(); defer { lock.unlock() }
        var current = entryFor(questionnaire, record, clock)
        if let known = current.outline, known.selection == selection { return known.value }
        let built = FormWalk.make(questionnaire, record: record, values: current.values, selection: selection,
                                  topRelevance: current.relevance, clock: clock,
                                  memberRelevance: current.members.lookup(questionnaire, current.values, clock))
        current.outline = (selection, built)
        entry = current
        return built
    }

    /// The rows and problems drawn for `key`, made by `make` (outside the lock: it asks this
    /// cache for the outline and the answers) when the record or the key changed.
    func drawn(_ questionnaire: Questionnaire, _ record: Record, _ clock: Questionnaire.Clock, key: DrawnKey,
               make: () -> (rows: [FormRow], problems: [EntryNumber: String], notes: [EntryNumber: String])) -> Drawn {
        lock.lock()
        if let known = entryFor(questionnaire, record, clock).drawn, known.key == key {
            lock.unlock()
            return known.value
        }
        lock.unlock()
        let (rows, problems, notes) = make()
        let made = Drawn(rows: rows, problems: problems, notes: notes)
        lock.lock(); defer { lock.unlock() }
        rowsMade += 1
        var current = entryFor(questionnaire, record, clock)
        current.drawn = (key, made)
        entry = current
        return made
    }

    /// The layout of the rows `drawn` returned for `key`, at `width`.
    func layout(_ questionnaire: Questionnaire, _ record: Record, _ clock: Questionnaire.Clock, key: DrawnKey,
                rows: [FormRow], width: Int) -> FormGeometry.Layout {
        lock.lock(); defer { lock.unlock() }
        var current = entryFor(questionnaire, record, clock)
        guard var drawn = current.drawn, drawn.key == key else { return FormGeometry.Layout(rows: rows, width: width) }
        if let known = drawn.value.layout, known.width == width { return known }
        let made = FormGeometry.Layout(rows: drawn.value.rows, width: width)
        layoutsMade += 1
        drawn.value.layout = made
        current.drawn = drawn
        entry = current
        return made
    }

    /// A record just settled with its answers as settling left them (what `record.values`
    /// reads): the rules asked of it next start from these instead of reading them again.
    func seed(_ questionnaire: Questionnaire, _ record: Record, _ clock: Questionnaire.Clock, values: [String: PropertyValue]) {
        lock.lock(); defer { lock.unlock() }
        if let entry, entry.record.hasIdenticalBytes(record) { return }
        guard let entry, entry.minute == Self.minute(clock), entry.fields == questionnaire.fields else {
            self.entry = makeEntry(questionnaire, record, clock, values: values)
            return
        }
        // The settled record's relevance from the one it was settled from: only the rows the
        // commit reached are evaluated again (`topLevelRelevance`).
        // The rows it reached are worked out once, for the relevance now and the problems the
        // next frame asks for.
        let instance = FormInstance(questionnaire, values: values, clock: clock)
        let reached = instance.topLevelRowsReached(since: entry.values)
        let relevance = instance.topLevelRelevance(since: (entry.values, entry.relevance), reached: reached)
        var fresh = makeEntry(questionnaire, record, clock, values: values, relevance: relevance)
        if let problems = entry.topProblems { fresh.previous = (entry.values, entry.relevance, problems, reached) }
        self.entry = fresh
    }

    private func makeEntry(_ questionnaire: Questionnaire, _ record: Record, _ clock: Questionnaire.Clock,
                           values: [String: PropertyValue], relevance: [Bool]? = nil) -> Entry {
        Entry(record: record, values: values, fields: questionnaire.fields, minute: Self.minute(clock),
              relevance: relevance ?? FormInstance(questionnaire, values: values, clock: clock).relevance(), outline: nil)
    }

    private static func minute(_ clock: Questionnaire.Clock) -> Int { Int((clock.now.timeIntervalSince1970 / 60).rounded(.down)) }

    private func entryFor(_ questionnaire: Questionnaire, _ record: Record, _ clock: Questionnaire.Clock) -> Entry {
        // The same bytes, not `==`: a changed record is then one comparison, not two decodings.
        if let entry, entry.minute == Self.minute(clock), entry.record.hasIdenticalBytes(record), entry.fields == questionnaire.fields {
            return entry
        }
        let fresh = makeEntry(questionnaire, record, clock, values: record.values)
        entry = fresh
        return fresh
    }
}

extension FormRuleCache: Equatable {
    /// Remembered answers are not part of what the state is.
    static func == (a: FormRuleCache, b: FormRuleCache) -> Bool { true }
}
