/// A supervisor's verdict on one survey, as ODK Central's review states: received by a
/// pull, shown to the enumerator, and answered by a fix that goes back as `edited`.
public enum ReviewState: String, CaseIterable, Sendable {
    case approved
    case hasIssues
    case rejected
    case edited
}

public struct SyncReview: Equatable, Sendable {
    public var state: ReviewState
    /// The supervisor's words (`hasIssues` carries one; the others may).
    public var comment: String?

    public init(_ state: ReviewState, comment: String? = nil) {
        self.state = state
        self.comment = comment
    }
}

extension SyncReview {
    /// A verdict that asks the enumerator for a fix: the survey is in the "sent back" list
    /// until the fix goes out (the server then marks it `edited`).
    public var sendsBack: Bool { state == .hasIssues || state == .rejected }
}
