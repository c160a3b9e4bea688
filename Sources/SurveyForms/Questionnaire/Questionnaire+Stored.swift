import FoundationEssentials
import SurveyValues

/// A survey as it is stored, however it arrives: keyed on the form ([ Add ], `survey add`) or
/// read from a file (`survey import`). One order for all, as ODK's: members that hold no
/// answer are left out, the form computes what it computes (calculations, the members
/// `repeat_count` asks for; defaults and metadata when keyed), and only then is the survey
/// judged, so a constraint reading a calculation (`. <= ${lim}`) reads the form's value, never
/// an empty one or one a file made up.
///
/// A value the input gives for a calculation is not used: the form's replaces it. It is
/// still what `.` reads, so `once(…)` keeps it, as Collect keeps a `once()` value when a
/// saved form is opened again.
extension Questionnaire {
    /// How a survey reaches the document.
    public enum Arrival: Equatable, Sendable {
        /// Keyed now: the form's defaults fill unanswered questions and the metadata the
        /// form asks for (`start`, `end`, `today`, `deviceid`, `username`) are stamped now.
        case keyed(started: Date?, device: DeviceMetadata)
        /// Read from a file: it was keyed elsewhere, so its metadata are the file's and no
        /// default is added to a question it left empty.
        case imported
    }

    /// One reason a survey cannot be stored.
    public struct StoredProblem: Equatable, Sendable {
        /// The top-level row it is under (a roster's row for anything inside a member).
        public let index: Int
        /// Where it is in the stored survey: an answer, or a whole member (`path.name` is then
        /// the roster's name and `member` its place).
        public let path: AnswerPath
        public let member: Int?
        /// Where it was in the input, as ODK names it (`member[2]/age`, `member[3]`): the
        /// same as `path` unless a member before it, holding no answer, was left out.
        public let place: String
        /// The answer at fault as judged (nil for a whole member, or none).
        public let value: PropertyValue?
        public let message: String
        /// What only a complete survey must have: a `required` answer not given, a member
        /// holding no answer. An incomplete survey (`Record.isIncomplete`) is stored without
        /// them; every other problem (a type, a constraint, an answer the form skips) refuses
        /// it as it refuses any survey, so no wrong answer is stored.
        public var missing = false
    }

    public struct StoredSurvey: Equatable, Sendable {
        /// What is stored when `problems` is empty.
        public var record: Record
        /// In form order, a roster's after the questions before it.
        public var problems: [StoredProblem] = []
        /// Calculations the input gave a value the form does not compute: their names, once.
        public var ignoredCalculations: [String] = []
        /// Members that held no answer and nothing else, left out: where each was in the
        /// input (`member[2]`).
        public var droppedMembers: [String] = []

        /// The problems as `problems(in:)` words them for the form's [ Add ] (a member's led
        /// by its path), so the two can be compared.
        public var formProblems: [Problem] {
            problems.map { problem in
                let whole = problem.member != nil || !problem.path.steps.isEmpty
                return (problem.index, whole ? "\(problem.place): \(problem.message)" : problem.message, problem.path)
            }
        }
    }

    /// `record` as it will be stored (see the extension's comment), and every reason it
    /// cannot be: each relevant question's type, `required`, `constraint` and `choice_filter`,
    /// in the survey and in every member; an answer to a question the form skips for this
    /// survey (refused, never dropped: no answer in a file is lost unseen); a member that
    /// holds no answer where `repeat_count` asks for it, or holding only keys the form does
    /// not ask. Without a designer's form the record is stored as it is.
    public func stored(_ record: Record, arriving arrival: Arrival, clock: Clock) -> StoredSurvey {
        guard settles else { return StoredSurvey(record: record) }
        var values = record.values
        var places = MemberPlaces()
        var dropped: [String] = []
        leaveOutEmptyMembers(in: &values, at: [], input: [], places: &places, dropped: &dropped)
        var given: [(steps: [AnswerPath.Step], key: String, text: String)] = []
        collectCalculations(in: values, at: [], into: &given)
        let input = dropped.isEmpty ? record : Record(values)
        var hidden: [String: PropertyValue] = [:]
        var result: Record
        switch arrival {
        case .keyed(let started, let device):
            result = completed(input, started: started, device: device, clock: clock, hidden: &hidden)
        case .imported:
            result = settled(input, hidden: &hidden, clock: clock)
            // A row keyed with another form (its own formID) is not given this form's version.
            if let form, result[Self.formIDKey] == nil || result[Self.formIDKey] == form.formID.map(PropertyValue.string) {
                if result[Self.formIDKey] == nil, let id = form.formID, !id.isEmpty { result[Self.formIDKey] = .string(id) }
                if result[Self.formVersionKey] == nil, let version = form.version, !version.isEmpty {
                    result[Self.formVersionKey] = .string(version)
                }
            }
        }
        let stored = result.values
        var ignored: [String] = []
        for calculation in given where XLSForm.text(of: AnswerTree.value(stored, calculation.steps[...], calculation.key)) != calculation.text {
            if !ignored.contains(calculation.key) { ignored.append(calculation.key) }
        }
        // Judged with the answers the form hides (a roster it skips, whole) put back where
        // they were, so each is refused.
        var judged = stored
        var restored: [AnswerPath] = []
        for (place, value) in hidden.sorted(by: { $0.key < $1.key }) {
            guard let path = AnswerPath(place: place), holdsSomething(value, at: path),
                  AnswerTree.set(value, path.name, at: path.steps[...], in: &judged) else { continue }
            restored.append(path)
        }
        var problems = storedProblems(in: judged, restored: restored, places: places, clock: clock)
        // Kept before it passed the form's rules: only completeness is waived.
        if record.isIncomplete { problems.removeAll(where: \.missing) }
        return StoredSurvey(record: result, problems: problems, ignoredCalculations: ignored, droppedMembers: dropped)
    }

