import SurveyValues
import SurveyForms
/// A survey as it comes in from the other side (a database pull, or another laptop's file):
/// plain values, so the PostgreSQL half fills them from rows and `SyncPlan.apply` never
/// touches a file or a connection.
public struct IncomingVersion: Equatable, Sendable {
    public var id: String
    /// Every value but the id, packed as a survey is (`Record`): a pull of 100,000 surveys
    /// reads each straight into these bytes (`PropertyValue.storedAnswers(jsonObject:)`), and a
    /// survey new here is added from them as they are, with no dictionary built on the way.
    package var packed: Record
    /// Every value but the id; nested answers and unknown keys whole. `formID` and
    /// `formVersion` are among them when the survey has them. A dictionary built on demand.
    public var answers: [String: PropertyValue] {
        get { packed.values }
        set { packed = Record(newValue) }
    }
    /// nil only when the other side gives none (then the content names it).
    public var revision: SyncRevision?
    /// A tombstone: deleted there; `answers` are its last.
    public var deleted: Bool
    public var review: SyncReview?
    /// The other side says the survey has no review (a server row whose review a supervisor
    /// cleared), where `review` nil alone says nothing (another laptop's copy may not know).
    public var reviewCleared = false
    /// The device that last changed it, for people reading a conflict.
    public var device: String?
    /// This laptop's own push come back: written by its role from its device. Met with no
    /// base here (a push killed after the server kept it, before the laptop noted it), it is
    /// the base: what this laptop sent. A change here since is its own edit of it, never a
    /// conflict with itself (issue 28). Nobody else can write a row this role owns.
    public var ownPush = false
    /// This laptop's own edit come back: written by its role from its device, edited from
    /// `ownEditFrom`. Met where the base here is that very revision and this one is the next
    /// (an edit pushed, then the push killed before the laptop heard), it is the base: a
    /// change here since goes out as an edit of it, never a conflict with itself (issue 28).
    /// A data manager's fix keeps the row's earlier `base_revision`, so it never looks so.
    public var ownEditFrom: SyncRevision?

    /// `formID`/`formVersion` (a database keeps them in their own columns) are put among the
    /// answers when the answers lack them.
    public init(id: String, answers: [String: PropertyValue], revision: SyncRevision?, deleted: Bool = false,
                review: SyncReview? = nil, formID: String? = nil, formVersion: String? = nil, device: String? = nil) {
        self.id = id
        var answers = answers
        answers.removeValue(forKey: Record.instanceIDKey)
        if let formID, !formID.isEmpty, answers[Questionnaire.formIDKey] == nil { answers[Questionnaire.formIDKey] = .string(formID) }
        if let formVersion, !formVersion.isEmpty, answers[Questionnaire.formVersionKey] == nil {
            answers[Questionnaire.formVersionKey] = .string(formVersion)
        }
        self.packed = Record(answers)
        self.revision = revision ?? SyncRevision.content(of: answers, deleted: deleted)
        self.deleted = deleted
        self.review = review
        self.device = device
    }

    /// The same from answers already packed (a pull's): the id taken out and the form's id and
    /// version put in as above, each only when needed, the bytes otherwise kept as they are.
    package init(id: String, packed answers: Record, revision: SyncRevision, deleted: Bool = false,
                 review: SyncReview? = nil, formID: String? = nil, formVersion: String? = nil, device: String? = nil) {
        self.id = id
        var answers = answers
        if answers[Record.instanceIDKey] != nil { answers[Record.instanceIDKey] = nil }
        if let formID, !formID.isEmpty, answers[Questionnaire.formIDKey] == nil {
            answers[Questionnaire.formIDKey] = .string(formID)
        }
        if let formVersion, !formVersion.isEmpty, answers[Questionnaire.formVersionKey] == nil {
            answers[Questionnaire.formVersionKey] = .string(formVersion)
        }
        self.packed = answers
        self.revision = revision
        self.deleted = deleted
        self.review = review
        self.device = device
    }

    var version: SyncLedger.Version { SyncLedger.Version(packed: packed, revision: revision, deleted: deleted) }
}

/// A survey changed here since its base, to send: new (no base revision), edited, or
/// deleted (a tombstone carrying its last answers). `SyncPlan.acknowledge` records the
/// revision the other side gave it.
public struct OutgoingChange: Equatable, Sendable {
    public var id: String
    /// Packed (`Record`): a first push of 100,000 surveys holds them all until acknowledged.
    var packed: Record
    public var answers: [String: PropertyValue] {
        get { packed.values }
        set { packed = Record(newValue) }
    }
    public var deleted: Bool
    /// An incomplete interview (`Record.isIncomplete`), read off the packed answers.
    public var isIncomplete: Bool { packed.isIncomplete }
    /// The revision it was edited from; nil for a survey the other side never had.
    public var baseRevision: SyncRevision?
    /// `edited` when it answers a review that asked for a fix (`hasIssues`, `rejected`).
    public var review: ReviewState?
    public var device: String

    public init(id: String, answers: [String: PropertyValue], deleted: Bool, baseRevision: SyncRevision?,
                review: ReviewState?, device: String) {
        self.init(id: id, packed: Record(answers), deleted: deleted, baseRevision: baseRevision, review: review, device: device)
    }

    init(id: String, packed: Record, deleted: Bool, baseRevision: SyncRevision?, review: ReviewState?, device: String) {
        self.id = id
        self.packed = packed
        self.deleted = deleted
        self.baseRevision = baseRevision
        self.review = review
        self.device = device
    }

    public var formID: String? { Self.text(packed[Questionnaire.formIDKey]) }
    public var formVersion: String? { Self.text(packed[Questionnaire.formVersionKey]) }

    private static func text(_ value: PropertyValue?) -> String? {
        if case .string(let text)? = value, !text.isEmpty { return text }
        return nil
    }
}

/// A document as a sync sees it: its surveys, the ones deleted from it (its
/// `.NAME.deleted.plist`), and its ledger. What the store reads before, and writes after.
public struct SyncState: Equatable, Sendable {
    public var records: [Record]
    public var deleted: [DeletedRecord]
    public var ledger: SyncLedger

    public init(records: [Record], deleted: [DeletedRecord] = [], ledger: SyncLedger = SyncLedger()) {
        self.records = records
        self.deleted = deleted
        self.ledger = ledger
    }
}

/// What happened to one survey, for `--dry-run` and the summary line.
public struct SyncEvent: Equatable, Sendable {
    public enum Kind: String, Sendable {
        /// New here.
        case added
        /// Unchanged here: taken as it is there.
        case fastForwarded
        /// Changed on both sides, in different answers.
        case merged
        /// Changed on both sides in the same answers (or edited here, deleted there).
        case conflicted
        /// Deleted there and unchanged here: moved to the deleted surveys.
        case deleted
        /// Both sides hold the same answers now.
        case agreed
        /// A review state came in.
        case reviewed
    }

    public var kind: Kind
    public var id: String
    /// For `conflicted`: the paths.
    public var fields: [SyncFieldPath]

    public init(_ kind: Kind, _ id: String, fields: [SyncFieldPath] = []) {
        self.kind = kind
        self.id = id
        self.fields = fields
    }
}
