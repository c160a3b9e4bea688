import FoundationEssentials

/// What the app shows of a document's sync (F4, the conflicts view, the list's review and
/// owner marks): read from its ledger and surveys by the runtime, a plain value for the UI
/// core.
public struct SyncSummary: Equatable, Sendable {
    /// One unresolved field of one survey.
    public struct Conflict: Equatable, Sendable {
        public var id: String
        public var path: SyncFieldPath
        public var mine: PropertyValue?
        public var theirs: PropertyValue?

        public init(id: String, path: SyncFieldPath, mine: PropertyValue?, theirs: PropertyValue?) {
            self.id = id
            self.path = path
            self.mine = mine
            self.theirs = theirs
        }
    }

    /// Surveys changed here since they last agreed with the other side (new, edited, deleted).
    public var unsent: Int
    public var lastSync: Date?
    public var conflicts: [Conflict]
    /// By survey id.
    public var reviews: [String: SyncReview] {
        didSet { anyApproved = Self.anyApproved(reviews) }
    }
    /// Whether a supervisor approved any survey: asked before every key of a document that
    /// may ask a reason (`AppState+ChangeReasons`), so worked out when the reviews change,
    /// not by looking over every review at each key.
    public private(set) var anyApproved = false
    /// Surveys on the server this laptop could not keep (`SetAsideRow`).
    public var setAside: Int
    /// By survey id: the owner of each survey that is another role's, which this laptop
    /// does not change (`SyncLedger.othersSurveys`).
    public var othersSurveys: [String: String]

    public init(unsent: Int = 0, lastSync: Date? = nil, conflicts: [Conflict] = [], reviews: [String: SyncReview] = [:],
                setAside: Int = 0, othersSurveys: [String: String] = [:]) {
        self.unsent = unsent
        self.othersSurveys = othersSurveys
        self.setAside = setAside
        self.lastSync = lastSync
        self.conflicts = conflicts
        self.reviews = reviews
        anyApproved = Self.anyApproved(reviews)
    }

    private static func anyApproved(_ reviews: [String: SyncReview]) -> Bool {
        reviews.values.contains { $0.state == .approved }
    }

    /// Nothing synced, nothing to say (a document of one person's laptop).
    public var isEmpty: Bool { lastSync == nil && conflicts.isEmpty && reviews.isEmpty }
}
