/// One of the ledger's tables by survey id (its bases, owners, conflicts and reviews) that
/// notes every id set or removed since the ledger was last read or written: the surveys
/// whose entries a journal append must carry (`SyncLedgerJournal`). A type of its own, not a
/// dictionary beside a set of ids, so that no change to a table can skip the note: a
/// journal that missed one would forget a conflict or a base for good.
///
/// The note is given up (nil) past `mostNoted` ids, or when a whole table is put in place:
/// the ledger is then written whole, which needs no list of changes. A first pull of 100,000
/// surveys would otherwise keep a set of 100,000 ids beside them for nothing.
public struct LedgerTable<Value: Equatable & Sendable>: Equatable, Sendable, Sequence, ExpressibleByDictionaryLiteral {
    public private(set) var dictionary: [String: Value]
    /// The ids changed since `forgetChanges()`; nil when there were too many to note, or the
    /// whole table was replaced (a table made anew, even empty, replaces one: `ledger.conflicts
    /// = [:]` removes every conflict, which a journal would have to be told one by one).
    private(set) var changed: Set<String>?

    /// More changed surveys than this are written as a whole ledger, never a journal entry.
    static var mostNoted: Int { 4_096 }

    public init() { dictionary = [:] }

    /// A table put in place whole: what changed is not known.
    public init(_ dictionary: [String: Value]) {
        self.dictionary = dictionary
        changed = nil
    }

    public init(dictionaryLiteral elements: (String, Value)...) {
        self.init(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }

    public subscript(id: String) -> Value? {
        get { dictionary[id] }
        set {
            dictionary[id] = newValue
            note(id)
        }
    }

    @discardableResult
    public mutating func removeValue(forKey id: String) -> Value? {
        note(id)
        return dictionary.removeValue(forKey: id)
    }

    private mutating func note(_ id: String) {
        guard changed != nil else { return }
        changed!.insert(id)
        if changed!.count > Self.mostNoted { changed = nil }
    }

    /// The table as written: nothing changed since.
    mutating func forgetChanges() { changed = [] }

    public var keys: Dictionary<String, Value>.Keys { dictionary.keys }
    public var values: Dictionary<String, Value>.Values { dictionary.values }
    public var count: Int { dictionary.count }
    public var isEmpty: Bool { dictionary.isEmpty }
    public var indices: Dictionary<String, Value>.Indices { dictionary.indices }
    public subscript(position: Dictionary<String, Value>.Index) -> (key: String, value: Value) { dictionary[position] }
    public mutating func reserveCapacity(_ count: Int) { dictionary.reserveCapacity(count) }
    public func makeIterator() -> Dictionary<String, Value>.Iterator { dictionary.makeIterator() }

    /// Equal when they hold the same; what each has noted is not part of it.
    public static func == (a: Self, b: Self) -> Bool { a.dictionary == b.dictionary }
}
