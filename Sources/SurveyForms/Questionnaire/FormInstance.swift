import FoundationEssentials
import SurveyValues

/// One survey under its form, as its rules are asked of it (issue 29, JavaRosa's
/// `FormInstance`): the questionnaire, the survey's answers read out of its bytes once (and
/// only when a rule reads them), and the clock the rules read. Every question is named by a
/// `QuestionPlace`, its row and the members around it, so one query answers for the top
/// level and for a roster's member alike. It stands in place of the questionnaire's pairs of
/// overloads (a record or its answers, a top-level row or one with steps), which callers
/// outside the forms module no longer see.
public struct FormInstance: Sendable {
    /// The top level's questionnaire (a member's question is judged by its repeat's own,
    /// found from its steps).
    public let questionnaire: Questionnaire
    public let clock: Questionnaire.Clock
    private let answers: Answers

    public init(_ questionnaire: Questionnaire, record: Record, clock: Questionnaire.Clock) {
        self.questionnaire = questionnaire
        self.clock = clock
        answers = Answers(record: record)
    }

    /// With the answers already read (a frame that asks many questions reads them once).
    public init(_ questionnaire: Questionnaire, values: [String: PropertyValue], clock: Questionnaire.Clock) {
        self.questionnaire = questionnaire
        self.clock = clock
        answers = Answers(values: values)
    }

    /// With the answers to be read only if a rule reads them (a frame's, from its cache).
    public init(_ questionnaire: Questionnaire, reading values: @escaping @Sendable () -> [String: PropertyValue],
                clock: Questionnaire.Clock) {
        self.questionnaire = questionnaire
        self.clock = clock
        answers = Answers(reading: values)
    }

    /// The survey's answers, read out of its bytes at the first call.
    public var values: [String: PropertyValue] { answers.values }

    /// Whether each field of the instance `steps` lead to shows (the top level's with no
    /// steps): its own `relevant` and its groups', and none when its repeat hides the member.
    public func relevance(at steps: [AnswerPath.Step] = []) -> [Bool] {
        questionnaire.relevance(at: steps, values: values, clock: clock)
    }

    /// What the designer's rules say of `value` as the answer at `place` (`required` when it
    /// is empty, `constraint` when it is not); nil when it passes.
    public func problem(at place: QuestionPlace, value: PropertyValue?) -> String? {
        questionnaire.scopeQuestionnaire(place.steps).ruleProblem(place.field.row, at: place.steps, value: value,
                                                                  values: values, clock: clock)
    }

    /// Whether the question at `place` must be answered now (its `required`, read there).
    /// A `required: yes` reads no answer: the survey's are not read out for it.
    public func isRequired(_ place: QuestionPlace) -> Bool {
        questionnaire.isRequired(place.field.row, at: place.steps, values: { answers.values }, clock: clock)
    }

    /// The choices the question at `place` offers now (its `choice_filter`, read there).
    public func choices(at place: QuestionPlace) -> [XLSForm.Choice] {
        questionnaire.scopeQuestionnaire(place.steps).choices(for: place.field.row, at: place.steps, values: values, clock: clock)
    }

    /// What the question at `place` offers before anything is typed: its `default`.
    public func defaultText(at place: QuestionPlace) -> String? {
        questionnaire.scopeQuestionnaire(place.steps).defaultText(place.field.row, at: place.steps, values: values, clock: clock)
    }

    /// How many members the repeat must have in the instance `parent` leads to (its
    /// `repeat_count`); nil when it has none or it cannot be known yet.
    public func repeatCount(of node: FormNode, parent: [AnswerPath.Step] = []) -> Int? {
        guard node.question?.repeatCount != nil else { return nil }
        return questionnaire.repeatCount(of: node, values: values, parent: parent, clock: clock)
    }

    /// Every problem of the survey, members' by path: the gate of [ Add ], `survey add` and
    /// imports. `members`: judge only these members (nil: every one). An encrypted survey
    /// (`Record.isSealed`) has none here: it passed the rules when it was finished, and its
    /// answers are not readable without the key.
    public func problems(members: Set<[AnswerPath.Step]>? = nil) -> [Questionnaire.Problem] {
        guard questionnaire.form != nil, !Record.isSealed(values) else { return [] }
        return questionnaire.problems(inValues: values, clock: clock, members: members)
    }
}

