import FoundationEssentials
import SurveyValues

/// ODK's CSV set read back: the main table (survey's `export --format odk-csv`, ODK
/// Central's or Briefcase's `FORMID.csv`) and its repeat tables, joined into surveys whose
/// rosters are nested as survey keeps them (`Record+Repeats`).
///
/// A repeat table is known by its `KEY`s (`uuid:…/member[2]/job[1]` is an instance of
/// `job` inside `member`; steps without `[n]` are groups, which Central writes into keys and
/// Briefcase leaves out), else by its `SET-OF-…` column, else by its file name
/// (`FORMID-job.csv`); a table with no rows and no such name says nothing and is skipped. Each row goes into
/// the instance or survey whose `KEY` its `PARENT_KEY` is, at the place the `[n]` that ends
/// its `KEY` gives (not the file's order, which a spreadsheet's sort changes). Headers are read
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
    /// naming the file and the row): what `csvImport` refuses in the main table; a repeat of
    /// the form without its table (ODK's exports write one for every repeat, empty or not:
    /// the surveys would be imported without their rosters); a repeat table without `KEY`
    /// and `PARENT_KEY`; a row whose `PARENT_KEY` is
    /// the `KEY` of no row of its parent's table, whose `KEY` is not inside its `PARENT_KEY`
    /// or does not end in `[n]` with n a whole number from 1, a `KEY` given twice, or two
    /// rows at the same place.
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

        var tables: [(name: String, node: FormNode?, chain: [String], rows: [ParsedRow])] = []
        for file in repeats {
            do {
                guard let table = try parseRepeatTable(file, questionnaire: questionnaire) else { continue }
                unmatched += table.unmatched.map { "\(file.name): \($0)" }
                tables.append((file.name, table.node, table.chain, table.rows))
            } catch let error as DocumentError {
                throw DocumentError("\(file.name): \(error.message)")
            }
        }
        try checkEveryRepeatHasItsTable(main: main.name, repeats: repeats.map(\.name), read: tables.compactMap(\.node),
                                        questionnaire: questionnaire)
        // Parents before children: a row's parent is then placed before it is.
        tables.sort { $0.chain.count < $1.chain.count }

        // The KEYs of each table's rows, by the repeat whose instances they are ("" the survey's).
        var keysOf: [String: Set<String>] = ["": Set(mainKeys)]
        var fileOf: [String: String] = ["": main.name]
        for table in tables { fileOf[table.chain.last ?? ""] = fileOf[table.chain.last ?? ""] ?? table.name }
        var known = Set(mainKeys)
        var values: [String: [String: PropertyValue]] = [:]
        var children: [String: [(name: String, key: String, place: Int)]] = [:]
        // The row at each place of each parent's instances of a repeat.
        var taken: [String: Int] = [:]
        for table in tables {
            // The repeat's name, its parent's, and its element in KEYs (a roster the form does
            // not have is known by its KEYs' names alone).
            let name = table.chain.last ?? ""
            let parent = table.chain.dropLast().last ?? ""
            let element = table.node?.element ?? name
            let parentKeys = keysOf[parent] ?? []
            func refuse(_ row: ParsedRow, _ why: String) -> DocumentError {
                DocumentError("\(table.name): row \(row.row): \(why)")
            }
            for row in table.rows {
                guard parentKeys.contains(row.parentKey) else {
                    throw refuse(row, "its PARENT_KEY “\(row.parentKey)” is the KEY of no row of \(fileOf[parent] ?? parent)")
                }
                guard row.key.hasPrefix(row.parentKey + "/") else {
                    throw refuse(row, "its KEY “\(row.key)” is not inside its PARENT_KEY “\(row.parentKey)” "
                        + "(an instance's KEY is its PARENT_KEY, then /\(element)[n])")
                }
                guard let place = instancePlace(row.key, of: element) else {
                    throw refuse(row, "its KEY “\(row.key)” does not end in \(element)[n], "
                        + "n the instance's place: a whole number from 1")
                }
                guard known.insert(row.key).inserted else {
                    throw refuse(row, "the KEY “\(row.key)” is given twice")
                }
                let spot = row.parentKey + "\u{0}" + name + "\u{0}" + String(place)
                if let other = taken.updateValue(row.row, forKey: spot) {
                    throw refuse(row, "its KEY “\(row.key)” puts it at place \(place) of “\(row.parentKey)”, "
                        + "as row \(other)'s KEY does")
                }
                keysOf[name, default: []].insert(row.key)
                values[row.key] = row.values
                children[row.parentKey, default: []].append((name, row.key, place))
            }
        }
        func nested(_ key: String, into answers: inout [String: PropertyValue]) {
            var lists: [(String, [PropertyValue])] = []
            for child in (children[key] ?? []).sorted(by: { $0.place < $1.place }) {
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

    /// One repeat table's rows, typed by its repeat's questions (nil: a roster the form does
    /// not have), and the keys from the survey down to its rows (`["member", "job"]`); nil
    /// for a table with no rows whose repeat nothing names.
    private static func parseRepeatTable(_ file: (name: String, text: String), questionnaire: Questionnaire) throws
        -> (node: FormNode?, chain: [String], rows: [ParsedRow], unmatched: [String])? {
        let rows = try CSV.rows(file.text, separator: CSV.separator(guessedFrom: file.text)).enumerated()
            .map { (row: $0.offset + 1, cells: $0.element) }
            .filter { $0.cells != [""] }
        guard let header = rows.first?.cells.map({ SpreadsheetFormula.unescaped($0.trimmingWhitespace()) }) else { return nil }
        guard let keyIndex = header.firstIndex(of: "KEY"), let parentIndex = header.firstIndex(of: "PARENT_KEY") else {
            throw DocumentError("it has no KEY and PARENT_KEY columns, so it is no repeat table of an ODK export")
        }
        // The repeats the first row's KEY goes through, else the table's own set (the last
        // `SET-OF-` column: a nested repeat's comes before it), else its file's name.
        var chain: [String] = []
        if let first = rows.dropFirst().first, keyIndex < first.cells.count {
            chain = repeatChain(of: first.cells[keyIndex])
        }
        if chain.isEmpty, let set = header.last(where: { $0.hasPrefix("SET-OF-") }) {
            chain = [String(set.dropFirst("SET-OF-".count))]
        }
        // Keys and file names hold the repeats' elements (a repeat kept under its group path,
        // `g1/r`, is `r` there).
        let stem = file.name.lowercased().hasSuffix(".csv") ? String(file.name.dropLast(4)) : file.name
        let candidates = questionnaire.repeats.filter {
            chain.isEmpty ? stem.hasSuffix("-" + $0.element) || stem.contains("-\($0.element)~")
                : chain.count == 1 ? $0.element == chain[0] : ($0.repeats + [$0.name]).map(FormNode.element) == chain
        }
        let node = candidates.count == 1 ? candidates[0] : candidates.first(where: { file.name.contains("-\($0.element)") })
        if node == nil {
            if chain.isEmpty, rows.count <= 1 { return nil }
            if chain.isEmpty { throw DocumentError("its KEYs and its name name no repeat of the form") }
            if !candidates.isEmpty {
                throw DocumentError("its rows are instances of “\(chain.joined(separator: "/"))”, a name \(candidates.count) repeats "
                    + "of the form share, and its file name says which of them by none")
            }
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
        return (node, node.map { $0.repeats + [$0.name] } ?? chain, parsed, reading.unmatched)
    }

    /// The n of a KEY that ends in `element[n]`, when n is a whole number from 1 (digits only,
    /// as ODK writes it).
    static func instancePlace(_ key: String, of element: String) -> Int? {
        guard let last = key.split(separator: "/").last, last.hasPrefix(element + "["), last.hasSuffix("]") else { return nil }
        let digits = last.dropFirst(element.count + 1).dropLast()
        guard !digits.isEmpty, digits.utf8.allSatisfy({ $0 &- UInt8(ascii: "0") < 10 }), digits.first != "0",
              let place = Int(digits) else { return nil }
        return place
    }

    /// Every repeat of the form has its table among the files: read (`read`), or there by
    /// the name ODK gives it (`MAIN-REPEAT.csv`, `MAIN-REPEAT~2.csv`), rows or none. ODK
    /// Central's and Briefcase's exports, and survey's, always write one per repeat, so a
    /// missing one is a file left behind; importing without it would store the surveys
    /// without their rosters (DECISIONS.md).
    private static func checkEveryRepeatHasItsTable(main: String, repeats files: [String], read: [FormNode],
                                                    questionnaire: Questionnaire) throws {
        let base = main.lowercased().hasSuffix(".csv") ? String(main.dropLast(4)) : main
        for node in questionnaire.repeats where !read.contains(where: { $0.name == node.name }) {
            let expected = "\(base)-\(node.element)"
            let there = files.contains { file in
                let stem = file.lowercased().hasSuffix(".csv") ? String(file.dropLast(4)) : file
                return stem == expected || stem.hasPrefix(expected + "~")
            }
            if !there {
                throw DocumentError("\(expected).csv, the table of the repeat “\(node.name)”, is not beside \(main): "
                    + "ODK's exports have a file for every repeat, so the surveys would be imported without their "
                    + "\(node.element) rows (import the whole folder of the export)")
            }
        }
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