    /// Every reason `judged` (the survey as stored, with the answers the form hides put back
    /// at `restored`) cannot be stored, in form order.
    private func storedProblems(in judged: [String: PropertyValue], restored: [AnswerPath], places: MemberPlaces,
                                clock: Clock) -> [StoredProblem] {
        var found: [StoredProblem] = []
        func row(_ path: AnswerPath) -> Int {
            let top = path.steps.first?.name ?? path.name
            return fields.firstIndex { $0.key == top } ?? fields.count
        }
        func add(_ path: AnswerPath, member: Int? = nil, restored: Bool = false, _ message: String) {
            let place = member.map { MemberPlaces.text(places.input(path.steps + [AnswerPath.Step(name: path.name, index: $0)])) }
                ?? AnswerPath(places.input(path.steps), path.name).description
            // An answer is quoted; a roster or a member is named by its place alone.
            var value = member == nil ? AnswerTree.value(judged, path.steps[...], path.name) : nil
            // Nothing given where the form wants something (`required`; an empty member).
            let missing = !restored && (member != nil || value.map { if case .array = $0 { false } else { XLSForm.text(of: $0).isEmpty } } ?? true)
            if case .array? = value { value = nil }
            found.append(StoredProblem(index: row(path), path: path, member: member, place: place, value: value, message: message,
                                       missing: missing))
        }
        let shown = relevance(of: judged, at: [], clock: clock)
        for problem in problems(of: judged, at: [], shown: shown, clock: clock) {
            add(AnswerPath(fields[problem.index].key), problem.message)
        }
        var inside: [(path: AnswerPath, message: String)] = []
        collectRepeatProblems(in: judged, parent: [], shown: shown, clock: clock, into: &inside)
        for problem in inside { add(problem.path, problem.message) }
        for path in restored where !found.contains(where: { $0.path == path && $0.member == nil }) {
            let roster = scopeQuestionnaire(path.steps).fields.firstIndex { $0.key == path.name }
                .flatMap { scopeQuestionnaire(path.steps).repeatAtRow(FieldIndex($0)) } != nil
            add(path, restored: true, "\(label(at: path)) is not asked in this survey (the form's relevant rule skips it): "
                + (roster ? "leave its members out" : "leave it empty"))
        }
        func inRestoredRoster(_ steps: [AnswerPath.Step]) -> Bool {
            restored.contains { r in steps.count > r.steps.count && steps[r.steps.count].name == r.name && steps.starts(with: r.steps) }
        }
        var empty: [(steps: [AnswerPath.Step], reason: String)] = []
        collectEmptyMembers(in: judged, at: [], clock: clock, into: &empty)
        for member in empty {
            let steps = member.steps
            // Its required questions already say what it lacks; a roster the form skips is
            // refused whole.
            guard !found.contains(where: { $0.path.steps.starts(with: steps) }), !inRestoredRoster(steps),
                  let last = steps.last else { continue }
            add(AnswerPath(Array(steps.dropLast()), last.name), member: last.index, member.reason)
        }
        // In form order: a roster's members right after the questions before it, member by
        // member, each question's problems in the order found (its type's before its rule's).
        let keys = found.map(formOrder)
        return found.indices.sorted { a, b in
            keys[a] != keys[b] ? keys[a].lexicographicallyPrecedes(keys[b]) : a < b
        }.map { found[$0] }
    }

