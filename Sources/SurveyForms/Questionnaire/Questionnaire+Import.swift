import SurveyValues
/// The one gate every imported or scripted record passes (CSV, JSON, plist, `survey add`),
/// so a record that reaches a document from the command line obeys exactly what the form
/// enforces and a whole import can be judged before anything is written.
extension Questionnaire {
    /// Records as they will be stored, and every problem found, in file order (fields in
    /// questionnaire order, then unknown keys sorted). Nothing should be written unless
    /// `problems` is empty.
    public struct ImportCheck: Equatable, Sendable {
        public let records: [Record]
        public let problems: [ImportProblem]
        /// Calculations some record gave a value the form does not compute (the form's is
        /// stored): their names, once each, in the order first met.
        public var ignoredCalculations: [String] = []
        /// Members that held no answer and were left out, each where it was
        /// (`record 2: member[3]`, no reason).
        public var droppedMembers: [ImportProblem] = []
    }

    /// Per record: each questionnaire field goes through `FieldSpec.imported` (strings read
    /// as typed text); the `incomplete` mark is read as `Record.incompleteMark` reads it (an
    /// incomplete survey is judged without what only a complete one must have); keys the
    /// questionnaire does not know are kept as they are, but
    /// refused when a key or string in them holds a character XML cannot carry (saving
    /// would silently turn it into U+FFFD); a record that holds no answer (its members' count)
    /// is refused, as the form's Add refuses an empty form; an `instanceID` that is not text
    /// is refused (an empty one means none: `append` gives one).
    ///
    /// With a designer's form, a record that is not empty is then made what it will be
    /// stored as and judged as the form judges it: `stored(_:arriving:)`, the one order the
    /// form's [ Add ], `survey add` and imports share. Its calculations are the form's (a
    /// value the file gives for one is ignored, and named in `ignoredCalculations`), members
    /// holding no answer are left out where no `repeat_count` asks for them
    /// (`droppedMembers`), and then `required`, `constraint` and `choice_filter` apply with
    /// the designer's messages for the questions `relevant` leaves on, in the survey and in
    /// every member; an answer to a question the form skips for this survey is refused.
    /// Problems of one record come in form order. Imported (`arrival` `.imported`), a record
    /// keeps the metadata the file gives and gets no defaults, and one without `formID` or
    /// `formVersion` is stamped with the form's; keyed (`survey add`), it is completed as
    /// [ Add ] completes it.
    ///
    /// `places` says where each record was in its file (the CSV row); without it, records
    /// are numbered from 1 (`record 2`).
    public func checkImport(_ records: [Record], places: [ImportPlace]? = nil, arriving arrival: Arrival = .imported,
                            clock: Clock) -> ImportCheck {
        var checked: [Record] = []
        var problems: [ImportProblem] = []
        var ignored: [String] = []
        var dropped: [ImportProblem] = []
        // The fields a record holds values for, by their index in `fields`.
        var answerKeys: Set<String> = []
        let answerIndices = recordFields.compactMap { field in
            answerKeys.insert(field.key)
            return fields.firstIndex { $0.key == field.key }
        }
        for (index, record) in records.enumerated() {
            let place = places.map { $0[index] } ?? .record(index + 1)
            var values = record.values
            var fieldProblems: [(index: Int, problem: ImportProblem)] = []
            for i in answerIndices {
                let field = fields[i]
                guard let value = values[field.key] else { continue }
                if !field.kind.isAnswered {
                    // Metadata written by another tool: kept, strings trimmed. (A
                    // calculation's is replaced by the form's.)
                    if case .string(let text) = value, case .success(let stored) = field.parse(text) {
                        values[field.key] = stored
                    }
                    continue
                }
                switch field.imported(value) {
                case .success(let stored):
                    values[field.key] = stored
                case .failure(let error):
                    fieldProblems.append((i, ImportProblem(place, field: field.key, value: value, reason: error.message)))
                }
            }
            // The incomplete mark as the file gives it (`true` in a CSV cell): stored as the
            // app stores it, so `stored` waives only what an incomplete survey may lack.
            switch Record.incompleteMark(from: values[Record.incompleteKey]) {
            case true?: values[Record.incompleteKey] = .bool(true)
            case false?: values.removeValue(forKey: Record.incompleteKey)
            case nil:
                fieldProblems.append((fields.count, ImportProblem(place, field: Record.incompleteKey, value: values[Record.incompleteKey],
                                                                  reason: "incomplete is true (a survey kept before it passed the form's rules) or empty")))
            }
            var result = Record(values)
            // A survey whose only answers are in a roster is not blank; one holding only
            // members without answers is.
            let isBlank = result.isBlank(in: self)
            if form != nil, !isBlank {
                let survey = stored(result, arriving: arrival, clock: clock)
                result = survey.record
                let refused = Set(fieldProblems.map(\.index))
                for problem in survey.problems {
                    // A top-level answer is quoted as the file gives it (a roster is named
                    // alone); one a type problem refused already is not judged again.
                    let topLevel = problem.path.steps.isEmpty && problem.member == nil
                    if topLevel, refused.contains(problem.index) { continue }
                    var value = topLevel ? record[problem.path.name] : problem.value
                    if case .array? = value { value = nil }
                    fieldProblems.append((problem.index, ImportProblem(place, field: problem.place, value: value, reason: problem.message)))
                }
                for name in survey.ignoredCalculations where !ignored.contains(name) { ignored.append(name) }
                dropped += survey.droppedMembers.map { ImportProblem(place, field: $0, reason: "holds no answer") }
            }
            if !fieldProblems.isEmpty {
                // Stable: a field's type problem before its rule problem.
                problems += fieldProblems.enumerated().sorted { ($0.element.index, $0.offset) < ($1.element.index, $1.offset) }
                    .map(\.element.problem)
            }
            switch values[Record.instanceIDKey] {
            case nil, .string?: break
            case let other?:
                // `append` would replace it with a new id, and the value would be lost.
                problems.append(ImportProblem(place, field: Record.instanceIDKey, value: other,
                                              reason: "instanceID must be text (such as uuid:…), or left out"))
            }
            for key in values.keys.sorted() where !answerKeys.contains(key) {
                let value = values[key] ?? .string("")
                if XMLCharacters.forbiddenCount(in: key) > 0 || value.forbiddenCharacterCount > 0 {
                    problems.append(ImportProblem(place, field: key, value: value,
                                                  reason: "\(key) cannot hold control characters"))
                }
            }
            if isBlank {
                problems.append(ImportProblem(place, field: nil, reason: "every answer is empty"))
            }
            checked.append(result)
        }
        return ImportCheck(records: checked, problems: problems, ignoredCalculations: ignored, droppedMembers: dropped)
    }

    /// The form's gate for a whole record whose answers are already stored values: every
    /// problem `problems(in:)` finds (type, `required`, `constraint`, for relevant
    /// questions), an answer to a question `relevant` skips for this survey (ODK would never
    /// have stored it; it is refused rather than dropped, so no answer in a file is lost
    /// unseen). A choice `choice_filter` does not offer is among `problems(in:)`. In form
    /// order; empty for the original five.
    func formProblems(in record: Record, clock: Clock) -> [(index: Int, message: String)] {
        guard form != nil else { return [] }
        var found = topLevelProblems(in: record, clock: clock)
        let flagged = Set(found.map(\.index))
        let shown = relevance(in: record, clock: clock)
        for (i, field) in fields.enumerated() where field.kind.isAnswered && !flagged.contains(i) {
            guard !shown[i], let value = record[field.key], !XLSForm.text(of: value).isEmpty else { continue }
            found.append((i, "\(field.label) is not asked in this survey (the form's relevant rule skips it): leave it empty"))
        }
        return found.enumerated().sorted { ($0.element.index, $0.offset) < ($1.element.index, $1.offset) }.map(\.element)
    }
}
