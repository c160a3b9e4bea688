import SurveyValues
/// Why one incoming record cannot be added: where it is in the file, the key of the field
/// at fault (nil when the record as a whole is refused), the value found there (quoted in
/// the message, so the person can find it) and the reason, worded like the form's own
/// refusals.
public struct ImportProblem: Equatable, Sendable, CustomStringConvertible {
    public let place: ImportPlace
    public let field: String?
    public let value: PropertyValue?
    public let reason: String

    public init(_ place: ImportPlace, field: String?, value: PropertyValue? = nil, reason: String) {
        self.place = place
        self.field = field
        self.value = value
        self.reason = reason
    }

    /// `row 3: age "abc": Age must be a whole number from 0 to 150, or empty`
    public var description: String {
        "\(place): \(withoutPlace)"
    }

    /// `age "abc": Age must be …`, `fname: Ask for the first name`: for one record given on
    /// the command line, which has no place in a file.
    public var withoutPlace: String {
        guard let field else { return reason }
        guard let value else { return "\(field): \(reason)" }
        return "\(field) \(Self.quoted(value)): \(reason)"
    }

    /// Text in double quotes, with quotes, backslashes, tabs and line breaks escaped so the
    /// message stays on one line, cut after `shownCharacters`; other values as the form
    /// shows them (`42.5`, `5551234`, `(list of 2 items)`).
    static func quoted(_ value: PropertyValue) -> String {
        guard case .string(let text) = value else { return FieldSpec.describe(value) }
        var out = ""
        for character in text.prefix(shownCharacters) {
            switch character {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\t": out += "\\t"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\r\n": out += "\\r\\n"
            default: out.append(character)
            }
        }
        return "\"" + out + (text.count > shownCharacters ? "…" : "") + "\""
    }

    /// Enough to recognise a value; a 200-character address would bury the reason.
    static let shownCharacters = 40
}

/// Where a record was in the file it came from, as the person who made the file counts:
/// a CSV row as the spreadsheet numbers it (the header is row 1, so the first record is
/// row 2, and empty lines count), or the record's position (from 1) in a JSON array or a
/// property list, which have no rows.
public enum ImportPlace: Equatable, Sendable, CustomStringConvertible {
    case row(Int)
    case record(Int)

    public var description: String {
        switch self {
        case .row(let number): return "row \(number)"
        case .record(let number): return "record \(number)"
        }
    }
}
