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
    /// `places` says where each record was in its file (the CSV row); without it, records
    /// are numbered from 1 (`record 2`).
    public func checkImport(_ records: [Record], places: [ImportPlace]? = nil) -> ImportCheck {
        var checked: [Record] = []
        var problems: [ImportProblem] = []
        for (index, record) in records.enumerated() {
            let place = places.map { $0[index] } ?? .record(index + 1)
            var values = record.values
            for field in fields {
                guard let value = values[field.key] else { continue }
                switch field.imported(value) {
                case .success(let stored):
                    values[field.key] = stored
                case .failure(let error):
                    problems.append(ImportProblem(place, field: field.key, value: value, reason: error.message))
                }
            }
            switch values[Record.instanceIDKey] {
            case nil, .string?: break
            case let other?:
                // `append` would replace it with a new id, and the value would be lost.
                problems.append(ImportProblem(place, field: Record.instanceIDKey, value: other,
                                              reason: "instanceID must be text (such as uuid:…), or left out"))
            }
            for key in values.keys.sorted() where field(forKey: key) == nil {
                let value = values[key] ?? .string("")
                if XMLCharacters.forbiddenCount(in: key) > 0 || value.forbiddenCharacterCount > 0 {
                    problems.append(ImportProblem(place, field: key, value: value,
                                                  reason: "\(key) cannot hold control characters"))
                }
            }
            let result = Record(values)
            if result.isBlank(in: self) {
                problems.append(ImportProblem(place, field: nil, reason: "every answer is empty"))
            }
            checked.append(result)
        }
        return ImportCheck(records: checked, problems: problems)
    }
}
