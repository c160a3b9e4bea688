import FoundationEssentials
import SurveyValues

/// What each header cell of an imported CSV stands for, in survey's own exports and in the
/// CSVs ODK Central, ODK Briefcase and KoboToolbox export. One reading for the plain import
/// and the ODK set, so a header means the same in both.
///
/// A cell names a question of the table's scope (the survey's, or one repeat instance's)
/// by its name, by its path through groups written as ODK Central and Briefcase write it
/// (`visit-visit_time`), as KoboToolbox does (`visit/visit_time`), or from the form's top
/// through repeats (`member/age`, `/data/member/age`), each first exactly, then ignoring
/// case, then by its label ignoring case. `instanceID` is also `meta-instanceID` or
/// `meta/instanceID`; `formID`, `formVersion` and `incomplete` are matched in any case (so Central's
/// `FormVersion` is `formVersion`). `KEY`, `PARENT_KEY` and `SET-OF-…` are ODK's joins,
/// spelled exactly as ODK writes them (a question may be named `key`). Any other cell
/// keeps its column under its own name. The servers' own bookkeeping (`serverColumns`:
/// Central's `SubmissionDate`, `SubmitterName`, Kobo's `_uuid`, `__version__`) is kept
/// quietly; any other cell is listed in `unmatched`, so a misspelt question name is seen,
/// not silently kept beside the question.
struct ImportHeader {
    enum Column: Equatable {
        /// A record key: an answer, an identity key, or a kept column.
        case value(String)
        case key, parentKey, setOf
    }

    let columns: [Column]
    /// The header cells that named no question, trimmed, in file order.
    let unmatched: [String]

    /// Refused (a `DocumentError`): an empty cell, and two cells naming the same key.
    init(_ header: [String], scope: Questionnaire, nodes: [FormNode]) throws {
        let spellings = Self.spellings(scope, nodes: nodes)
        var exact: [String: String] = [:]
        var folded: [String: String] = [:]
        for (spelling, key) in spellings {
            if exact[spelling] == nil { exact[spelling] = key }
            if folded[spelling.lowercased()] == nil { folded[spelling.lowercased()] = key }
        }
        var labels: [String: String] = [:]
        for field in scope.recordFields where labels[field.label.lowercased()] == nil { labels[field.label.lowercased()] = field.key }
        // The identity keys, and the mark of an incomplete survey an export writes beside them.
        let identity = Dictionary(uniqueKeysWithValues: (scope.recordIdentityKeys + [Record.incompleteKey]).map { ($0.lowercased(), $0) })
        let instanceIDs: Set<String> = ["meta-instanceid", "meta/instanceid", "/\(scope.form?.rootName ?? "data")/meta/instanceid"]

        var columns: [Column] = []
        var unmatched: [String] = []
        var keys: [String: Int] = [:]
        for (index, cell) in header.enumerated() {
            let name = cell.trimmingWhitespace()
            guard !name.isEmpty else { throw DocumentError("column \(index + 1) has no name in the header row") }
            let lower = name.lowercased()
            let column: Column
            if let key = exact[name] {
                column = .value(key)
            } else if name == "KEY" {
                column = .key
            } else if name == "PARENT_KEY" {
                column = .parentKey
            } else if name.hasPrefix("SET-OF-") {
                column = .setOf
            } else if let key = identity[lower] ?? (instanceIDs.contains(lower) ? Record.instanceIDKey : nil) {
                column = .value(key)
            } else if let key = folded[lower] ?? labels[lower] {
                column = .value(key)
            } else {
                column = .value(name)
                if !Self.serverColumns.contains(name) { unmatched.append(name) }
            }
            let seen = column == .setOf ? nil : "\(column)"
            if let seen {
                if let earlier = keys[seen] {
                    let named = if case .value(let key) = column { key } else { name }
                    throw DocumentError("columns \(earlier + 1) and \(index + 1) of the header both name “\(named)”")
                }
                keys[seen] = index
            }
            columns.append(column)
        }
        self.columns = columns
        self.unmatched = unmatched
    }

    /// The columns ODK Central, ODK Briefcase and KoboToolbox add to an export about the
    /// submission rather than its answers: kept under their names, never taken for a
    /// misspelt question.
    static let serverColumns: Set<String> = [
        "SubmissionDate", "SubmitterID", "SubmitterName", "AttachmentsPresent", "AttachmentsExpected", "Status",
        "ReviewState", "DeviceID", "Edits", "isValidated",
        "_id", "_uuid", "_submission_time", "_validation_status", "_notes", "_status", "_submitted_by", "__version__",
        "_version_", "_tags", "_index", "_parent_index", "_parent_table_name", "_xform_id_string", "_attachments",
        "_geolocation", "_duration",
    ]

    /// Whether any column names an answer of the scope (not only identity or joins).
    func namesAnAnswer(of scope: Questionnaire) -> Bool {
        let answers = Set(scope.recordFields.map(\.key))
        return columns.contains { if case .value(let key) = $0 { answers.contains(key) } else { false } }
    }

    /// Every spelling of every answer of the scope, the plainest first: name, path through
    /// groups (`-` and `/`), path from the form's top (`member/age`, `member-age`), and the
    /// XForm's absolute path (`/data/member/age`).
    static func spellings(_ scope: Questionnaire, nodes: [FormNode]) -> [(String, String)] {
        let answers = Set(scope.recordFields.map(\.key))
        var result: [(String, String)] = scope.recordFields.map { ($0.key, $0.key) }
        func walk(_ nodes: [FormNode], _ groups: [String]) {
            for node in nodes {
                switch node.kind {
                case .group:
                    walk(node.children, groups + [node.element])
                case .question, .repeat:
                    guard answers.contains(node.name) else { continue }
                    let inScope = groups + [node.element]
                    let fromTop = node.path.split(separator: "/").dropFirst().map(String.init)
                    for parts in [inScope, fromTop] where parts.count > 1 {
                        result.append((parts.joined(separator: "-"), node.name))
                        result.append((parts.joined(separator: "/"), node.name))
                    }
                    result.append((node.path, node.name))
                }
            }
        }
        walk(nodes, [])
        return result
    }
}

/// Values as ODK writes them, read as survey stores them.
enum ODKValue {
    /// ODK's time (`09:30:00.000+03:00`, xsd:time with milliseconds and the device's zone)
    /// as survey keeps a time, the time of day the person keyed: `09:30:00`. Anything else is
    /// left as it is, for the question's own rule to judge.
    static func time(_ text: String) -> String {
        let t = text.trimmingWhitespace()
        guard t.wholeMatch(of: #/([01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9](\.[0-9]+)?(Z|[+-][0-9]{2}:[0-9]{2})?/#) != nil else { return text }
        return String(t.prefix(8))
    }

    /// The cell of a question of `kind` as the question's rule reads it: without the `'` a
    /// CSV export puts before a formula (`SpreadsheetFormula.unescaped`).
    static func cell(_ text: String, kind: FieldKind?) -> String {
        let text = SpreadsheetFormula.unescaped(text)
        if kind == .time { return time(text) }
        return text
    }
}
