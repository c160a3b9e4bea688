import FoundationEssentials
import SurveyValues

/// A document as ODK's CSV set (`ODKTables` says which files and columns): what ODK
/// Central's and ODK Briefcase's exports look like, so the R and Stata tools written for
/// them (ruODK, odkmeta) and any script that joins `PARENT_KEY` to `KEY` read survey's too.
/// Answers are written as the form shows them, as in the plain CSV export; a roster the form
/// does not have gets its table (`ODKTables`), and a cell a spreadsheet would run as a
/// formula begins with `'` unless `raw` (`SpreadsheetFormula`).
extension SurveyDocument {
    /// Each file of the set, named, with its text (RFC 4180, CRLF, as `CSV.text`). Throws
    /// `UncarriedAnswer` for a list or dictionary that is no roster (a cell cannot hold it).
    public func odkCSVFiles(questionnaire: Questionnaire, formID: String, groupNames: Bool = false, raw: Bool = false)
        throws -> [(name: String, text: String)] {
        let records = Array(self.records)
        let layout = ODKTables(questionnaire: questionnaire, formID: formID, groupNames: groupNames, records: records)
        var rows = layout.tables.map { [$0.header.map { raw ? $0 : SpreadsheetFormula.escaped($0) }] }
        var tableIndex: [[String]: Int] = [:]
        for (i, table) in layout.tables.enumerated() where !table.chain.isEmpty { tableIndex[table.chain] = i }
        /// The rows of the instances of each repeat inside `answers`, then theirs.
        func addInstances(of answers: [String: PropertyValue], scope: ODKTables.Table, key: String, path: String) throws {
            for column in scope.columns {
                guard case .setOf(let name) = column.kind, case .array(let items)? = answers[name],
                      let index = tableIndex[scope.chain + [name]] else { continue }
                let table = layout.tables[index]
                let element = FormNode.element(name)   // groups are never part of a key
                var place = 0
                for case .dictionary(let instance) in items {
                    place += 1
                    let own = "\(key)/\(element)[\(place)]"
                    let inside = "\(path)\(name)[\(place)]/"
                    rows[index].append(try Self.odkCells(instance, table: table, key: own, parentKey: key,
                                                         set: "\(key)/\(element)", path: inside, raw: raw))
                    try addInstances(of: instance, scope: table, key: own, path: inside)
                }
            }
        }
        let main = layout.tables[0]
        for record in records {
            let key = record.instanceID ?? Record.newInstanceID()
            let answers = record.values
            rows[0].append(try Self.odkCells(answers, table: main, key: key, parentKey: "", set: "", path: "", raw: raw))
            try addInstances(of: answers, scope: main, key: key, path: "")
        }
        return zip(layout.tables, rows).map { ($0.fileName, CSV.text($1)) }
    }

    /// One row's cells: answers as the form shows them, the keys as ODK writes them. `path`
    /// says where the row is (`member[2]/`), for the message when a cell cannot hold a value.
    static func odkCells(_ answers: [String: PropertyValue], table: ODKTables.Table, key: String,
                         parentKey: String, set: String, path: String, raw: Bool) throws -> [String] {
        try zip(table.columns, table.fields).map { column, field in
            let text: String
            switch column.kind {
            case .answer(let name), .other(let name):
                if let value = answers[name], UncarriedAnswer.isNested(value) {
                    throw UncarriedAnswer(path: path + name, reason: .nested, format: "ODK's CSV set")
                }
                text = field?.displayText(answers[name]) ?? answers[name].map(FieldSpec.describe) ?? ""
            case .setOf(let name): text = "\(key)/\(name)"
            case .submissionDate: text = answers[ODKTables.submissionDateKey].map(FieldSpec.describe) ?? ""
            case .instanceID, .key: text = key
            case .parentKey: text = parentKey
            case .ownSet: text = set
            }
            return raw ? text : SpreadsheetFormula.escaped(text)
        }
    }
}