/// Where a question is: its row among its scope's fields, and the members around it
/// (outermost first; none at the top level).
public struct QuestionPlace: Hashable, Sendable {
    public var field: FieldIndex
    public var steps: [AnswerPath.Step]

    public init(_ field: FieldIndex, at steps: [AnswerPath.Step] = []) {
        self.field = field
        self.steps = steps
    }
}

/// A question's row among its scope's fields (`Questionnaire.fields` of the top level, or of
/// its repeat's questionnaire; the scope's `XLSForm.questions` mirror them one for one): one
/// of a question's three numberings, typed so it is not taken for the others, the screen's
/// (`FormWalk`'s entries, the shown members' questions laid out in a row: `FormItem.field`,
/// `EditBuffer.fieldIndex`) or the outline's (`FormOutline`'s nodes, every scope's rows
/// numbered as one list for the settling graph).
public struct FieldIndex: Hashable, Sendable, Comparable {
    public let row: Int

    public init(_ row: Int) { self.row = row }

    public static func < (a: FieldIndex, b: FieldIndex) -> Bool { a.row < b.row }
}

/// A survey's answers, read out of its bytes once, when first asked for (a `required: yes`
/// or a frame of top-level questions never needs a roster decoded). Shared by the copies of
/// one `FormInstance`; the lock makes it safe to share across threads (a frame drawn on one,
/// a search on another).
private final class Answers: @unchecked Sendable {
    private let lock = Lock()
    private let reading: @Sendable () -> [String: PropertyValue]
    private var read: [String: PropertyValue]?

    init(record: Record) {
        reading = { record.values }
    }

    init(values: [String: PropertyValue]) {
        reading = { [:] }
        read = values
    }

    init(reading: @escaping @Sendable () -> [String: PropertyValue]) {
        self.reading = reading
    }

    var values: [String: PropertyValue] {
        lock.withLock {
            if let read { return read }
            let values = reading()
            read = values
            return values
        }
    }
}

/// What a screen asks again after each key, judged only where the change reached (the form's
/// dependency graph: `Questionnaire+Rejudging`), and judging a few members of a long roster.
extension FormInstance {
    /// The top level's rows a change from `before` reached (nil: every row).
    public func topLevelRowsReached(since before: [String: PropertyValue]) -> Set<Int>? {
        questionnaire.topLevelRowsReached(values, before: before)
    }

    /// The top level's relevance, from `before`'s: only the rows `reached` evaluated again.
    /// `before` must have been evaluated at this clock.
    public func topLevelRelevance(since before: (values: [String: PropertyValue], relevance: [Bool]), reached: Set<Int>?) -> [Bool] {
        questionnaire.topLevelRelevance(inValues: values, clock: clock, before: before, reached: reached)
    }

    /// The top level's problems, from `before`'s: only the rows `reached` (or shown or hidden
    /// anew) judged again. `relevance` is this instance's top level's.
    public func topLevelProblems(relevance: [Bool],
                                 since before: (values: [String: PropertyValue], relevance: [Bool], problems: [Questionnaire.Problem]),
                                 reached: Set<Int>?) -> [Questionnaire.Problem] {
        questionnaire.topLevelProblems(inValues: values, relevance: relevance, clock: clock, before: before, reached: reached)
    }

    /// The problems of the top level (unless `topLevel` is false) and of `members` alone,
    /// with the relevance the caller already has (the top level's; each member's on demand).
    public func problems(members: Set<[AnswerPath.Step]>, topLevel: Bool, relevance: [Bool]?,
                         memberRelevance: (([AnswerPath.Step]) -> [Bool])? = nil) -> [Questionnaire.Problem] {
        guard questionnaire.form != nil, !Record.isSealed(values) else { return [] }
        return questionnaire.problems(inValues: values, clock: clock, members: members, topLevel: topLevel, relevance: relevance,
                                      memberRelevance: memberRelevance)
    }
}
