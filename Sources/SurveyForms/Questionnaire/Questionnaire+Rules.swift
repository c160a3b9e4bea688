import FoundationEssentials
import SurveyValues

/// The form's rules across fields, as ODK applies them: `relevant` shows and hides,
/// `calculation` fills in, `required` and `constraint` judge an answer with the designer's
/// own words, `choice_filter` narrows a list, and a survey is stamped with the form's id and
/// version when it is added. The original five fields have none of these: every call is a
/// no-op for them, so one code path serves every questionnaire.
extension Questionnaire {
    /// When an expression is evaluated: `today()` and `now()` are read from here, so a test
    /// can pin them.
    public struct Clock: Equatable, Sendable {
        public var now: Date
        public var timeZone: TimeZoneRule
        /// No default moment: every evaluation says which clock it reads (the app's, a sync's
        /// date, a command's start), so no rule reads the wall clock behind a caller's back.
        public init(now: Date, timeZone: TimeZoneRule = .current) {
            self.now = now
            self.timeZone = timeZone
        }
    }

    public static let formIDKey = "formID"
    public static let formVersionKey = "formVersion"

    /// Whether each field is shown for this record: its own `relevant` and every enclosing
    /// group's. One pass, so a frame of a 500-question form costs 500 evaluations at most.
    /// The top level's; `relevance(at:in:clock:)` is an instance's.
    func relevance(in record: Record, clock: Clock) -> [Bool] {
        relevance(of: record.values, at: [], clock: clock)
    }

    /// `relevance(in:)` of answers already read out of the survey (`record.values`).
    func relevance(inValues values: [String: PropertyValue], clock: Clock) -> [Bool] {
        relevance(of: values, at: [], clock: clock)
    }

    /// This questionnaire's fields (a scope's: the top level, or a repeat's rows) in the
    /// instance `steps` lead to, by their own rules and their groups' only: whether the
    /// instance itself shows is `instanceShows`.
    func relevance(of values: [String: PropertyValue], at steps: [AnswerPath.Step], clock: Clock) -> [Bool] {
        guard let form else { return Array(repeating: true, count: fields.count) }
        var result = Array(repeating: true, count: fields.count)
        let here = AnswerTree.instance(values, steps[...]) ?? [:]
        let ctx = context(values, at: steps, current: "", clock: clock)
        for i in fields.indices {
            if let outer = enclosingGroups[i].last, !result[outer] {
                result[i] = false
                continue
            }
            if let relevant = form.questions[i].relevant {
                var c = ctx
                c.current = .string(XLSForm.text(of: here[fields[i].key]))
                result[i] = relevant.evaluate(in: c).boolean
            }
        }
        return result
    }

    func isRelevant(_ index: Int, in record: Record, clock: Clock) -> Bool {
        guard form != nil else { return true }
        return relevance(in: record, clock: clock)[index]
    }

    /// The designer's rule for an answer about to be stored in `record`: `required` when it
    /// is empty, `constraint` (with `.` the answer) when it is not. nil when it passes.
    func ruleProblem(_ index: Int, value: PropertyValue?, in record: Record, clock: Clock) -> String? {
        ruleProblem(index, at: [], value: value, values: record.values, clock: clock)
    }

    /// `ruleProblem` for this scope's field `index` in the instance `steps` lead to, with
    /// `value` put in its place.
    func ruleProblem(_ index: Int, at steps: [AnswerPath.Step], value: PropertyValue?, values stored: [String: PropertyValue],
                     clock: Clock) -> String? {
        var none: FormContext?
        return ruleProblem(index, at: steps, value: value, values: stored, clock: clock, storedContext: &none)
    }

