import FoundationEssentials
import SurveyValues

/// One question of the questionnaire. All field facts live here as data, so that the UI
/// never hard-codes a field and a later issue can let users define their own questionnaire.
public struct FieldSpec: Equatable, Sendable {
    /// The plist key, e.g. "firstName".
    public let key: String
    /// What the form shows, e.g. "First name".
    public let label: String
    public let kind: FieldKind
    /// Help text shown beside the field.
    public let info: String
    /// A designer's hint, shown on the line under the question ("" when none).
    public var hint: String = ""
    /// Marked `*` on the form: the form's `required` is set (perhaps only under a condition).
    public var isRequired = false
    /// Choice names → labels, for choice questions, in the list's order.
    public var choiceLabels: [String: String] = [:]
    /// An empty text answer is stored as "" (the original app's shape) or left out (ODK's).
    public var storesEmptyText = true
    /// Whether verification (double entry, `VerificationRules`) asks it again: the form's
    /// `verify` column, default yes. What the form fills in is never verified, whatever it says.
    public var isVerified = true
    /// The form's `publishable` column: readable beside the survey when the form encrypts it.
    public var isPublishable = false

    public init(key: String, label: String, kind: FieldKind, info: String) {
        self.key = key
        self.label = label
        self.kind = kind
        self.info = info
    }

    /// Typed text -> stored value (nil = remove the key), or why not.
    ///
    /// Text fields store the text trimmed of surrounding blanks and line breaks (a name of
    /// three spaces is no name, and "Ana " would not match "Ana" in a search or a sort);
    /// blanks inside are kept as typed. An empty answer is stored as an empty string, as the
    /// original app did. Whole numbers ignore surrounding blanks and an empty answer removes
    /// the key.
    public func parse(_ text: String) -> Result<PropertyValue?, FieldError> {
        switch kind {
        case .text(let maxLength):
            // Control characters are judged before trimming, so none is dropped unnoticed.
            let trimmed = text.trimmingWhitespaceAndNewlines()
            if let problem = textProblem(text, maxLength: Int.max) ?? textProblem(trimmed, maxLength: maxLength) {
                return .failure(problem)
            }
            if trimmed.isEmpty, !storesEmptyText { return .success(nil) }
            return .success(.string(trimmed))
        case .wholeNumber(let range):
            let trimmed = text.trimmingWhitespaceAndNewlines()
            if trimmed.isEmpty { return .success(nil) }
            guard let number = Self.wholeNumber(trimmed, allowingSign: range.lowerBound < 0),
                  range.contains(number) else {
                return .failure(wholeNumberError(range))
            }
            return .success(.integer(number))
        default:
            return parseFormAnswer(text)
        }
    }

    /// Text shown for whatever is stored, of any type (an age stored as the string "thirty"
    /// shows "thirty"; integer 35 shows "35"; missing shows ""). What exports and messages
    /// write: a decimal as JavaRosa serialises it (`5.0`).
    public func displayText(_ value: PropertyValue?) -> String {
        guard let value else { return "" }
        return Self.describe(value)
    }

    /// What the form shows a keyer: `displayText`, but a decimal as it was keyed, `8` not
    /// `8.0`, and never with an exponent (XPath's number-to-string; issue 30). Exports keep
    /// JavaRosa's `8.0`, which ODK's tools read.
    public func screenText(_ value: PropertyValue?) -> String {
        if case .real(let number)? = value { return FormValue.text(of: number) }
        return displayText(value)
    }

    /// Whether a stored value obeys the field's rule (missing counts as valid).
    public func accepts(_ value: PropertyValue?) -> Bool {
        guard let value else { return true }
        switch (kind, value) {
        case (.text(let maxLength), .string(let text)):
            return textProblem(text, maxLength: maxLength) == nil
        case (.wholeNumber(let range), .integer(let number)):
            return range.contains(number)
        case (.text, _), (.wholeNumber, _):
            return false
        default:
            if case .success(let parsed) = parseFormAnswer(Self.describe(value)) { return parsed == value }
            return false
        }
    }

    // MARK: - Rules

    private func textProblem(_ text: String, maxLength: Int) -> FieldError? {
        if text.unicodeScalars.contains(where: Self.isRefusedWhenTyped) {
            return FieldError("\(label) cannot hold control characters")
        }
        if text.count > maxLength {
            return FieldError("\(label) is limited to \(maxLength) characters")
        }
        return nil
    }

    private func wholeNumberError(_ range: ClosedRange<Int>) -> FieldError {
        if range == Int.min...Int.max { return FieldError("\(label) must be a whole number") }
        return FieldError("\(label) must be a whole number from \(range.lowerBound) to \(range.upperBound), or empty")
    }

    /// XML-forbidden characters can never be saved; DEL and C1 controls could be, but they
    /// are invisible, never part of a real answer, and some terminals act on them.
    public static func isRefusedWhenTyped(_ scalar: Unicode.Scalar) -> Bool {
        XMLCharacters.isForbidden(scalar) || (scalar.isControlCharacter && scalar.value >= 0x7F)
    }

    /// ASCII digits only (an optional leading "-" or "+" when the range allows negatives, as
    /// xsd:int writes a sign), so that "4.5", "1e2" or non-ASCII digits are refused rather
    /// than reinterpreted; the original age (0…150) takes no sign at all.
    private static func wholeNumber(_ text: String, allowingSign: Bool) -> Int? {
        var digits = Substring(text)
        if allowingSign, digits.first == "-" || digits.first == "+" { digits = digits.dropFirst() }
        guard !digits.isEmpty, digits.unicodeScalars.allSatisfy({ ("0"..."9").contains($0) }) else { return nil }
        // The whole text, sign included, so the lowest Int (whose magnitude is no Int) reads too.
        return Int(text)
    }

    // MARK: - Display of any stored type

    public static func describe(_ value: PropertyValue) -> String {
        switch value {
        case .string(let text): return text
        case .integer(let number): return String(number)
        case .real(let number): return String(number)
        case .bool(let flag): return flag ? "true" : "false"
        case .date(let date): return CivilTime.iso8601(date)
        case .data(let data): return "(data, \(SurveyValues.counted(data.count, "byte")))"
        case .array(let items): return "(list of \(SurveyValues.counted(items.count, "item")))"
        case .dictionary(let entries): return "(dictionary of \(SurveyValues.counted(entries.count, "entry", "entries")))"
        }
    }
}