    /// Where a problem is in the form's order: each step's row in its scope and the
    /// member's place, then the question's row (none for a whole member, which so comes
    /// before what is inside it).
    private func formOrder(_ problem: StoredProblem) -> [Int] {
        var steps = problem.path.steps
        if let member = problem.member { steps.append(AnswerPath.Step(name: problem.path.name, index: member)) }
        var key: [Int] = []
        var scope = self
        for (i, step) in steps.enumerated() {
            key += [scope.fields.firstIndex { $0.key == step.name } ?? scope.fields.count, step.index]
            scope = scopeQuestionnaire(Array(steps.prefix(i + 1)))
        }
        if problem.member == nil { key.append(scope.fields.firstIndex { $0.key == problem.path.name } ?? scope.fields.count) }
        return key
    }

    /// Whether `value`, put aside from `path`, is something given that storing would lose: an
    /// answer that is not blank, or a roster with a member holding an answer or anything else.
    private func holdsSomething(_ value: PropertyValue, at path: AnswerPath) -> Bool {
        let scope = scopeQuestionnaire(path.steps)
        guard let i = scope.fields.firstIndex(where: { $0.key == path.name }) else { return false }
        guard let node = scope.repeatAtRow(FieldIndex(i)) else {
            return scope.fields[i].holdsAnswer(value)
        }
        guard case .array(let items) = value else { return true }
        let inner = scope.instanceQuestionnaire(for: node)
        return items.contains { item in
            guard case .dictionary(let member) = item else { return true }
            return inner.holdsAnswers(member) || !inner.holdsNothingElse(member)
        }
    }

    /// The label of the question (or roster) `path` names, else its name.
    private func label(at path: AnswerPath) -> String {
        let field = scopeQuestionnaire(path.steps).fields.first { $0.key == path.name }
        return field.map { $0.label.isEmpty ? $0.key : $0.label } ?? path.name
    }

    /// Takes out of this scope's rosters (in the instance `steps` lead to, which was at
    /// `input` in the input) each member holding no answer and nothing else (blanks, values
    /// the form computes, a member id), where no `repeat_count` asks for it; then the same
    /// inside each member kept. Where each was goes to `dropped`, where each kept member was
    /// to `places`. Only the form's repeats are walked: the depth is the form's.
    private func leaveOutEmptyMembers(in values: inout [String: PropertyValue], at steps: [AnswerPath.Step],
                                      input: [AnswerPath.Step], places: inout MemberPlaces, dropped: inout [String]) {
        guard let outline = outline?.value else { return }
        let offset = outline.scopes[scopeNumber].offset
        for (i, field) in fields.enumerated() {
            guard let number = outline.scopeOfRepeatRow[offset + i],
                  case .array(let items)? = AnswerTree.value(values, steps[...], field.key) else { continue }
            let inner = scopeQuestionnaire(number: number)
            let counted = outline.scopes[number].node?.question?.repeatCount != nil
            var kept: [PropertyValue] = []
            var from: [Int] = []
            for (k, item) in items.enumerated() {
                if !counted, case .dictionary(let member) = item, !inner.holdsAnswers(member), inner.holdsNothingElse(member) {
                    dropped.append(MemberPlaces.text(input + [AnswerPath.Step(name: field.key, index: k)]))
                    continue
                }
                kept.append(item)
                from.append(k)
            }
            if kept.count != items.count {
                AnswerTree.set(.array(kept), field.key, at: steps[...], in: &values)
                places.kept[steps, default: [:]][field.key] = from
            }
            for (k, item) in kept.enumerated() {
                guard case .dictionary = item else { continue }
                inner.leaveOutEmptyMembers(in: &values, at: steps + [AnswerPath.Step(name: field.key, index: k)],
                                           input: input + [AnswerPath.Step(name: field.key, index: from[k])],
                                           places: &places, dropped: &dropped)
            }
        }
    }

    /// True when every value of `member` is blank, one the form computes (a calculation,
    /// metadata), or a member's own id: nothing a person gave is lost by leaving it out.
    private func holdsNothingElse(_ member: [String: PropertyValue]) -> Bool {
        member.allSatisfy { key, value in
            if AnswerMerge.memberIDKeys.contains(key) { return true }
            guard let i = fields.firstIndex(where: { $0.key == key }) else { return false }
            if let node = repeatAtRow(FieldIndex(i)) {
                // A roster inside (holding no answer, as `holdsAnswers` said): nothing else in
                // its members either.
                guard case .array(let items) = value else { return false }
                let inner = instanceQuestionnaire(for: node)
                return items.allSatisfy { if case .dictionary(let answers) = $0 { inner.holdsNothingElse(answers) } else { false } }
            }
            return !fields[i].holdsAnswer(value)
        }
    }