    /// `ruleProblem`, with the context of the stored answers at `steps` kept in
    /// `storedContext` for the next question judged there: judging a survey's stored answers
    /// made one per question, a fifth of judging it.
    private func ruleProblem(_ index: Int, at steps: [AnswerPath.Step], value: PropertyValue?, values stored: [String: PropertyValue],
                             clock: Clock, storedContext: inout FormContext?) -> String? {
        // The rules read in place: a copy of the whole question for each answer judged was
        // a tenth of → to a survey on the designer's form.
        guard let form, form.questions.indices.contains(index) else { return nil }
        var values = stored
        let text = XLSForm.text(of: value)
        let ctx: FormContext
        // Judging what is stored (the whole-survey check, every frame of a stored survey)
        // needs no copy of the answers, and one context serves every question.
        if AnswerTree.value(values, steps[...], fields[index].key) != value {
            AnswerTree.set(value, fields[index].key, at: steps[...], in: &values)
            ctx = context(values, at: steps, current: text, clock: clock)
        } else {
            var shared = storedContext ?? context(values, at: steps, current: "", clock: clock)
            storedContext = shared
            shared.current = .string(text)
            ctx = shared
        }
        if text.isEmpty {
            if let required = form.questions[index].required, required.evaluate(in: ctx).boolean {
                return (shownText(form.questions[index].requiredMessages) ?? form.questions[index].requiredMessage).map { filledIn($0, values, at: steps) }
                    ?? "\(fields[index].label) is required"
            }
            return nil
        }
        if case .choice(_, _, let multiple) = fields[index].kind, form.questions[index].choiceFilter != nil {
            // Only what `choice_filter` offers now: a district of another region is refused.
            let offered = Set(choices(for: index, at: steps, values: values, clock: clock).map(\.name))
            let picked = multiple ? text.split(separator: " ").map(String.init) : [text]
            if let stray = picked.first(where: { !offered.contains($0) }) {
                return "“\(stray)” is not one of the choices of \(fields[index].label)"
            }
        }
        if let constraint = form.questions[index].constraint, !constraint.evaluate(in: ctx).boolean {
            return (shownText(form.questions[index].constraintMessages) ?? form.questions[index].constraintMessage).map { filledIn($0, values, at: steps) }
                ?? "\(fields[index].label): the answer is not accepted by the form's rule"
        }
        return nil
    }

    /// A designer's message with the answers it names filled in where the question is
    /// (`Minimum circumference here is ${size_constraint} cm.`), as Collect shows it.
    private func filledIn(_ message: String, _ values: [String: PropertyValue], at steps: [AnswerPath.Step]) -> String {
        guard message.namesAnAnswer else { return message }
        return filledIn(message, from: Self.scoped(Record(values), steps))
    }

    /// One problem of a record: the top-level row it is under, what is wrong, and where.
    public typealias Problem = (index: Int, message: String, path: AnswerPath)

    /// Every problem of a record, field by field in form order, for the relevant questions:
    /// a stored value of the wrong type, a required question left empty, a constraint broken,
    /// and after each repeat's row the problems of its instances (`repeatProblems`), each
    /// with its path (`member[2]/age`; a top-level answer's is its name) and at the index of
    /// the top-level row it is under (the repeat's), its message naming the path. The gate
    /// for [ Add ], on the survey `completed` makes; `survey add` and imports judge the same
    /// way, after the same completing (`stored(_:arriving:)`).
    ///
    /// `members`: judge only these instances (each given with its steps, its parents' too),
    /// as a screen showing two members of forty needs; nil judges every one.
    func problems(in record: Record, clock: Clock, members: Set<[AnswerPath.Step]>? = nil) -> [Problem] {
        guard form != nil else { return [] }
        return problems(inValues: record.values, clock: clock, members: members)
    }

    /// `problems(in:)` of answers already read out of the survey (`record.values`).
    ///
    /// `topLevel` false: the members' problems alone (what the form judges again when
    /// another member is shown; the top level's are the same). `relevance`: the top level's,
    /// when the caller has it (`relevance(inValues:)` of these answers).
    ///
    /// `memberRelevance`: each member's relevance when the caller keeps it (what
    /// `relevance(at:values:)` gives of these answers), so a member drawn and judged is
    /// evaluated once.
    func problems(inValues values: [String: PropertyValue], clock: Clock,
                         members: Set<[AnswerPath.Step]>? = nil, topLevel: Bool = true, relevance known: [Bool]? = nil,
                         memberRelevance: (([AnswerPath.Step]) -> [Bool])? = nil) -> [Problem] {
        guard form != nil else { return [] }
        let shown = known ?? relevance(of: values, at: [], clock: clock)
        var found: [(index: Int, message: String, path: AnswerPath)] = []
        for problem in topLevel ? problems(of: values, at: [], shown: shown, clock: clock) : [] {
            found.append((problem.index, problem.message, AnswerPath(fields[problem.index].key)))
        }
        var inside: [(path: AnswerPath, message: String)] = []
        collectRepeatProblems(in: values, parent: [], shown: shown, clock: clock, members: members, memberRelevance: memberRelevance,
                              into: &inside)
        for problem in inside {
            let top = problem.path.steps.first?.name ?? problem.path.name
            let row = fields.firstIndex { $0.key == top } ?? fields.count
            found.append((row, "\(problem.path): \(problem.message)", problem.path))
        }
        // Stable, by row: a repeat's instances right after the questions before it.
        return found.enumerated().sorted { ($0.element.index, $0.offset) < ($1.element.index, $1.offset) }.map(\.element)
    }

