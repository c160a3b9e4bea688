import FoundationEssentials
import SurveyValues

/// One line of a document's verification record (`.NAME.verify.plist`, beside the document):
/// a survey chosen for verification, one question's outcome, a survey found fully verified,
/// or a survey keyed (its keys and time, for the keyer statistics). Every line names who
/// (`DeviceMetadata.username`: the login, or `SURVEY_USERNAME`) and when, so
/// `KeyerStatistics` counts them per keyer and day. Lines are only ever added.
public struct VerificationEntry: Equatable, Sendable {
    public enum Kind: String, CaseIterable, Equatable, Sendable {
        /// `survey verify` (or the app) chose the survey to be verified.
        case chosen
        /// The verifier keyed what was stored: the question is verified.
        case same = "verified"
        /// Keyed twice the same new way: the stored value was the keyer's mistake and is replaced.
        case keyerError = "keyer error"
        /// Keyed differently, then the stored value: the verifier's own slip.
        case verifierError = "verifier error"
        /// Every question verification asks of the survey is verified.
        case finished = "survey verified"
        /// A survey keyed in the app: its keys and the time it took (CSPro's operator statistics).
        case keyed

        /// A question's outcome (counted as a field verified).
        public var isOutcome: Bool { self == .same || self == .keyerError || self == .verifierError }
    }

    public var kind: Kind
    /// The survey's `instanceID`.
    public var survey: String
    /// The question, as ODK names an instance (`tree[2]/dbh`); "" for a line about the survey.
    public var path: String
    /// Who: the verifier of an outcome, the keyer of `keyed`.
    public var login: String
    public var date: Date
    /// What was stored before, and what the verifier keyed, as the form shows them.
    public var stored: String?
    public var keyedValue: String?
    /// `keyed`: keys pressed on the survey and seconds spent keying it.
    public var keys: Int?
    public var seconds: Double?

    public init(kind: Kind, survey: String, path: String = "", login: String, date: Date,
                stored: String? = nil, keyedValue: String? = nil, keys: Int? = nil, seconds: Double? = nil) {
        self.kind = kind
        self.survey = survey
        self.path = path
        self.login = login
        self.date = date
        self.stored = stored
        self.keyedValue = keyedValue
        self.keys = keys
        self.seconds = seconds
    }

    /// As the file holds it: one dictionary of plain keys plistlib reads.
    public var dictionary: [String: PropertyValue] {
        var d: [String: PropertyValue] = ["kind": .string(kind.rawValue), "survey": .string(survey),
                                          "login": .string(login), "date": .date(date)]
        if !path.isEmpty { d["path"] = .string(path) }
        if let stored { d["stored"] = .string(stored) }
        if let keyedValue { d["keyed"] = .string(keyedValue) }
        if let keys { d["keys"] = .integer(keys) }
        if let seconds { d["seconds"] = .real(seconds) }
        return d
    }

    /// A line read back; nil for one not shaped as this code writes them (skipped, kept in the file).
    public init?(dictionary d: [String: PropertyValue]) {
        guard case .string(let k)? = d["kind"], let kind = Kind(rawValue: k),
              case .string(let survey)? = d["survey"], !survey.isEmpty,
              case .date(let date)? = d["date"] else { return nil }
        func text(_ key: String) -> String? { if case .string(let s)? = d[key] { s } else { nil } }
        self.init(kind: kind, survey: survey, path: text("path") ?? "", login: text("login") ?? "", date: date,
                  stored: text("stored"), keyedValue: text("keyed"))
        switch d["keys"] { case .integer(let n)?: keys = n; default: break }
        switch d["seconds"] { case .real(let s)?: seconds = s; case .integer(let n)?: seconds = Double(n); default: break }
    }
}
