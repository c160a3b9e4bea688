import SurveyValues
/// An import must not bring a second record with an id the document already has (or two
/// with one id): edits, merges and undo find records by id, and would land on the wrong one.
/// Typically it is the same export imported twice.
extension Questionnaire {
    public func duplicateIDProblems(_ records: [Record], places: [ImportPlace],
                                    existing: SurveyDocument?, documentName: String) -> [ImportProblem] {
        var seen: [String: String] = [:]   // id -> where it already is
        for (index, record) in (existing?.records ?? []).enumerated() {
            if let id = record.instanceID, seen[id] == nil { seen[id] = "record \(index + 1) of “\(documentName)”" }
        }
        var problems: [ImportProblem] = []
        for (record, place) in zip(records, places) {
            guard let id = record.instanceID else { continue }
            if let there = seen[id] {
                problems.append(ImportProblem(place, field: Record.instanceIDKey,
                                              reason: "\(id) is already in \(there) (this survey was imported before)"))
            } else {
                seen[id] = "\(place) of this file"
            }
        }
        return problems
    }
}
