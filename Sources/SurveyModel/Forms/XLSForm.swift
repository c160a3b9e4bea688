import FoundationEssentials

/// A survey designer's questionnaire as XLSForm defines it (ODK, KoboToolbox): questions in
/// order with their rules, choice lists, and settings. Read as forgivingly as pyxform reads it
/// (sheet and column names in any case, its aliases, blank and comment rows, Excel numbers
/// where text is meant), and checked once, at load: every expression parsed and every
/// `${name}` known, so a form that opens never fails later while someone is keying.
public struct XLSForm: Equatable, Sendable {
    public enum Kind: Equatable, Sendable {
        case text, integer, decimal, date, time, dateTime
        case selectOne(list: String, orOther: Bool)
        case selectMultiple(list: String, orOther: Bool)
        case note, calculate, acknowledge, beginGroup, endGroup
        /// `start`, `end`, `today`, `deviceid`: filled in by the app, not asked.
        case metadata(String)
        /// Image, audio, geopoint, repeats…: the form opens, the row is shown as not
        /// collected here.
        case notCollected(String)
    }

    public struct Question: Equatable, Sendable {
        public var kind: Kind
        public var name: String
        /// By language ("" when the column names none).
        public var labels: [String: String] = [:]
        public var hints: [String: String] = [:]
        public var required: FormExpression?
        public var requiredMessage: String?
        public var constraint: FormExpression?
        public var constraintMessage: String?
        public var relevant: FormExpression?
        public var defaultValue: String?
        public var calculation: FormExpression?
        public var readOnly = false
        public var choiceFilter: FormExpression?
        public var appearance: String?
        /// Where it is in the survey sheet.
        public var row: Int
    }

    public struct Choice: Equatable, Sendable {
        public var name: String
        public var labels: [String: String]
        /// Other columns (what `choice_filter` reads, e.g. a `county` column).
        public var extra: [String: String]
    }

    public var questions: [Question] = []
    public var choices: [String: [Choice]] = [:]
    public var title: String?
    public var formID: String?
    public var version: String?
    public var instanceName: FormExpression?
    public var defaultLanguage: String?

    /// Languages named by `label::…` columns, in column order.
    public var languages: [String] = []
}

/// A problem with a form, where the designer will find it: `survey row 12, constraint:
/// unknown field ${agee}`.
public struct XLSFormProblem: Equatable, Sendable, CustomStringConvertible {
    public let sheet: String
    public let row: Int?
    public let column: String?
    public let message: String

    public var description: String {
        var place = sheet
        if let row { place += " row \(row)" }
        if let column { place += ", \(column)" }
        return "\(place): \(message)"
    }
}

extension XLSForm {
    /// The form, or nil when there are errors; warnings (rows not collected here) either way.
    public static func read(_ sheets: XLSFormSheets) -> (form: XLSForm?, errors: [XLSFormProblem], warnings: [XLSFormProblem]) {
        var reader = XLSFormReader()
        let form = reader.read(sheets)
        // In the order the spreadsheet shows them; problems of the whole sheet last.
        func byRow(_ problems: [XLSFormProblem]) -> [XLSFormProblem] {
            problems.enumerated().sorted { ($0.element.row ?? .max, $0.offset) < ($1.element.row ?? .max, $1.offset) }.map(\.element)
        }
        return (reader.errors.isEmpty ? form : nil, byRow(reader.errors), byRow(reader.warnings))
    }
}

/// Column names as pyxform normalises them: case and blanks ignored, spaces and underscores
/// alike, its aliases mapped, and `label::English (en)` / `label:English` split into the
/// column and its language.
struct XLSFormColumn: Equatable {
    let name: String
    let language: String?

    static let aliases: [String: String] = [
        "list name": "list_name", "constraint message": "constraint_message", "required message": "required_message",
        "read only": "read_only", "readonly": "read_only", "choice filter": "choice_filter",
        "default language": "default_language", "form title": "form_title", "form id": "form_id",
        "instance name": "instance_name", "jr:constraintmsg": "constraint_message", "jr:requiredmsg": "required_message",
        "media::image": "image", "calculate": "calculation",
    ]

    init(_ raw: String) {
        var text = raw.trimmingWhitespace()
        var language: String?
        if let range = text.firstRange(of: "::") ?? text.firstRange(of: ":"), !text.lowercased().hasPrefix("jr:") {
            language = String(text[range.upperBound...]).trimmingWhitespace()
            text = String(text[..<range.lowerBound])
        }
        let lowered = text.lowercased().trimmingWhitespace()
        let spaced = lowered.replacingEvery("_", with: " ")
        name = Self.aliases[spaced] ?? Self.aliases[lowered] ?? spaced.replacingEvery(" ", with: "_")
        self.language = language.flatMap { $0.isEmpty ? nil : $0 }
    }
}

extension XLSForm {
    /// A stored answer as expressions see it: text, numbers written plainly.
    static func text(of value: PropertyValue?) -> String {
        switch value {
        case .string(let s)?: return s
        case .integer(let n)?: return String(n)
        case .real(let d)?: return FormValue.number(d).string
        case .bool(let b)?: return b ? "true" : "false"
        default: return ""
        }
    }
}
