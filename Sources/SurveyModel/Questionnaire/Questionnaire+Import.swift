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
    }

    /// Per record: each questionnaire field goes through `FieldSpec.imported` (strings read
    /// as typed text); keys the questionnaire does not know are kept as they are, but
    /// refused when a key or string in them holds a character XML cannot carry (saving
    /// would silently turn it into U+FFFD); a record whose fields are all empty is refused,
    /// as the form's Add refuses an empty form; an `instanceID` that is not text is refused
    /// (an empty one means none: `append` gives one).
    ///
    /// With a designer's form, a record that is not empty then passes the form's own gate
    /// (`formProblems`): `required` and `constraint` with the designer's messages for the
    /// questions `relevant` leaves on, an answer to a question the form skips for this
    /// survey, a choice its `choice_filter` does not offer. Problems of one record come in
    /// form order. A record without `formID` or `formVersion` is stamped with the form's.
    /// Calculations, metadata and questions not collected here are kept as the file has
    /// them (text trimmed as typed text is), never judged: they are not answers a person
    /// gave.
    ///
    /// `places` says where each record was in its file (the CSV row); without it, records
    /// are numbered from 1 (`record 2`).
    public func checkImport(_ records: [Record], places: [ImportPlace]? = nil, clock: Clock = Clock()) -> ImportCheck {
        var checked: [Record] = []
        var problems: [ImportProblem] = []
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
                    // A calculation or metadata written by another tool: kept, strings trimmed.
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
            var result = Record(values)
            // A survey whose answers are all in a roster is not blank.
            let isBlank = result.isBlank(in: self) && tree.allSatisfy { $0.kind != .repeat || result.instanceCount(of: $0.name) == 0 }
            if form != nil, !isBlank {
                let refused = Set(fieldProblems.map(\.index))
                for (i, message) in formProblems(in: result, clock: clock) where !refused.contains(i) {
                    let key = fields[i].key
                    fieldProblems.append((i, ImportProblem(place, field: key, value: record[key], reason: message)))
                }
                // Each roster member's answers, judged as the form judges them, after the
                // survey's own (at the repeat's row, named by path: `member[2]/age`).
                for problem in repeatProblems(in: result, clock: clock) {
                    let at = problem.path.steps.first.flatMap { step in fields.firstIndex { $0.key == step.name } } ?? fields.count
                    fieldProblems.append((at, ImportProblem(place, field: problem.path.description, value: result.value(at: problem.path),
                                                            reason: problem.message)))
                }
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
            // A row keyed with another form (its own formID) is not given this form's version.
            if let form, result[Self.formIDKey] == nil || result[Self.formIDKey] == form.formID.map(PropertyValue.string) {
                if result[Self.formIDKey] == nil, let id = form.formID, !id.isEmpty {
                    result[Self.formIDKey] = .string(id)
                }
                if result[Self.formVersionKey] == nil, let version = form.version, !version.isEmpty {
                    result[Self.formVersionKey] = .string(version)
                }
            }
            checked.append(result)
        }
        return ImportCheck(records: checked, problems: problems)
    }

    /// The form's gate for a whole record whose answers are already stored values: every
    /// problem `problems(in:)` finds (type, `required`, `constraint`, for relevant
    /// questions), an answer to a question `relevant` skips for this survey (ODK would never
    /// have stored it; it is refused rather than dropped, so no answer in a file is lost
    /// unseen). A choice `choice_filter` does not offer is among `problems(in:)`. In form
    /// order; empty for the original five.
    public func formProblems(in record: Record, clock: Clock = Clock()) -> [(index: Int, message: String)] {
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
