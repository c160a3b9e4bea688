import SurveyValues
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
    /// `geopoint`, `geotrace`, `geoshape`, typed as ODK stores them: `lat lon [alt [acc]]`,
    /// points separated by `;` for a trace or a shape (`GeoAnswer`).
    case geo(Geometry)
    /// `range` with its `parameters` (`start=1 end=10 step=1`): a number on the steps from
    /// start to end, stored as a whole number when all three are whole (as pyxform types it).
    case range(start: Double, end: Double, step: Double)
    /// `rank LIST`: every choice of the list once, in the order given, names separated by spaces.
    case rank(list: String, names: [String])
    /// `image`, `audio`, `video`, `file`: the answer is a file name in the document's media
    /// folder (`NAME.media/`), where the file given was copied, as ODK stores attachments.
    case attachment(String)
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
        case .text, .wholeNumber, .decimal, .date, .time, .dateTime, .choice, .acknowledge,
             .geo, .range, .rank, .attachment: return true
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

extension FieldKind {
    /// What a geo question collects: one point, an open line of points, or a closed shape.
    /// What an empty answer of this kind shows, dimmed, so the format is known before a
    /// mistake (issue 30: a date typed `5/12/26` was refused only after Enter): nil for kinds
    /// whose answer is plain text or chosen.
    public var formatHint: String? {
        switch self {
        case .date: "YYYY-MM-DD"
        case .time: "HH:MM"
        case .dateTime: "YYYY-MM-DD HH:MM"
        case .geo(.point): "latitude longitude [altitude accuracy]"
        case .geo: "lat lon; lat lon; …"
        case .attachment: "a file path (copied into the document's media)"
        default: nil
        }
    }

    public enum Geometry: String, Equatable, Sendable {
        case point = "geopoint", trace = "geotrace", shape = "geoshape"
    }
}