    /// The top level's problems only, as `problems(in:)` gave them before rosters were
    /// judged (an import names a roster's problems itself, by path).
    func topLevelProblems(in record: Record, clock: Clock) -> [(index: Int, message: String)] {
        guard form != nil else { return [] }
        let values = record.values
        return problems(of: values, at: [], shown: relevance(of: values, at: [], clock: clock), clock: clock)
    }

    /// This scope's problems in the instance `steps` lead to, its fields' relevance given.
    /// `only`: those fields alone (nil: all).
    func problems(of values: [String: PropertyValue], at steps: [AnswerPath.Step], shown: [Bool],
                  clock: Clock, only: Set<Int>? = nil) -> [(index: Int, message: String)] {
        let here = AnswerTree.instance(values, steps[...]) ?? [:]
        var found: [(index: Int, message: String)] = []
        var shared: FormContext?
        for (i, field) in fields.enumerated() where field.kind.isAnswered && shown[i] && only.map({ $0.contains(i) }) ?? true {
            let value = here[field.key]
            if let value, !field.accepts(value) {
                if case .failure(let error) = field.imported(value) { found.append((i, error.message)); continue }
            }
            if let message = ruleProblem(i, at: steps, value: value, values: values, clock: clock, storedContext: &shared) {
                found.append((i, message))
            }
        }
        return found
    }

    /// The answers a survey holds that this version of the form does not ask of it: questions
    /// it does not have, questions its `relevant` skips for this survey, and choices its
    /// `choice_filter` does not offer. Kept on every save and exported; F4 lists them.
    public func answersNotAsked(in record: Record, clock: Clock) -> [String] {
        guard form != nil else { return [] }
        let stored = Set([Record.instanceIDKey, Self.formIDKey, Self.formVersionKey, EntityBase.recordKey])
        var asked: Set<String> = []
        var found: [String] = []
        let shown = relevance(in: record, clock: clock)
        for (i, field) in fields.enumerated() where !field.key.isEmpty {
            asked.insert(field.key)
            guard field.kind.isAnswered || field.kind == .calculated, let value = record[field.key] else { continue }
            if !shown[i] || !isOffered(value, i, in: record, clock: clock) { found.append(field.key) }
        }
        let unknown = record.keys.filter { !asked.contains($0) && !stored.contains($0) }.sorted()
        return found + unknown
    }

    /// The choices offered for a choice field now: its list, narrowed by `choice_filter`
    /// (`county = ${county}`) against each choice's columns.
    func choices(for index: Int, in record: Record, clock: Clock) -> [XLSForm.Choice] {
        choices(for: index, at: [], values: record.values, clock: clock)
    }

    func choices(for index: Int, at steps: [AnswerPath.Step], values: [String: PropertyValue], clock: Clock) -> [XLSForm.Choice] {
        guard let form, let q = question(index) else {
            if fields.indices.contains(index), fields[index].kind == .acknowledge { return [XLSForm.Choice(name: "OK", labels: ["": "OK"], extra: [:])] }
            return []
        }
        let list: String
        switch q.kind {
        case .selectOne(let l, _), .selectMultiple(let l, _): list = l
        case .acknowledge: return [XLSForm.Choice(name: "OK", labels: ["": "OK"], extra: [:])]
        default: return []
        }
        let all = form.choices[list] ?? []
        guard let filter = q.choiceFilter else { return all }
        let current = XLSForm.text(of: AnswerTree.value(values, steps[...], q.name))
        return filtered(all, by: filter, base: context(values, at: steps, current: current, clock: clock))
    }

    private func filtered(_ all: [XLSForm.Choice], by filter: FormExpression, base: FormContext) -> [XLSForm.Choice] {
        return all.filter { choice in
            var c = base
            var columns = choice.extra
            columns["name"] = choice.name
            c.choiceColumns = columns
            return filter.evaluate(in: c).boolean
        }
    }

    /// The text a field shows before anything is typed on a New form: its `default`.
    ///
    /// A default that calls a function or reads an answer (`today()`, `${village}`) is
    /// computed, as pyxform makes it a dynamic default; anything else is the text itself.
    func defaultText(_ index: Int, in record: Record = Record(), clock: Clock) -> String? {
        defaultText(index, at: [], values: record.values, clock: clock)
    }

    func defaultText(_ index: Int, at steps: [AnswerPath.Step], values: [String: PropertyValue], clock: Clock) -> String? {
        guard let question = question(index), let text = question.defaultValue else { return nil }
        guard let expression = question.dynamicDefault else { return text }
        let value = expression.evaluate(in: context(values, at: steps, current: "", clock: clock)).string
        return value.isEmpty || value == "NaN" ? nil : value
    }