    /// The value the input gives each calculation, in every instance of this scope's rosters.
    private func collectCalculations(in values: [String: PropertyValue], at steps: [AnswerPath.Step],
                                     into found: inout [(steps: [AnswerPath.Step], key: String, text: String)]) {
        guard let outline = outline?.value, let here = AnswerTree.instance(values, steps[...]) else { return }
        let offset = outline.scopes[scopeNumber].offset
        for (i, field) in fields.enumerated() {
            if field.kind == .calculated, let value = here[field.key] {
                found.append((steps, field.key, XLSForm.text(of: value)))
            }
            guard let number = outline.scopeOfRepeatRow[offset + i] else { continue }
            let inner = scopeQuestionnaire(number: number)
            for k in 0..<AnswerTree.count(values, steps[...], field.key) {
                inner.collectCalculations(in: values, at: steps + [AnswerPath.Step(name: field.key, index: k)], into: &found)
            }
        }
    }

    /// The members of `record` that hold no answer and cannot be stored so (`repeat_count`
    /// asks for them, or they hold only keys the form does not ask), each as `member[2]: why`:
    /// what [ Add ] refuses as `survey add` does, so whatever the app stores, `survey import`
    /// takes back.
    public func emptyMemberProblems(in record: Record, clock: Clock) -> [String] {
        var found: [(steps: [AnswerPath.Step], reason: String)] = []
        collectEmptyMembers(in: record.values, at: [], clock: clock, into: &found)
        return found.map { "\(MemberPlaces.text($0.steps)): \($0.reason)" }
    }

    /// The members holding no answer, in every roster of this scope's instance at `steps`
    /// (left there because `repeat_count` asks for them, or because they hold keys the form
    /// does not ask), each with why it cannot be stored.
    private func collectEmptyMembers(in values: [String: PropertyValue], at steps: [AnswerPath.Step], clock: Clock,
                                     into found: inout [(steps: [AnswerPath.Step], reason: String)]) {
        guard let outline = outline?.value else { return }
        let offset = outline.scopes[scopeNumber].offset
        for (i, field) in fields.enumerated() {
            guard let number = outline.scopeOfRepeatRow[offset + i],
                  case .array(let items)? = AnswerTree.value(values, steps[...], field.key) else { continue }
            let inner = scopeQuestionnaire(number: number)
            let node = outline.scopes[number].node
            let counted = node?.question?.repeatCount != nil
            let asked = node.flatMap { repeatCountAsked(of: $0, values: values, parent: steps, clock: clock) }
            for (k, item) in items.enumerated() {
                guard case .dictionary(let member) = item else { continue }
                let here = steps + [AnswerPath.Step(name: field.key, index: k)]
                if inner.holdsAnswers(member) {
                    inner.collectEmptyMembers(in: values, at: here, clock: clock, into: &found)
                } else if counted {
                    // One beyond the count is the roster's problem (`repeatCountProblems`).
                    guard let asked, asked <= Double(Self.repeatCountLimit), Double(k) < asked else { continue }
                    found.append((here, "holds no answer; the form's repeat_count asks for \(Int(asked))"))
                } else {
                    found.append((here, "holds no answer to the form's questions"))
                }
            }
        }
    }
}

/// Where each member kept was in the input, for the rosters a member was left out of: by the
/// roster's parent instance (its steps as stored) and name, the input's place of each member.
private struct MemberPlaces {
    var kept: [[AnswerPath.Step]: [String: [Int]]] = [:]

    /// A member's place as ODK names it: `member[2]`, `member[2]/job[1]`.
    static func text(_ steps: [AnswerPath.Step]) -> String {
        steps.map { "\($0.name)[\($0.index + 1)]" }.joined(separator: "/")
    }

    /// Steps into the stored survey as they were in the input.
    func input(_ steps: [AnswerPath.Step]) -> [AnswerPath.Step] {
        guard !kept.isEmpty else { return steps }
        var result: [AnswerPath.Step] = []
        for (i, step) in steps.enumerated() {
            var index = step.index
            if let from = kept[Array(steps.prefix(i))]?[step.name], from.indices.contains(index) { index = from[index] }
            result.append(AnswerPath.Step(name: step.name, index: index))
        }
        return result
    }
}

extension AnswerPath {
    /// A place as `description` prints it (`member[2]/job[1]/title`, `age`); nil for text no
    /// path prints as. Read without recursion, one part at a time.
    init?(place: String) {
        var parts = place.split(separator: "/", omittingEmptySubsequences: false)
        guard let last = parts.popLast(), !last.isEmpty, !last.contains("[") else { return nil }
        var steps: [Step] = []
        for part in parts {
            guard part.last == "]", let open = part.firstIndex(of: "["), open > part.startIndex,
                  let number = Int(part[part.index(after: open)..<part.index(before: part.endIndex)]), number >= 1 else { return nil }
            steps.append(Step(name: String(part[..<open]), index: number - 1))
        }
        self.init(steps, String(last))
    }
}
