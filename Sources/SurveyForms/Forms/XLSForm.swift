import FoundationEssentials
import SurveyValues

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
        /// `begin repeat` (a roster: its questions are asked once per instance, and kept in
        /// `Question.children`) and its end, which closes it and is not kept.
        case beginRepeat, endRepeat
        /// `geopoint`, `geotrace`, `geoshape`: typed as `lat lon [alt [acc]]`.
        case geo(FieldKind.Geometry)
        /// `barcode`: typed (a USB scanner types like a keyboard), kept as text.
        case barcode
        /// `image`, `audio`, `video`, `file`: a file copied into the document's media folder.
        case attachment(String)
        /// `range`, with its `parameters` (`Question.parameters`).
        case range
        /// `rank LIST`: the list's choices in an order.
        case rank(list: String)
        /// `start`, `end`, `today`, `deviceid`: filled in by the app; `username`, `email`,
        /// `phonenumber`, `audit`, `hidden`, `start-geopoint`: kept as metadata, not asked.
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
        /// `required_message` / `constraint_message` by language ("" for the unnamed column),
        /// so a message is shown in the language the labels are.
        public var requiredMessages: [String: String] = [:]
        public var constraintMessages: [String: String] = [:]
        public var constraint: FormExpression?
        public var constraintMessage: String?
        public var relevant: FormExpression?
        public var defaultValue: String?
        /// A dynamic default whose paths into the instance the reader made keys
        /// (`XLSFormReader+Paths.swift`); nil when the default reads none.
        public var resolvedDefault: FormExpression?
        public var calculation: FormExpression?
        public var readOnly = false
        /// The `verify` column (CSPro's double entry; not an ODK column, pyxform ignores it):
        /// `no` / `false()` leaves the question out of verification. Default yes.
        public var verify = true
        /// SurveyCTO's `publishable` column (yes/true): with the form's `public_key`, this
        /// answer stays readable beside the encrypted survey (`SealedSurvey`); pyxform ignores
        /// the column. Default no.
        public var publishable = false
        public var choiceFilter: FormExpression?
        public var appearance: String?
        /// The `parameters` column (`start=1 end=10 step=1` of a range), by name.
        public var parameters: [String: String] = [:]
        /// A repeat's `repeat_count` (`jr:count`): a number or an expression, how many
        /// instances ODK makes, with none added or deleted by hand.
        public var repeatCount: FormExpression?
        /// A repeat's rows, in order, as `XLSForm.questions` holds the form's: groups as
        /// their begin and end rows, a nested repeat as its one `begin repeat` row.
        public var children: [Question] = []
        /// `select_one ${name}`: the question whose answers in a repeat are the choices (its
        /// reference, so the name is checked); the row is not collected yet.
        public var repeatChoices: FormExpression?
        /// The `trigger` column (ODK's value-change trigger, `${a}` or `${a}, ${b}`): the
        /// questions whose change sets this one to its calculation (empty without one), then
        /// only; never recomputed as the calculation's inputs change.
        public var trigger: [String] = []
        /// Where it is in the survey sheet.
        public var row: Int
    }

    public struct Choice: Equatable, Sendable {
        public var name: String
        public var labels: [String: String]
        /// Other columns (what `choice_filter` reads, e.g. a `county` column).
        public var extra: [String: String]
    }

    /// The rows outside every repeat, in the spreadsheet's order: what a survey's record
    /// holds at its top level, and what `Questionnaire.fields` mirrors one for one. A repeat
    /// is its `begin repeat` row here, its own rows in that row's `children`.
    public var questions: [Question] = []
    public var choices: [String: [Choice]] = [:]
    public var title: String?
    public var formID: String?
    public var version: String?
    public var instanceName: FormExpression?
    /// The settings' `id_items` (CSPro's ID items; pyxform ignores the column): the
    /// questions that identify a paper (`plot_id`, `hh_id visit`). Two surveys with the same
    /// answers to them are one paper keyed twice: [ Add ] asks, `survey list --duplicates`
    /// lists them, and `survey diff` pairs two keyers' surveys by them.
    public var idItems: [String] = []
    /// The settings' `public_key`: base64 of an RSA public key (DER, as ODK's docs make it with
    /// openssl). A form with one is encrypted as ODK Collect encrypts it: `survey export
    /// --format odk-xml` writes each survey as an encrypted submission only the private key
    /// opens (`ODKSubmissionCrypto`). Checked when the form is read (`XLSFormReader`).
    public var publicKey: String?
    public var defaultLanguage: String?
    /// The XForm's root element, as pyxform names it: the settings' `name`, else `data`.
    public var rootName = "data"

    /// Languages named by `label::…` columns, in column order.
    public var languages: [String] = []
    /// The list files beside the form, once read (`loadingMedia(from:)`).
    public var media = FormMedia.none
    /// The entities a finished survey creates or updates (the `entities` sheet and `save_to`).
    public var entities: [EntityDeclaration] = []
    /// The version of ODK's entities spec they need, as pyxform gives it (no column names
    /// it): 2025.1.0 for several lists or one in a repeat, else 2024.1.0; nil without any.
    public var entitiesVersion: EntitiesVersion?
}

extension XLSForm.Kind {
    /// The choice list a select or rank reads (a file name for `select_one_from_file`).
    public var listName: String? {
        switch self {
        case .selectOne(let list, _), .selectMultiple(let list, _), .rank(let list): return list
        default: return nil
        }
    }
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
    /// The form, or nil when there are errors; warnings either way: rows not collected here,
    /// and rules that read nothing or cannot be read, a default its question refuses
    /// (`XLSFormReadsNothingTests`), which leave the form usable.
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
        "media::image": "image", "calculate": "calculation", "jr:count": "repeat_count",
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
