/// One of the ledger's tables by survey id (its bases, owners, conflicts and reviews) that
/// notes every id set or removed since the ledger was last read or written: the surveys
/// whose entries a journal append must carry (`SyncLedgerJournal`). A type of its own, not a
/// dictionary beside a set of ids, so that no change to a table can skip the note: a
/// journal that missed one would forget a conflict or a base for good.
///
/// The note is given up (nil) past `mostNoted` ids, or when a whole table is put in place:
/// the ledger is then written whole, which needs no list of changes. A first pull of 100,000
/// surveys would otherwise keep a set of 100,000 ids beside them for nothing.
///
/// A table of a ledger read in part (`PartialLedger`) holds only the surveys read so far
/// (`known`); asking it of any other survey, or for all of them, stops the program
/// (`precondition`) rather than answer "none" for a survey whose entry was not read: that
/// answer would be wrong data (a base taken for absent pushes a survey as new, an owner
/// taken for absent lets a teammate's survey be changed). A table that holds every survey of
/// its kind though the ledger is partial (`complete`: the conflicts, whose entries are all
/// read) answers for any survey, and changes only those read.
public struct LedgerTable<Value: Equatable & Sendable>: Equatable, Sendable, Sequence, ExpressibleByDictionaryLiteral {
    public var dictionary: [String: Value] { all }
    private var table: [String: Value]
    /// The surveys whose entries were read, nil when every one was (a whole ledger).
    private(set) var known: Set<String>?
    /// Whether the table answers for every survey though the ledger was read in part.
    private(set) var complete = false
    /// The ids changed since `forgetChanges()`; nil when there were too many to note, or the
    /// whole table was replaced (a table made anew, even empty, replaces one: `ledger.conflicts
    /// = [:]` removes every conflict, which a journal would have to be told one by one).
    private(set) var changed: Set<String>?

    /// More changed surveys than this are written as a whole ledger, never a journal entry.
    static var mostNoted: Int { 4_096 }

    public init() { table = [:] }

    /// A table put in place whole: what changed is not known.
    public init(_ dictionary: [String: Value]) {
        table = dictionary
        changed = nil
    }

    public init(dictionaryLiteral elements: (String, Value)...) {
        self.init(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }

    public subscript(id: String) -> Value? {
        get {
            if let known, !complete { precondition(known.contains(id), Self.partialUnread) }
            return table[id]
        }
        set {
            if let known { precondition(known.contains(id), Self.partialUnread) }
            table[id] = newValue
            note(id)
        }
    }

    @discardableResult
    public mutating func removeValue(forKey id: String) -> Value? {
        if let known { precondition(known.contains(id), Self.partialUnread) }
        note(id)
        return table.removeValue(forKey: id)
    }

    /// Made a table of a ledger read in part, holding `ids`' entries as read (`complete`: and
    /// every survey's of its kind). Nothing is noted as changed.
    mutating func becomePartial(known ids: Set<String>, complete: Bool = false) {
        known = ids
        self.complete = complete
    }

    /// Survey `id`'s entry read from the file: held from now on, not noted as changed.
    mutating func take(read id: String, _ value: Value?) {
        precondition(known != nil, "a whole table reads no entry")
        known!.insert(id)
        if let value { table[id] = value }
    }

    /// Whether survey `id`'s entry was read (always, for a whole table).
    func holds(_ id: String) -> Bool { known?.contains(id) ?? true }

    /// The surveys changed since `forgetChanges()` with their values now (nil: removed), for
    /// a whole ledger read later to take (`PartialLedger.whole`); nil when not known.
    var changes: [(String, Value?)]? { changed.map { $0.map { ($0, table[$0]) } } }

    private static var partialUnread: String {
        "a survey's entry was asked of a ledger read in part before it was read (PartialLedger.load): that is a bug"
    }
    private static var partialWhole: String {
        "every survey was asked of a ledger read in part (PartialLedger.whole first): that is a bug"
    }

    private mutating func note(_ id: String) {
        guard changed != nil else { return }
        changed!.insert(id)
        if changed!.count > Self.mostNoted { changed = nil }
    }

    /// The table as written: nothing changed since.
    mutating func forgetChanges() { changed = [] }

    /// Every survey's: only of a whole table, or a complete one.
    private var all: [String: Value] {
        precondition(known == nil || complete, Self.partialWhole)
        return table
    }

    public var keys: Dictionary<String, Value>.Keys { all.keys }
    public var values: Dictionary<String, Value>.Values { all.values }
    public var count: Int { all.count }
    public var isEmpty: Bool { all.isEmpty }
    public var indices: Dictionary<String, Value>.Indices { all.indices }
    public subscript(position: Dictionary<String, Value>.Index) -> (key: String, value: Value) { all[position] }
    /// Room for `count` surveys; a partial table holds a few and makes none.
    public mutating func reserveCapacity(_ count: Int) { if known == nil { table.reserveCapacity(count) } }
    public func makeIterator() -> Dictionary<String, Value>.Iterator { all.makeIterator() }

    /// Equal when they hold the same; what each has noted is not part of it. Tables of
    /// ledgers read in part compare what they read.
    public static func == (a: Self, b: Self) -> Bool { a.table == b.table && a.known == b.known }
}
