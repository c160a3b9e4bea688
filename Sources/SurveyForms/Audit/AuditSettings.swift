import SurveyValues

/// What a form's `audit` row asks for (its `parameters`, as XLSForm and ODK Collect read
/// them): the audit log's optional columns. Location (`location-priority`,
/// `location-min-interval`, `location-max-age`) is accepted and ignored: a laptop has no
/// position to log, so the log never has Collect's latitude, longitude and accuracy columns.
public struct AuditSettings: Equatable, Sendable {
    /// `track-changes=true`: each question's answer before and after (`old-value,new-value`).
    public var trackChanges: Bool
    /// `identify-user=true`: who keys is asked at the start of each session (`user`).
    public var identifyUser: Bool
    /// `track-changes-reasons=on-form-edit`: saving a change to a stored survey asks why
    /// (`change-reason`).
    public var changeReasons: Bool

    public init(trackChanges: Bool = false, identifyUser: Bool = false, changeReasons: Bool = false) {
        self.trackChanges = trackChanges
        self.identifyUser = identifyUser
        self.changeReasons = changeReasons
    }

    /// The settings of the form's `audit` row; nil when it has none (no log is kept).
    public init?(form: XLSForm?) {
        guard let row = form?.questions.first(where: { $0.kind == .metadata("audit") }) else { return nil }
        func on(_ name: String, _ word: String) -> Bool {
            row.parameters[name]?.trimmingWhitespace().lowercased() == word
        }
        self.init(trackChanges: on("track-changes", "true"), identifyUser: on("identify-user", "true"),
                  changeReasons: on("track-changes-reasons", "on-form-edit"))
    }

    /// The first line of the `audit.csv` Collect writes with these settings
    /// (`AuditEventSaveTask.getHeader`).
    public var header: String {
        "event,node,start,end" + (trackChanges ? ",old-value,new-value" : "") + (identifyUser ? ",user" : "")
            + (changeReasons ? ",change-reason" : "")
    }
}
