import SurveyValues
/// The tables of ODK's CSV export, as ODK Briefcase documents them (`docs/export-format.md`
/// in getodk/briefcase) and ODK Central writes them (`lib/data/briefcase.js`): a main table,
/// `FORMID.csv`, with one row per survey, and one table per repeat, `FORMID-REPEAT.csv`
/// (nested repeats too, depth first in the form's order, `~1`, `~2` after a name two repeats
/// share), with one row per instance. Rows are joined by `KEY` and `PARENT_KEY`: a survey's
/// key is its `instanceID` (`uuid:…`), an instance's is its parent's key, the repeat's name
/// and its place counted from 1 (`uuid:…/member[2]`, nested `uuid:…/member[2]/job[1]`);
/// groups are never part of a key, as Briefcase writes it.
///
/// Columns, as Briefcase's: the main table has `SubmissionDate`, the answers in form order,
/// `meta-instanceID` and `KEY`; a repeat's table has its answers, `PARENT_KEY`, `KEY` and
/// `SET-OF-REPEAT`. A repeat inside a table is its `SET-OF-REPEAT` column there
/// (`{parent key}/REPEAT`, the same value as the column of that name in its own table).
/// After ODK's columns come survey's own (`formID`, `formVersion`) and every other key the
/// rows hold, sorted, so nothing a survey holds is left out. A roster a survey holds that the
/// form does not (an older version's, or any key whose value is a list of dictionaries) gets
/// its own table as the form's repeats do, named the same way (`FORMID-member.csv`), its
/// columns the keys its instances hold, sorted, and a roster inside it a table of its own
/// too. File names are made safe (`FileNames.safe`): a `form_id` or a key is never a
/// path. A question inside a group is
/// `group-question` with `groupNames` (Briefcase's names, and Central's by default), else
/// its name alone (Central's "Remove group names"), which is unique in its table because
/// groups add no level to survey's answers, but for a name used twice in one record, whose
/// key is its group path (`g1/q1`, written `g1-q1`); `meta-instanceID` is then `instanceID`.
public struct ODKTables {
    /// One CSV file of the set.
    public struct Table {
        /// `FORMID.csv`, `FORMID-member.csv`.
        public let fileName: String
        /// The repeat whose instances are its rows; nil for the main table and for a roster
        /// the form does not have.
        public let node: FormNode?
        /// The keys from the survey down to its rows: `[]` for the main table,
        /// `["member", "job"]` for the jobs inside members.
        public let chain: [String]
        /// The questions of one row: the survey's, or one instance's.
        public let scope: Questionnaire
        public let columns: [Column]
        /// The question of each `.answer` column (nil for the others), found once.
        let fields: [FieldSpec?]
        public var header: [String] { columns.map(\.header) }

        init(fileName: String, node: FormNode?, chain: [String], scope: Questionnaire, columns: [Column]) {
            self.fileName = fileName
            self.node = node
            self.chain = chain
            self.scope = scope
            self.columns = columns
            let byKey = Dictionary(scope.fields.map { ($0.key, $0) }, uniquingKeysWith: { first, _ in first })
            fields = columns.map { if case .answer(let key) = $0.kind { byKey[key] } else { nil } }
        }
    }

    public struct Column: Equatable {
        public enum Kind: Equatable {
            /// An answer of the row's scope, by its key.
            case answer(String)
            /// The instances of a repeat inside the row: `{KEY}/REPEAT`.
            case setOf(String)
            /// The main table's submission date (a survey imported from Central keeps it).
            case submissionDate
            case instanceID, key, parentKey
            /// A repeat table's own set: `{PARENT_KEY}/REPEAT`.
            case ownSet
            /// Any other key the rows hold, as text.
            case other(String)
        }
        public let header: String
        public let kind: Kind
    }

    /// Main table first, then the form's repeats depth first, then the rosters it lacks.
    public let tables: [Table]

    /// The record key ODK's `SubmissionDate` column is kept under, so a survey imported from
    /// Central's export goes back into the same column.
    public static let submissionDateKey = "SubmissionDate"

