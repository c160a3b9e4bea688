import SurveyValues
/// Which keys of a record a file of records (CSV, JSON, `survey list`) carries, and in what
/// order: the questionnaire's answers in form order, then `instanceID` (and, with a
/// designer's form, `formID` and `formVersion`), then whatever else the record holds. One
/// place, so export, list, deleted and import agree on what a column is.
extension Questionnaire {
    /// The fields whose values a record holds, in form order: every field of the original
    /// five; of a designer's form the questions a person answers, calculations, metadata
    /// (`start`, `today`…) and questions not collected here (a geopoint keyed elsewhere),
    /// but not notes and groups, which hold no answer.
    public var recordFields: [FieldSpec] {
        guard form != nil else { return fields }
        var seen: Set<String> = []
        return fields.filter { field in
            switch field.kind {
            case .note, .groupStart, .groupEnd: return false
            default: return !field.key.isEmpty && seen.insert(field.key).inserted
            }
        }
    }

    /// The keys after the answers that every exported record has a place for (`null` or an
    /// empty cell when it has none): its id, and with a form the form id and version the
    /// survey was keyed with. The original five keep the original export's shape.
    public var recordIdentityKeys: [String] {
        isOriginalFive ? [Record.instanceIDKey] : Self.identityKeys
    }

    /// What the app writes into every survey of a form itself: its id, and the form's id
    /// and version from the settings.
    public static let identityKeys = [Record.instanceIDKey, formIDKey, formVersionKey]

    /// Names no question may have, because the app writes a key of that name itself: the
    /// identity keys (a question named `instanceID` would make its answer the survey's id,
    /// one named `formID` would have its answer replaced by the settings), `deletedAt`,
    /// the column `survey deleted` writes before a survey's answers, and `incomplete`, the
    /// mark of a survey kept before it passed the form's rules (`Record.isIncomplete`).
    /// Compared without case, as import matches a header to its column.
    /// And `entityBase`, where an update survey keeps the entity it was made from (`EntityBase`).
    public static let reservedKeys = identityKeys + [DeletedRecord.deletedAtKey, Record.incompleteKey, EntityBase.recordKey]

    /// Answers, then identity: the columns every exported record has, in order.
    public var knownRecordKeys: [String] {
        let answers = recordFields.map(\.key)
        return answers + recordIdentityKeys.filter { !answers.contains($0) }
    }

    /// The unknown keys of `records`, sorted: the columns a CSV export adds after the known
    /// ones when the document has a form (the original five's CSV leaves them out).
    public func unknownRecordKeys(in records: [Record]) -> [String] {
        let known = Set(knownRecordKeys)
        var keys: Set<String> = []
        for record in records {
            // An encrypted survey's submission (`Record.Sealed`) is no column: what is
            // readable of it is.
            for key in record.keys where !known.contains(key) && key != EntityBase.recordKey && !Record.Sealed.isSealedKey(key) {
                keys.insert(key)
            }
        }
        return keys.sorted()
    }

    /// The CSV header and cells for `records`: answers as the form shows them, the identity
    /// keys and, with a form, every unknown key any record holds (as text; JSON is the
    /// lossless copy). A cell a spreadsheet would run as a formula begins with `'`
    /// (`SpreadsheetFormula`) unless `raw`.
    public func csvTable(_ records: [Record], raw: Bool = false) -> (header: [String], rows: [[String]]) {
        let columns = csvColumns(unknownKeys: isOriginalFive ? [] : unknownRecordKeys(in: records), raw: raw)
        return (columns.header, records.map(columns.cells))
    }

    /// The CSV columns when the records' unknown keys are known: with a form, every record's
    /// (`unknownRecordKeys(in:)`); the original five have no column for them.
    package func csvColumns(unknownKeys: [String], raw: Bool = false) -> CSVColumns {
        let fields = recordFields
        let fieldKeys = Set(fields.map(\.key))
        return CSVColumns(fields: fields, others: recordIdentityKeys.filter { !fieldKeys.contains($0) } + unknownKeys, raw: raw)
    }
}

/// A CSV export's columns: the questionnaire's answers as the form shows them, then other
/// keys (the identity keys, and with a form every unknown key) as text; each cell (the
/// header's too) escaped as `SpreadsheetFormula` says, unless `raw`.
package struct CSVColumns {
    let fields: [FieldSpec]
    let others: [String]
    var raw = false

    package var header: [String] { (fields.map(\.key) + others).map(cell) }

    package func cells(_ record: Record) -> [String] {
        (fields.map { record.text(for: $0) } + others.map { key in
            key == Record.instanceIDKey ? record.instanceID ?? "" : record[key].map(FieldSpec.describe) ?? ""
        }).map(cell)
    }

    private func cell(_ text: String) -> String { raw ? text : SpreadsheetFormula.escaped(text) }
}
