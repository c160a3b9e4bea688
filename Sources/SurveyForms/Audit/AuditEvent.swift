import SurveyValues

/// One line of a survey's audit log, ODK Collect's `AuditEvent`: what happened, at which
/// question (`node`, its path as Collect writes it: `/data/group/q`, `/data/household[2]/age`),
/// when (milliseconds since 1970; `end` for the events that last, a question from when it was
/// entered to when it was left), and, as the form's `audit` parameters ask, the answer
/// before and after, who keyed and why a stored survey was changed.
public struct AuditEvent: Equatable, Sendable {
    /// The events survey can honestly log, with Collect's names (`AuditEvent.AuditEventType`).
    public enum Kind: String, Equatable, Sendable, CaseIterable {
        case formStart = "form start"
        case formResume = "form resume"
        case question
        case addRepeat = "add repeat"
        case deleteRepeat = "delete repeat"
        case constraintError = "constraint error"
        case formSave = "form save"
        case formExit = "form exit"
        case formFinalize = "form finalize"
        case changeReason = "change reason"
    }

    /// The survey's instanceID (`uuid:…`); empty on a New form's events until it is added.
    public var survey: String
    public var kind: Kind
    public var node: String
    public var start: Int64
    public var end: Int64?
    /// `track-changes`: the answer when the question was entered and when it was left, both
    /// empty when it did not change (as Collect clears them).
    public var oldValue: String
    public var newValue: String
    /// `identify-user`: who was keying.
    public var user: String?
    /// `track-changes-reasons`: why a stored survey was changed (`change reason` events).
    public var changeReason: String?

    public init(survey: String = "", kind: Kind, node: String = "", start: Int64, end: Int64? = nil,
                oldValue: String = "", newValue: String = "", user: String? = nil, changeReason: String? = nil) {
        self.survey = survey
        self.kind = kind
        self.node = node
        self.start = start
        self.end = end
        self.oldValue = oldValue
        self.newValue = newValue
        self.user = user
        self.changeReason = changeReason
    }

    /// The line Collect writes for it with `settings` (`AuditEventCSVLine.toCSVLine`): the
    /// event, node and times as they are; the answers, user and reason quoted when they hold
    /// a comma, a line break or a quote, their quotes doubled (`CSVUtils`).
    public func collectLine(_ settings: AuditSettings) -> String {
        var line = "\(kind.rawValue),\(node),\(start),\(end.map(String.init) ?? "")"
        if settings.trackChanges { line += "," + Self.escaped(oldValue) + "," + Self.escaped(newValue) }
        if settings.identifyUser { line += "," + Self.escaped(user ?? "") }
        if settings.changeReasons { line += "," + Self.escaped(changeReason ?? "") }
        return line
    }

    /// Collect's `CSVUtils.getEscapedValueForCsv`.
    static func escaped(_ value: String) -> String {
        let doubled = value.replacingEvery("\"", with: "\"\"")
        // Asked of the scalars: a CRLF is one Character, and would not be found as "\n".
        let quoted = value.unicodeScalars.contains { $0 == "," || $0 == "\n" || $0 == "\"" }
        return quoted ? "\"" + doubled + "\"" : doubled
    }
}
