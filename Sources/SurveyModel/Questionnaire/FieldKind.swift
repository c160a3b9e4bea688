/// The rule a field's answers obey. Kept as data (not subclasses or closures) so a
/// questionnaire, the original five fields or a designer's XLSForm, compares for equality
/// and every screen can be drawn from it in a test.
public enum FieldKind: Equatable, Sendable {
    /// Free text of at most `maxLength` user-perceived characters.
    case text(maxLength: Int)
    /// A whole number within the range, or no answer at all.
    case wholeNumber(ClosedRange<Int>)
    /// A number that may have a fractional part (XLSForm `decimal`), stored as a real.
    case decimal
    /// `YYYY-MM-DD`, `HH:MM[:SS]`, ISO 8601 date and time: stored as the text typed.
    case date, time, dateTime
    /// One or several of a list's choices, stored by name (several separated by spaces).
    /// `names` are the whole list; `choice_filter` may show fewer.
    case choice(list: String, names: [String], multiple: Bool)
    /// `acknowledge`: answered "OK" or not at all.
    case acknowledge
    /// Text the form shows and nobody answers.
    case note
    /// A value the form computes (`calculate`); shown, never typed.
    case calculated
    /// A group's heading (`begin group`) and its end: structure, not answers.
    case groupStart, groupEnd
    /// `start`, `end`, `today`, `deviceid`: filled in by the app when a survey is added.
    case metadata(String)
    /// A question a terminal cannot collect (image, geopoint, repeat…): shown, not asked.
    case notCollected(String)

    /// Whether a person answers it on the form.
    public var isAnswered: Bool {
        switch self {
        case .text, .wholeNumber, .decimal, .date, .time, .dateTime, .choice, .acknowledge: return true
        case .note, .calculated, .groupStart, .groupEnd, .metadata, .notCollected: return false
        }
    }

    /// Answered by picking from a list (the picker popover) rather than by typing.
    public var isPicked: Bool {
        switch self {
        case .choice, .acknowledge: return true
        default: return false
        }
    }
}
