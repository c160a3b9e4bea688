import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif
import SurveyValues
import SurveyForms

/// What one document knows about its surveys' sync, kept in `.NAME.sync.plist` beside it
/// (a companion: it moves, goes to the trash and comes back with the document). For each
/// survey the *base*: the answers both sides last agreed on and the revision they had, so a
/// later change on either side is told apart from the other's (the three-way merge needs
/// it, and "changed here since" is answers ≠ base). Per document: the database's pull
/// cursor, the time of the last sync, the conflicts not yet resolved, the review states
/// received, whose each survey is and the role this laptop synced as. Never a credential: connection strings stay in the environment and libpq's
/// own files.
public struct SyncLedger: Equatable, Sendable {
    /// One version of a survey as both sides knew it (or, in a conflict, as the other
    /// side has it).
    public struct Version: Equatable, Sendable {
        /// Every value but the id, packed as a survey is (`Record`): a ledger of 100,000
        /// bases held as dictionaries took 60 MB more than the document itself.
        var packed: Record
        public var revision: SyncRevision?
        /// A tombstone: the survey was deleted; `answers` are its last.
        public var deleted: Bool

        /// Every value but the id (a dictionary built on demand).
        public var answers: [String: PropertyValue] {
            get { packed.values }
            set { packed = Record(newValue) }
        }

        public init(answers: [String: PropertyValue], revision: SyncRevision?, deleted: Bool = false) {
            packed = Record(answers)
            self.revision = revision
            self.deleted = deleted
        }

        init(packed: Record, revision: SyncRevision?, deleted: Bool) {
            self.packed = packed
            self.revision = revision
            self.deleted = deleted
        }

        /// Whether `record` holds these answers (its id aside), compared as packed bytes
        /// when both are in the canonical order, without building either dictionary.
        ///
        /// The record's bytes are compared in place around its id's entry: a sync asks this
        /// of every survey, and cutting the id out first copied each one (100,000 copies
        /// made and dropped at every sync of a large document).
        public func holdsSameAnswers(as record: Record) -> Bool {
            if Self.sameBytes(record.packed, withoutIDAs: packed.packed) { return true }
            if PackedAnswers.isCanonical(record.packed), PackedAnswers.isCanonical(packed.packed) { return false }
            var answers = record
            answers[Record.instanceIDKey] = nil
            return answers == packed
        }

        /// Whether `record`'s bytes, its id's entry left out, are `answers`' bytes.
        static func sameBytes(_ record: [UInt8], withoutIDAs answers: [UInt8]) -> Bool {
            record.withUnsafeBufferPointer { r in
                answers.withUnsafeBufferPointer { a in
                    var cut = r.count..<r.count
                    PackedAnswers.forEachEntry(in: r) { entry in
                        guard entry.code == Record.instanceIDCode else { return true }
                        cut = entry.whole
                        return false
                    }
                    guard r.count - cut.count == a.count else { return false }
                    let tail = r.count - cut.upperBound
                    return (cut.lowerBound == 0 || memcmp(r.baseAddress!, a.baseAddress!, cut.lowerBound) == 0)
                        && (tail == 0 || memcmp(r.baseAddress! + cut.upperBound, a.baseAddress! + cut.lowerBound, tail) == 0)
                }
            }
        }
    }

    /// A survey whose answers clash: the other side's whole version (it becomes the base
    /// once every field is resolved, so the resolution goes out as an edit of it) and the
    /// fields still to choose.
    public struct Conflict: Equatable, Sendable {
        public var theirs: Version
        public var fields: [FieldConflict]

        public init(theirs: Version, fields: [FieldConflict]) {
            self.theirs = theirs
            self.fields = fields
        }
    }

    /// By survey id.
    public var bases: LedgerTable<Version> = [:]
    /// Where the next pull starts (the database half's cursor); nil before the first.
    public var pullCursor: Int64? {
        didSet { if let pullCursor { ownChanges.removeAll { $0.upperBound <= pullCursor } } }
    }
    /// The change numbers of this laptop's own pushes not yet passed by the cursor: a pull
    /// skips them, as the surveys are here already (issue 28: a laptop that pushed 100,000
    /// surveys pulled them all back). One range per pushed batch; they leave as the cursor
    /// passes them.
    public var ownChanges: [ClosedRange<Int64>] = []
    /// Which of the server's datasets the cursor and own changes are of: a document's
    /// dataset is its form's id, else, once synced, this (a renamed formless document keeps
    /// its team), else its name, so attaching a form changes it, and a cursor moved along one
    /// dataset would pass over the other's rows. A sync of another dataset starts from nothing (what it brings again changes
    /// nothing).
    public var pullDataset: String?

