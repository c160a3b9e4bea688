import FoundationEssentials

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
        public init(now: Date = Date(), timeZone: TimeZoneRule = .current) {
            self.now = now
            self.timeZone = timeZone
        }
    }

    public static let formIDKey = "formID"
    public static let formVersionKey = "formVersion"

    func context(_ record: Record, current: String, clock: Clock) -> FormContext {
        let values = record.values
        return FormContext(current: .string(current), now: clock.now, timeZone: clock.timeZone) { name in
            .string(XLSForm.text(of: values[name]))
        }
    }

    /// Whether each field is shown for this record: its own `relevant` and every enclosing
    /// group's. One pass, so a frame of a 500-question form costs 500 evaluations at most.
    public func relevance(in record: Record, clock: Clock = Clock()) -> [Bool] {
        guard let form else { return Array(repeating: true, count: fields.count) }
        var result = Array(repeating: true, count: fields.count)
        let ctx = context(record, current: "", clock: clock)
        for i in fields.indices {
            if let outer = enclosingGroups[i].last, !result[outer] {
                result[i] = false
                continue
            }
            if let relevant = form.questions[i].relevant {
                var c = ctx
                c.current = .string(XLSForm.text(of: record[fields[i].key]))
                result[i] = relevant.evaluate(in: c).boolean
            }
        }
        return result
    }

    public func isRelevant(_ index: Int, in record: Record, clock: Clock = Clock()) -> Bool {
        guard form != nil else { return true }
        return relevance(in: record, clock: clock)[index]
    }

    /// The designer's rule for an answer about to be stored in `record`: `required` when it
    /// is empty, `constraint` (with `.` the answer) when it is not. nil when it passes.
    public func ruleProblem(_ index: Int, value: PropertyValue?, in record: Record, clock: Clock = Clock()) -> String? {
        guard let q = question(index) else { return nil }
        var candidate = record
        // Judging what is stored (the whole-survey check, every frame of a stored survey)
        // needs no copy of the record.
        if record[fields[index].key] != value { candidate[fields[index].key] = value }
        let text = XLSForm.text(of: value)
        let ctx = context(candidate, current: text, clock: clock)
        if text.isEmpty {
            if let required = q.required, required.evaluate(in: ctx).boolean {
                return q.requiredMessage ?? "\(fields[index].label) is required"
            }
            return nil
        }
        if case .choice(_, _, let multiple) = fields[index].kind, q.choiceFilter != nil {
            // Only what `choice_filter` offers now: a district of another region is refused.
            let offered = Set(choices(for: index, in: candidate, clock: clock).map(\.name))
            let picked = multiple ? text.split(separator: " ").map(String.init) : [text]
            if let stray = picked.first(where: { !offered.contains($0) }) {
                return "“\(stray)” is not one of the choices of \(fields[index].label)"
            }
        }
        if let constraint = q.constraint, !constraint.evaluate(in: ctx).boolean {
            return q.constraintMessage ?? "\(fields[index].label): the answer is not accepted by the form's rule"
        }
        return nil
    }

    /// Every problem of a record, field by field in form order, for the relevant questions:
    /// a stored value of the wrong type, a required question left empty, a constraint broken.
    /// The gate for [ Add ], `survey add` and imports.
    public func problems(in record: Record, clock: Clock = Clock()) -> [(index: Int, message: String)] {
        guard form != nil else { return [] }
        let shown = relevance(in: record, clock: clock)
        var found: [(Int, String)] = []
        for (i, field) in fields.enumerated() where field.kind.isAnswered && shown[i] {
            let value = record[field.key]
            if let value, !field.accepts(value) {
                if case .failure(let error) = field.imported(value) { found.append((i, error.message)); continue }
            }
            if let message = ruleProblem(i, value: value, in: record, clock: clock) { found.append((i, message)) }
        }
        return found
    }

    /// The record with calculations filled in and answers of hidden questions moved to
    /// `hidden` (kept for this session, not saved, as ODK does), or brought back from there
    /// when their question shows again. Repeated until nothing changes, so chains settle in
    /// any order: a form with a cycle is refused when it is read, so each pass settles at
    /// least one more link of the longest chain and one pass per field always suffices.
    ///
    /// `before` is the survey as it was before the change being settled. An answer is put
    /// aside only when that change hid it (or stopped offering its choice): one the form
    /// already hid or did not offer before (a survey keyed with an older version of the form)
    /// is the respondent's word and stays in the survey, whatever else is edited. nil (a
    /// survey being completed for [ Add ]) puts aside every answer the form hides.
    public func settled(_ record: Record, before: Record? = nil, hidden: inout [String: PropertyValue],
                        clock: Clock = Clock()) -> Record {
        guard let form else { return record }
        // What the survey showed before this change, and whether a value was offered then.
        let wasShown = before.map { relevance(in: $0, clock: clock) } ?? Array(repeating: true, count: fields.count)
        func offeredBefore(_ value: PropertyValue, _ i: Int) -> Bool {
            guard let before else { return true }
            return isOffered(value, i, in: before, clock: clock)
        }
        var current = record
        for _ in 0...fields.count {
            var next = current
            let shownNow = relevance(in: next, clock: clock)
            for (i, field) in fields.enumerated() where field.kind == .calculated {
                guard let calculation = form.questions[i].calculation else { continue }
                // A calculation the form hid before this change keeps what it stored.
                if !shownNow[i], !wasShown[i] { continue }
                let text = calculation.evaluate(in: context(next, current: "", clock: clock)).string
                next[field.key] = text.isEmpty || text == "NaN" ? nil : .string(text)
            }
            let shown = relevance(in: next, clock: clock)
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

    /// The answers a survey holds that this version of the form does not ask of it: questions
    /// it does not have, questions its `relevant` skips for this survey, and choices its
    /// `choice_filter` does not offer. Kept on every save and exported; F4 lists them.
    public func answersNotAsked(in record: Record, clock: Clock = Clock()) -> [String] {
        guard form != nil else { return [] }
        let stored = Set([Record.instanceIDKey, Self.formIDKey, Self.formVersionKey])
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
    public func choices(for index: Int, in record: Record, clock: Clock = Clock()) -> [XLSForm.Choice] {
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
        let base = context(record, current: XLSForm.text(of: record[q.name]), clock: clock)
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
    public func defaultText(_ index: Int, in record: Record = Record(), clock: Clock = Clock()) -> String? {
        guard let question = question(index), let text = question.defaultValue else { return nil }
        guard let expression = question.dynamicDefault else { return text }
        let value = expression.evaluate(in: context(record, current: "", clock: clock)).string
        return value.isEmpty || value == "NaN" ? nil : value
    }

    /// Whether a choice answer is among the choices `choice_filter` offers now (anything
    /// else is not a filtered choice and counts as offered).
    func isOffered(_ value: PropertyValue?, _ index: Int, in record: Record, clock: Clock) -> Bool {
        guard let value, form?.questions[index].choiceFilter != nil, case .choice = fields[index].kind else { return true }
        let offered = Set(choices(for: index, in: record, clock: clock).map(\.name))
        return XLSForm.text(of: value).split(separator: " ").allSatisfy { offered.contains(String($0)) }
    }

    /// A survey as [ Add ] stores it: defaults for questions still unanswered, calculations,
    /// the metadata the form asks for (`start`, `end`, `today`, `deviceid`), and the form's
    /// id and version, so data keyed with different versions can be told apart.
    public func completed(_ record: Record, started: Date? = nil, deviceID: String = "", clock: Clock = Clock()) -> Record {
        guard let form else { return record }
        var result = record
        // As ODK: every default is in the survey from the start, and only the questions left
        // relevant keep theirs (settling drops the others), so a default that shows a
        // question gives that question its default too.
        for (i, field) in fields.enumerated() where field.kind.isAnswered && result[field.key] == nil {
            if let text = defaultText(i, in: result, clock: clock), case .success(let value) = field.parse(text) {
                result[field.key] = value
            }
        }
        var hidden: [String: PropertyValue] = [:]
        result = settled(result, hidden: &hidden, clock: clock)
        for field in fields {
            guard case .metadata(let kind) = field.kind, !field.key.isEmpty else { continue }
            switch kind {
            case "start": result[field.key] = .string(Self.isoText(started ?? clock.now, clock.timeZone))
            case "end": result[field.key] = .string(Self.isoText(clock.now, clock.timeZone))
            case "today": result[field.key] = .string(LocalDay.text(clock.now, in: clock.timeZone))
            case "deviceid": if !deviceID.isEmpty { result[field.key] = .string(deviceID) }
            default: break
            }
        }
        if let id = form.formID, !id.isEmpty { result[Self.formIDKey] = .string(id) }
        if let version = form.version, !version.isEmpty { result[Self.formVersionKey] = .string(version) }
        return result
    }

    static func isoText(_ date: Date, _ zone: TimeZoneRule) -> String { LocalDay.dateTimeText(date, in: zone) }
}
