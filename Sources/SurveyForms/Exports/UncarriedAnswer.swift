import SurveyValues
/// An answer an export format has no place for, found before anything is written: a roster
/// (a list of dictionaries: a repeat's members) in the plain CSV, any other list or
/// dictionary in a CSV cell or an XML element, a key no XML element can be named. Written as text (`(list of 2 items)`) it would come back from
/// `survey import` as that text, silently, so the export is refused instead, naming the
/// answer and the format that carries it.
public struct UncarriedAnswer: Error, Equatable, CustomStringConvertible {
    /// Where the answer is: `member`, or inside a roster `member[2]/tags`.
    public let path: String
    public let reason: Reason
    /// How many surveys hold one.
    public let surveys: Int
    /// The format asked for, as a sentence begins: "The plain CSV", "ODK's CSV set".
    public let format: String

    public init(path: String, reason: Reason, surveys: Int = 1, format: String) {
        self.path = path
        self.reason = reason
        self.surveys = surveys
        self.format = format
    }

    public enum Reason: Equatable, Sendable {
        case roster, nested, notAnElementName
    }

    public var description: String {
        let holders = SurveyValues.counted(surveys, "survey")
        switch reason {
        case .roster:
            return "\(format) has no place for the roster “\(path)” (\(holders) \(surveys == 1 ? "holds" : "hold") members): export it with "
                + "--format odk-csv --output FOLDER (a table per roster, joined by KEY and PARENT_KEY) or --format json; "
                + "nothing was written"
        case .nested:
            return "\(format) has no place for “\(path)”, a list or dictionary (in \(holders)): export it with "
                + "--format json or --format plist; nothing was written"
        case .notAnElementName:
            return "\(format) has no place for the answer “\(path)”: no XML element can have that name "
                + "(export it with --format odk-csv --output FOLDER or --format json); nothing was written"
        }
    }

    /// A value no CSV cell holds as itself.
    static func isNested(_ value: PropertyValue) -> Bool {
        switch value {
        case .array, .dictionary: return true
        default: return false
        }
    }

    /// The first key (in `keys`' order) whose value is nested in any of `rows`, with how
    /// many rows hold such a value there; nil when there is none.
    static func first(in rows: [[String: PropertyValue]], keys: [String], format: String,
                      prefix: String = "") -> UncarriedAnswer? {
        for key in keys {
            let holding = rows.filter { $0[key].map(isNested) ?? false }
            guard !holding.isEmpty else { continue }
            let roster = holding.allSatisfy { $0[key].map(ODKTables.isRoster) ?? false }
            return UncarriedAnswer(path: prefix + key, reason: roster ? .roster : .nested, surveys: holding.count, format: format)
        }
        return nil
    }
}

extension Questionnaire {
    /// The first answer of `records` the plain CSV has no place for (a roster, a list, a
    /// dictionary), checked before a CSV export writes anything; nil when every answer fits
    /// a cell. With a designer's form every key is exported; the original five export their
    /// five fields only.
    public func csvUncarried(_ records: [Record]) -> UncarriedAnswer? {
        let keys: [String]
        if isOriginalFive {
            keys = recordFields.map(\.key)
        } else {
            keys = knownRecordKeys + unknownRecordKeys(in: records)
        }
        return UncarriedAnswer.first(in: records.map(\.values), keys: keys, format: "The plain CSV")
    }
}