    /// Keeps the cursor only if it is of `dataset`.
    public mutating func pull(from dataset: String) {
        guard pullDataset != dataset else { return }
        if pullCursor != nil || !ownChanges.isEmpty || pullDataset != nil {
            pullCursor = nil
            ownChanges = []
        }
        pullDataset = dataset
    }
    public var lastSync: Date?
    /// By survey id; a survey listed here does not go out until resolved.
    public var conflicts: LedgerTable<Conflict> = [:]
    /// By survey id: the last review state received, or sent (`edited`).
    public var reviews: LedgerTable<SyncReview> = [:]
    /// Surveys on the server this laptop could not keep, oldest first (at most
    /// `SetAsideRow.kept`); one leaves the list when a version of it comes that it can keep.
    public var setAside: [SetAsideRow] = []
    /// By survey id: the login role the team's server says owns it (pulls, this laptop's
    /// accepted pushes, a refusal), which alone may change it (row-level security); for a
    /// survey merged from another laptop's copy before the server has it, the role that copy
    /// last synced as, "" when it never synced (no role is named ""). `SyncLedger+Owners`.
    public var owners: LedgerTable<String> = [:]
    /// The login role of this laptop's last sync (`current_user`); nil before the first.
    public var role: String?
    /// By survey id: why its edits not yet taken by the server were made, from the laptop's
    /// edit history (`ChangeReasons`), kept until the push of an edit of it is accepted, so
    /// an edit refused as stale, or made while a sync ran, still goes with its reason.
    public var pendingReasons: [String: String] = [:]
    /// How many entries of the edit history the pending reasons were read from (the history
    /// is only added to).
    public var historyEntriesRead = 0

    public init() {}

    /// The token of the ledger file this was read from, new at each whole write: a journal
    /// extends only the file whose token it names (`SyncLedgerJournal`). Not part of what the
    /// ledger knows: two ledgers are equal whatever files they came from.
    var fileToken = FileToken()

    /// The file a ledger read in part reads its entries from (`PartialLedger`); none for a
    /// whole ledger. Not part of what the ledger knows.
    var partialFile = PartialFile()

    struct FileToken: Equatable, Sendable {
        var value: String?
        /// How much of the journal this ledger was read with (the end of its last chunk that
        /// could be read), nil when none extends the file: an append cuts the journal back to
        /// it, so a chunk torn by a crash never hides the ones after it.
        var journalEnd: Int?
        static func == (_: Self, _: Self) -> Bool { true }

        /// The token of the next whole write after a file of `self`: `LINE-N` becomes `LINE-N+1`,
        /// LINE being random, drawn at the ledger's first write. Never the token before, so a
        /// journal left from the old file is never taken for the new one's; counted rather
        /// than drawn each time, so the same ledger written over the same file is the same
        /// bytes (a failed commit tried again writes what the first would have).
        func next() -> FileToken {
            if let value, let dash = value.lastIndex(of: "-"), let count = Int(value[value.index(after: dash)...]), count >= 1,
               count < Int.max {
                return FileToken(value: value[..<dash] + "-\(count + 1)", journalEnd: nil)
            }
            var generator = SystemRandomNumberGenerator()
            let line = String(generator.next() as UInt64, radix: 16) + String(generator.next() as UInt64, radix: 16)
            return FileToken(value: line + "-1", journalEnd: nil)
        }
    }

    /// The largest ledger file survey reads, and so writes: each survey's base is a copy of
    /// its answers, so the ledger of a document is about twice its size (533 MB for a
    /// million surveys), beyond the 512 MB a document may be.
    public static let maximumFileBytes = 2 << 30

    /// Notes `row` as set aside, in place of an earlier note of the same id.
    public mutating func setAside(_ row: SetAsideRow) {
        setAside.removeAll { $0.id == row.id }
        setAside.append(row)
        if setAside.count > SetAsideRow.kept { setAside.removeFirst(setAside.count - SetAsideRow.kept) }
    }

    /// The surveys whose entries changed since the ledger was read or written, each table's
    /// changes together (`LedgerTable`): what a journal append carries. nil when that is not
    /// known (a table replaced whole, too many changed, a ledger made here): it is then written whole.
    public var changedIDs: Set<String>? {
        guard let b = bases.changed, let o = owners.changed, let c = conflicts.changed, let r = reviews.changed else {
            return nil
        }
        let all = b.union(o).union(c).union(r)
        return all.count > LedgerTable<Version>.mostNoted ? nil : all
    }

    /// The ledger is as its files hold it: what changes next is noted afresh.
    mutating func forgetChanges() {
        bases.forgetChanges()
        owners.forgetChanges()
        conflicts.forgetChanges()
        reviews.forgetChanges()
    }

    /// Whether nothing is known: such a ledger is not written. One read in part is of a file
    /// that holds entries.
    public var isEmpty: Bool {
        !isPartial && bases.isEmpty && pullCursor == nil && lastSync == nil && conflicts.isEmpty && reviews.isEmpty && setAside.isEmpty
            && ownChanges.isEmpty && owners.isEmpty && role == nil && pullDataset == nil && pendingReasons.isEmpty
            && historyEntriesRead == 0
    }

    /// Every unresolved field, by survey id then as found: what `survey conflicts` lists.
    public var conflictList: [(id: String, field: FieldConflict)] {
        conflicts.keys.sorted().flatMap { id in conflicts[id]!.fields.map { (id, $0) } }
    }
}