    /// Whether a choice answer is among the choices `choice_filter` offers now (anything
    /// else is not a filtered choice and counts as offered).
    package func isOffered(_ value: PropertyValue?, _ index: Int, in record: Record, clock: Clock) -> Bool {
        isOffered(value, index, at: [], in: record.values, clock: clock)
    }

    package func isOffered(_ value: PropertyValue?, _ index: Int, in values: [String: PropertyValue], clock: Clock) -> Bool {
        isOffered(value, index, at: [], in: values, clock: clock)
    }

    package func isOffered(_ value: PropertyValue?, _ index: Int, at steps: [AnswerPath.Step], in values: [String: PropertyValue],
                   clock: Clock) -> Bool {
        guard let value, let q = form?.questions[index], let filter = q.choiceFilter, case .choice(let list, _, _) = fields[index].kind else { return true }
        let current = XLSForm.text(of: AnswerTree.value(values, steps[...], q.name))
        let base = context(values, at: steps, current: current, clock: clock)
        let offered = Set(filtered(form?.choices[list] ?? [], by: filter, base: base).map(\.name))
        return XLSForm.text(of: value).split(separator: " ").allSatisfy { offered.contains(String($0)) }
    }

    /// A survey as [ Add ] stores it: defaults for questions still unanswered, in the survey
    /// and in every instance of its rosters, calculations, the instances `repeat_count` asks
    /// for, the metadata the form asks for (`start`, `end`, `today`, `deviceid`, `username`),
    /// and the form's id and version, so data keyed with different versions can be told apart.
    public func completed(_ record: Record, started: Date? = nil, device: DeviceMetadata = DeviceMetadata(),
                          clock: Clock) -> Record {
        var hidden: [String: PropertyValue] = [:]
        return completed(record, started: started, device: device, clock: clock, hidden: &hidden)
    }

    /// `completed`, with the answers its settling put aside (the form hides them, or no
    /// longer offers their choice) in `hidden`, by place (`member[2]/job`): what
    /// `stored(_:arriving:)` judges rather than drops.
    func completed(_ record: Record, started: Date?, device: DeviceMetadata, clock: Clock,
                   hidden: inout [String: PropertyValue]) -> Record {
        guard let form else { return record }
        // As ODK: every default is in the survey from the start, and only the questions left
        // relevant keep theirs (settling drops the others), so a default that shows a
        // question gives that question its default too.
        var values = record.values
        let before = values
        fillDefaults(in: &values, at: [], clock: clock)
        var result = values == before ? record : Record(values)
        result = settled(result, hidden: &hidden, clock: clock)
        for field in fields {
            guard case .metadata(let kind) = field.kind, !field.key.isEmpty else { continue }
            switch kind {
            case "start": result[field.key] = .string(Self.isoText(started ?? clock.now, clock.timeZone))
            case "end": result[field.key] = .string(Self.isoText(clock.now, clock.timeZone))
            case "today": result[field.key] = .string(LocalDay.text(clock.now, in: clock.timeZone))
            case "deviceid": if !device.deviceID.isEmpty { result[field.key] = .string(device.deviceID) }
            case "username": if !device.username.isEmpty { result[field.key] = .string(device.username) }
            default: break
            }
        }
        if let id = form.formID, !id.isEmpty { result[Self.formIDKey] = .string(id) }
        if let version = form.version, !version.isEmpty { result[Self.formVersionKey] = .string(version) }
        return result
    }

    /// Defaults for this scope's unanswered questions in the instance `steps` lead to, then
    /// in every instance of the repeats inside it.
    func fillDefaults(in values: inout [String: PropertyValue], at steps: [AnswerPath.Step], clock: Clock) {
        guard let here = AnswerTree.instance(values, steps[...]) else { return }
        for (i, field) in fields.enumerated() where field.kind.isAnswered && here[field.key] == nil {
            if let text = defaultText(i, at: steps, values: values, clock: clock), case .success(let value) = field.parse(text) {
                AnswerTree.set(value, field.key, at: steps[...], in: &values)
            }
        }
        guard let outline = outline?.value else { return }
        for (i, field) in fields.enumerated() {
            guard let inner = outline.scopeOfRepeatRow[outline.scopes[scopeNumber].offset + i] else { continue }
            let q = scopeQuestionnaire(number: inner)
            for index in 0..<AnswerTree.count(values, steps[...], field.key) {
                q.fillDefaults(in: &values, at: steps + [AnswerPath.Step(name: field.key, index: index)], clock: clock)
            }
        }
    }

    static func isoText(_ date: Date, _ zone: TimeZoneRule) -> String { LocalDay.dateTimeText(date, in: zone) }
}
