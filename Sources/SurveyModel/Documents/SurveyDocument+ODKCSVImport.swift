import FoundationEssentials

/// ODK's CSV set read back: the main table (survey's `export --format odk-csv`, ODK
/// Central's or Briefcase's `FORMID.csv`) and its repeat tables, joined into surveys whose
/// rosters are nested as survey keeps them (`Record+Repeats`).
///
/// A repeat table is known by its `KEY`s (`uuid:…/member[2]/job[1]` is an instance of
/// `job` inside `member`; steps without `[n]` are groups, which Central writes into keys and
/// Briefcase leaves out), else by its `SET-OF-…` column, else by its file name
/// (`FORMID-job.csv`); a table with no rows says nothing and is skipped. Each row goes into
/// the instance or survey whose `KEY` its `PARENT_KEY` is, in file order. Headers are read
/// as `ImportHeader` reads them; a repeat's answers are typed by its questions (an age
/// "34" is 34), and a value its question refuses is left as text for
/// `Questionnaire.checkImport` to refuse by its path (`member[2]/age`). A table of a roster
/// the form does not have (an older version's, which survey's export writes as a table of
/// its own) is read as that roster, its cells kept as text under their headers, as the main
/// table keeps a column that names no question.
extension SurveyDocument {
    /// What was read: the surveys with the main table's rows, and every header cell that
    /// named no question, with its file (`household-member.csv: note`).
    public struct ODKSetImport {
        public let rows: [(row: Int, record: Record)]
        public let unmatched: [String]
    }

    /// `main` and `repeats` are (file name, text). Refused as a whole (a `DocumentError`
    /// naming the file): what `csvImport` refuses in the main table; a repeat table without
    /// `KEY` and `PARENT_KEY`, with a row whose `PARENT_KEY` is no row's `KEY`, or a `KEY`
    /// given twice.
    public static func odkSetImport(main: (name: String, text: String), repeats: [(name: String, text: String)],
                                    questionnaire: Questionnaire) throws -> ODKSetImport {
        let mainImport: CSVImport
        do {
            mainImport = try csvImport(main.text, questionnaire: questionnaire)
        } catch let error as DocumentError {
            throw DocumentError("\(main.name): \(error.message)")
        }
        // The main table's KEY column (its rows' ids when it has none).
        let mainKeys = try keyColumn(main.text) ?? mainImport.rows.map { $0.record.instanceID ?? "" }
        var unmatched = mainImport.unmatched.map { "\(main.name): \($0)" }

        var tables: [(name: String, chain: [String], rows: [ParsedRow])] = []
        for file in repeats {
            do {
                guard let table = try parseRepeatTable(file, questionnaire: questionnaire) else { continue }
                unmatched += table.unmatched.map { "\(file.name): \($0)" }
                tables.append((file.name, table.chain, table.rows))
            } catch let error as DocumentError {
                throw DocumentError("\(file.name): \(error.message)")
            }
        }
        // Parents before children: a row's parent is then placed before it is.
        tables.sort { $0.chain.count < $1.chain.count }

        var known = Set(mainKeys)
        var values: [String: [String: PropertyValue]] = [:]
        var children: [String: [(name: String, key: String)]] = [:]
        for table in tables {
            for row in table.rows {
                guard known.contains(row.parentKey) else {
                    throw DocumentError("\(table.name): row \(row.row): its PARENT_KEY “\(row.parentKey)” is the KEY of no row "
                        + "of \(main.name) or of the table of \(table.chain.dropLast().last ?? "the survey")")
                }
                guard known.insert(row.key).inserted else {
                    throw DocumentError("\(table.name): row \(row.row): the KEY “\(row.key)” is given twice")
                }
                values[row.key] = row.values
                children[row.parentKey, default: []].append((table.chain.last ?? "", row.key))
            }
        }
        func nested(_ key: String, into answers: inout [String: PropertyValue]) {
            var lists: [(String, [PropertyValue])] = []
            for child in children[key] ?? [] {
                var inner = values[child.key] ?? [:]
                nested(child.key, into: &inner)
                if let i = lists.firstIndex(where: { $0.0 == child.name }) {
                    lists[i].1.append(.dictionary(inner))
                } else {
                    lists.append((child.name, [.dictionary(inner)]))
                }
            }
            for (name, items) in lists { answers[name] = .array(items) }
        }
        let rows = zip(mainImport.rows, mainKeys).map { row, key in
            var answers = row.record.values
            nested(key, into: &answers)
            return (row: row.row, record: Record(answers))
        }
        return ODKSetImport(rows: rows, unmatched: unmatched)
    }

