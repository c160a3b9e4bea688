/// After a save that replaced characters XML cannot hold, the app applies the same
/// replacement in memory, so the notice about it is shown once, not on every save.
extension SurveyDocument {
    public mutating func replaceForbiddenCharacters() {
        guard forbiddenCharacterCount > 0 else { return }
        records = RecordList(records.map { record in
            guard case .dictionary(let values) = PropertyValue.dictionary(record.values).replacingForbiddenCharacters()
            else { return record }
            return Record(values)
        })
    }
}