    /// The tables for `records` (their other keys become columns, their rosters the form
    /// lacks tables). `formID` names the files.
    public init(questionnaire: Questionnaire, formID: String, groupNames: Bool, records: [Record] = []) {
        let identity = questionnaire.recordIdentityKeys.filter { $0 != Record.instanceIDKey }
        let mainColumns = Self.answerColumns(questionnaire, nodes: questionnaire.tree, groupNames: groupNames)
        let mainKnown = Set(mainColumns.compactMap(\.recordKey) + questionnaire.knownRecordKeys + [Self.submissionDateKey, EntityBase.recordKey])
        // An encrypted survey's submission (`Record.Sealed`) is no column: what is readable of it is.
        let main = Self.otherColumns(of: records.map(\.readableValues), known: mainKnown)
        // Each table (the form's, then the rosters found) with the other rosters its rows hold.
        var found: [(node: FormNode?, chain: [String], scope: Questionnaire, columns: [Column])] = []
        var unknown: [[String]] = main.rosters.map { [$0] }
        found.append((nil, [], questionnaire, [Column(header: "SubmissionDate", kind: .submissionDate)] + mainColumns
            + [Column(header: groupNames ? "meta-instanceID" : "instanceID", kind: .instanceID), Column(header: "KEY", kind: .key)]
            + identity.map { Column(header: $0, kind: .other($0)) } + main.columns))
        for node in questionnaire.repeats {
            let scope = questionnaire.instanceQuestionnaire(for: node)
            let chain = node.repeats + [node.name]
            let columns = Self.answerColumns(scope, nodes: node.children, groupNames: groupNames)
            let known = Set(columns.compactMap(\.recordKey) + scope.recordFields.map(\.key))
            let others = Self.otherColumns(of: Self.allInstances(of: chain, in: records), known: known)
            unknown += others.rosters.map { chain + [$0] }
            found.append((node, chain, scope, columns + Self.ownColumns(node.element) + others.columns))
        }
        while !unknown.isEmpty {
            let chain = unknown.removeFirst()
            let others = Self.otherColumns(of: Self.allInstances(of: chain, in: records), known: [])
            unknown += others.rosters.map { chain + [$0] }
            found.append((nil, chain, questionnaire, others.columns + Self.ownColumns(FormNode.element(chain.last!))))
        }
        // File names: FORMID-REPEAT.csv, with `~1`, `~2` after a name two repeats share.
        let stems = found.map { $0.chain.last.map { "\(formID)-\(FormNode.element($0))" } ?? formID }
            .map(FileNames.safe)
        var totals: [String: Int] = [:]
        for stem in stems.dropFirst() { totals[stem, default: 0] += 1 }
        var seen: [String: Int] = [:]
        tables = zip(found, stems).enumerated().map { i, pair in
            let (table, stem) = pair
            var name = stem
            if i > 0, totals[stem, default: 0] > 1 {
                seen[stem, default: 0] += 1
                name += "~\(seen[stem, default: 0])"
            }
            return Table(fileName: name + ".csv", node: table.node, chain: table.chain, scope: table.scope, columns: table.columns)
        }
    }

    /// A repeat table's own columns after its answers: `PARENT_KEY`, `KEY`, `SET-OF-REPEAT`.
    private static func ownColumns(_ element: String) -> [Column] {
        [Column(header: "PARENT_KEY", kind: .parentKey), Column(header: "KEY", kind: .key),
         Column(header: "SET-OF-" + element, kind: .ownSet)]
    }

    /// The columns of the keys `rows` hold beyond `known`, sorted: a roster (a list of
    /// dictionaries in every row that holds the key) as its `SET-OF-` column, anything else
    /// as text; and the rosters, whose instances become tables of their own.
    static func otherColumns(of rows: [[String: PropertyValue]], known: Set<String>) -> (columns: [Column], rosters: [String]) {
        var keys: Set<String> = []
        var notRosters: Set<String> = []
        for row in rows {
            for (key, value) in row where !known.contains(key) {
                keys.insert(key)
                if !isRoster(value) { notRosters.insert(key) }
            }
        }
        let sorted = keys.sorted()
        let rosters = sorted.filter { !notRosters.contains($0) }
        return (sorted.map { key in
            rosters.contains(key) ? Column(header: "SET-OF-" + key.replacingEvery("/", with: "-"), kind: .setOf(key))
                : Column(header: key, kind: .other(key))
        }, rosters)
    }

    /// A list whose items are all dictionaries: a roster's instances (an empty list too).
    static func isRoster(_ value: PropertyValue) -> Bool {
        guard case .array(let items) = value else { return false }
        return items.allSatisfy { if case .dictionary = $0 { true } else { false } }
    }

    /// The answer and `SET-OF` columns of `nodes` (one scope's), groups walked into; then
    /// any answer the tree does not place (the original five have no groups, but a field
    /// is never left out).
    static func answerColumns(_ scope: Questionnaire, nodes: [FormNode], groupNames: Bool) -> [Column] {
        let answers = Set(scope.recordFields.map(\.key))
        var columns: [Column] = []
        var placed: Set<String> = []
        func walk(_ nodes: [FormNode], _ groups: [String]) {
            for node in nodes {
                let name = groupNames ? (groups + [node.element]).joined(separator: "-") : node.name.replacingEvery("/", with: "-")
                switch node.kind {
                case .group:
                    walk(node.children, groups + [node.element])
                case .repeat:
                    columns.append(Column(header: "SET-OF-" + name, kind: .setOf(node.name)))
                    placed.insert(node.name)
                case .question:
                    guard answers.contains(node.name), placed.insert(node.name).inserted else { continue }
                    columns.append(Column(header: name, kind: .answer(node.name)))
                }
            }
        }
        walk(nodes, [])
        for field in scope.recordFields where !placed.contains(field.key) {
            columns.append(Column(header: field.key, kind: .answer(field.key)))
        }
        return columns
    }

    /// Every instance of the roster reached through `chain` (`["member", "job"]`) in
    /// `records`, wherever its parents are.
    static func allInstances(of chain: [String], in records: [Record]) -> [[String: PropertyValue]] {
        var found: [[String: PropertyValue]] = []
        func walk(_ answers: [String: PropertyValue], _ chain: ArraySlice<String>) {
            guard let first = chain.first, case .array(let items)? = answers[first] else { return }
            for case .dictionary(let inner) in items {
                if chain.count == 1 { found.append(inner) } else { walk(inner, chain.dropFirst()) }
            }
        }
        for record in records {
            guard let first = chain.first, let value = record[first] else { continue }
            walk([first: value], chain[...])
        }
        return found
    }
}

extension ODKTables.Column {
    /// The record key whose value the column holds, if it holds one.
    var recordKey: String? {
        switch kind {
        case .answer(let key), .setOf(let key), .other(let key): return key
        case .submissionDate: return ODKTables.submissionDateKey
        case .instanceID: return Record.instanceIDKey
        case .key, .parentKey, .ownSet: return nil
        }
    }
}