    struct ParsedRow {
        let row: Int
        let key: String
        let parentKey: String
        let values: [String: PropertyValue]
    }

    /// The `KEY` cells of a table, nil when it has no `KEY` column.
    private static func keyColumn(_ text: String) throws -> [String]? {
        let rows = try CSV.rows(text, separator: CSV.separator(guessedFrom: text)).filter { $0 != [""] }
        guard let header = rows.first, let index = header.firstIndex(where: { $0.trimmingWhitespace() == "KEY" })
        else { return nil }
        return rows.dropFirst().map { index < $0.count ? $0[index].trimmingWhitespace() : "" }
    }

    /// One repeat table's rows, typed by its repeat's questions, and the keys from the survey
    /// down to its rows (`["member", "job"]`); nil for a table with no rows whose repeat
    /// nothing names.
    private static func parseRepeatTable(_ file: (name: String, text: String), questionnaire: Questionnaire) throws
        -> (chain: [String], rows: [ParsedRow], unmatched: [String])? {
        let rows = try CSV.rows(file.text, separator: CSV.separator(guessedFrom: file.text)).enumerated()
            .map { (row: $0.offset + 1, cells: $0.element) }
            .filter { $0.cells != [""] }
        guard let header = rows.first?.cells.map({ SpreadsheetFormula.unescaped($0.trimmingWhitespace()) }) else { return nil }
        guard let keyIndex = header.firstIndex(of: "KEY"), let parentIndex = header.firstIndex(of: "PARENT_KEY") else {
            throw DocumentError("it has no KEY and PARENT_KEY columns, so it is no repeat table of an ODK export")
        }
        let chain: [String]
        if let first = rows.dropFirst().first, keyIndex < first.cells.count {
            chain = repeatChain(of: first.cells[keyIndex])
        } else if let set = header.first(where: { $0.hasPrefix("SET-OF-") }) {
            chain = [String(set.dropFirst("SET-OF-".count))]
        } else {
            return nil
        }
        // Keys and file names hold the repeats' elements (a repeat kept under its group path,
        // `g1/r`, is `r` there).
        let candidates = questionnaire.repeats.filter {
            chain.count == 1 ? $0.element == chain[0] : ($0.repeats + [$0.name]).map(FormNode.element) == chain
        }
        let node = candidates.count == 1 ? candidates[0] : candidates.first(where: { file.name.contains("-\($0.element)") })
        if node == nil, !candidates.isEmpty {
            throw DocumentError("its rows are instances of “\(chain.joined(separator: "/"))”, a name \(candidates.count) repeats "
                + "of the form share, and its file name says which of them by none")
        }
        // A roster the form does not have: no question types its cells (`storedAnswers` of
        // nothing names none), so each is kept as text under its header.
        let scope = node.map(questionnaire.instanceQuestionnaire(for:)) ?? .storedAnswers(of: [])
        let reading = try ImportHeader(header, scope: scope, nodes: node?.children ?? [])
        let fields = reading.columns.map { column -> FieldSpec? in
            if case .value(let key) = column { scope.field(forKey: key) } else { nil }
        }
        let parsed = try rows.dropFirst().map { row, cells in
            guard cells.count == header.count else {
                throw DocumentError("row \(row): \(counted(cells.count, "value")), but the header names \(counted(header.count, "column"))")
            }
            var values: [String: PropertyValue] = [:]
            for (i, cell) in cells.enumerated() {
                guard case .value(let key) = reading.columns[i], !cell.isEmpty else { continue }
                let text = ODKValue.cell(cell, kind: fields[i]?.kind)
                if let field = fields[i], case .success(let stored) = field.parse(text) {
                    values[key] = stored
                } else {
                    values[key] = .string(text)
                }
            }
            let key = cells[keyIndex].trimmingWhitespace()
            let parent = cells[parentIndex].trimmingWhitespace()
            guard !key.isEmpty, !parent.isEmpty else { throw DocumentError("row \(row): its KEY or PARENT_KEY is empty") }
            return ParsedRow(row: row, key: key, parentKey: parent, values: values)
        }
        return (node.map { $0.repeats + [$0.name] } ?? chain, parsed, reading.unmatched)
    }

    /// The repeats an instance's key goes through: `uuid:…/grp/member[2]/job[1]` is
    /// `["member", "job"]` (steps without `[n]` are the id or a group).
    static func repeatChain(of key: String) -> [String] {
        key.split(separator: "/").compactMap { step in
            guard step.hasSuffix("]"), let open = step.lastIndex(of: "[") else { return nil }
            return String(step[..<open])
        }
    }
}
