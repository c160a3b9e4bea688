import FoundationEssentials
import SurveyValues
import SurveyForms
import SurveyStorage

/// A survey as the laptop sends it: its answers as they are now, and the server revision
/// they were edited from (nil for a survey the server has never had). Plain values: the
/// sync ledger (SurveyStorage/Sync) decides what to send, this module only carries it.
public struct OutgoingRow: Equatable, Sendable {
    public var instanceID: String
    /// The document's form id, or the document's name when it has no form.
    public var dataset: String
    /// Every answer but `instanceID` (the row's key), nested answers and unknown keys whole.
    public var answers: [String: PropertyValue]
    public var formID: String?
    public var formVersion: String?
    public var device: String?
    public var baseRevision: Int64?
    /// A tombstone: the survey was deleted, its answers are kept so it can be recovered.
    public var deleted: Bool
    /// Why this edit was made, as the keyer said since the last sync (`ChangeReasons`); kept on
    /// the server with the revision it makes. Nil for a new survey (an Add is not an edit).
    public var reason: String?

    public init(instanceID: String, dataset: String, answers: [String: PropertyValue], formID: String? = nil,
                formVersion: String? = nil, device: String? = nil, baseRevision: Int64? = nil, deleted: Bool = false,
                reason: String? = nil) {
        self.instanceID = instanceID
        self.dataset = dataset
        var answers = answers
        answers.removeValue(forKey: Record.instanceIDKey)
        self.answers = answers
        self.formID = formID
        self.formVersion = formVersion
        self.device = device
        self.baseRevision = baseRevision
        self.deleted = deleted
        self.reason = reason
    }
}

/// A survey as the server has it, from a pull.
public struct IncomingRow: Equatable, Sendable {
    public var instanceID: String
    public var dataset: String
    /// The answers, read from the server's JSON straight into a survey's packed form
    /// (`PropertyValue.storedAnswers(jsonObject:)`): a pull of 100,000 builds no dictionary.
    public var packedAnswers: Record
    /// The answers as a dictionary, built on demand.
    public var answers: [String: PropertyValue] {
        get { packedAnswers.values }
        set { packedAnswers = Record(newValue) }
    }
    public var formID: String?
    public var formVersion: String?
    public var device: String?
    /// The login role that first pushed it: only that role may change it (row-level security).
    public var owner: String
    public var revision: Int64
    public var baseRevision: Int64?
    public var deleted: Bool
    public var review: Review?
    public var createdAt: Date
    public var updatedAt: Date
    /// Its place in the server's change order: a pull after this number no longer brings it,
    /// unless it changes again.
    public var change: Int64
}

/// A review as the server keeps it: ODK Central's states (SurveyValues' `ReviewState`, the
/// one the ledger keeps too; `edited` is set by the server when an enumerator changes a survey
/// that had been reviewed), who set it and when.
public struct Review: Equatable, Sendable {
    public var state: ReviewState
    public var comment: String?
    public var by: String?
    public var at: Date?
}

/// What became of one pushed row.
public struct PushResult: Equatable, Sendable {
    public enum Outcome: Equatable, Sendable {
        /// Stored; the server's revision now.
        case accepted(revision: Int64)
        /// Already on the server exactly as sent, by this role (a push re-run after it was cut
        /// off before it heard the answer): "yours already, revision R".
        case alreadyThere(revision: Int64)
        /// Someone changed it since `baseRevision` (or has it, for a new row): pull first, merge,
        /// then push again. `current` is the server's revision.
        case stale(current: Int64)
        /// Row-level security: another role owns it.
        case refused(owner: String)
        /// An edit of a survey the server does not have.
        case missing
        /// A new survey whose id the server already has among another dataset's surveys (another
        /// form's or document's: a survey copied, id and all, into a second document): not
        /// stored, and no pull of this dataset brings it, so sending it again never helps.
        case inOtherDataset(String)
    }

    public var instanceID: String
    public var outcome: Outcome

    public init(instanceID: String, outcome: Outcome) {
        self.instanceID = instanceID
        self.outcome = outcome
    }

    /// Whether the server now holds what was sent.
    public var isStored: Bool {
        switch outcome {
        case .accepted, .alreadyThere: return true
        default: return false
        }
    }
}

/// How far a push has got: called after each batch is committed.
public struct PushProgress: Equatable, Sendable {
    public var sent: Int
    public var total: Int
}
