import FoundationEssentials

/// A document as ODK's CSV set (`ODKTables` says which files and columns): what ODK
/// Central's and ODK Briefcase's exports look like, so the R and Stata tools written for
/// them (ruODK, odkmeta) and any script that joins `PARENT_KEY` to `KEY` read survey's too.
/// Answers are written as the form shows them, as in the plain CSV export.
extension SurveyDocument {
    /// Each file of the set, named, with its text (RFC 4180, CRLF, as `CSV.text`).
    public func odkCSVFiles(questionnaire: Questionnaire, formID: String, groupNames: Bool = false)
        -> [(name: String, text: String)] {
        let records = Array(self.records)
        let layout = ODKTables(questionnaire: questionnaire, formID: formID, groupNames: groupNames, records: records)
        var rows = layout.tables.map { [$0.header] }
        var tableIndex: [[String]: Int] = [:]
        for (i, table) in layout.tables.enumerated() {
            if let node = table.node { tableIndex[node.repeats + [node.name]] = i }
        }
        /// The rows of the instances of each repeat inside `answers`, then theirs.
        func addInstances(of answers: [String: PropertyValue], scope: ODKTables.Table, key: String, chain: [String]) {
            for column in scope.columns {
                guard case .setOf(let name) = column.kind, case .array(let items)? = answers[name],
                      let index = tableIndex[chain + [name]] else { continue }
                let table = layout.tables[index]
                let element = FormNode.element(name)   // groups are never part of a key
                var place = 0
                for case .dictionary(let instance) in items {
                    place += 1
                    let own = "\(key)/\(element)[\(place)]"
                    rows[index].append(Self.odkCells(instance, table: table, key: own, parentKey: key, set: "\(key)/\(element)"))
                    addInstances(of: instance, scope: table, key: own, chain: chain + [name])
                }
            }
        }
        let main = layout.tables[0]
        for record in records {
            let key = record.instanceID ?? Record.newInstanceID()
            let answers = record.values
            rows[0].append(Self.odkCells(answers, table: main, key: key, parentKey: "", set: ""))
            addInstances(of: answers, scope: main, key: key, chain: [])
        }
        return zip(layout.tables, rows).map { ($0.fileName, CSV.text($1)) }
    }

    /// One row's cells: answers as the form shows them, the keys as ODK writes them.
    static func odkCells(_ answers: [String: PropertyValue], table: ODKTables.Table, key: String,
                         parentKey: String, set: String) -> [String] {
        zip(table.columns, table.fields).map { column, field in
            switch column.kind {
            case .answer(let name):
                return field?.displayText(answers[name]) ?? answers[name].map(FieldSpec.describe) ?? ""
            case .setOf(let name): return "\(key)/\(name)"
            case .submissionDate: return answers[ODKTables.submissionDateKey].map(FieldSpec.describe) ?? ""
            case .instanceID, .key: return key
            case .parentKey: return parentKey
            case .ownSet: return set
            case .other(let name): return answers[name].map(FieldSpec.describe) ?? ""
            }
        }
    }
}
