import FoundationEssentials
import SurveyValues
import SurveyForms

/// The ledger's file: an XML property list (plistlib reads it) in the shape of the deleted
/// surveys' file, an array of dictionaries, so the same fast reader that opens documents
/// reads it (`PropertyListScanner`; a dictionary root went to Foundation's decoder, and
/// 10,000 surveys' ledger took seconds to read). The first entry says what the file is;
/// then one entry per survey:
///
///     { ledger = 1; pullCursor = 812; pullDataset = household; lastSync = <date>; role = bruno;
///       ownChanges = [ [900, 1400], … ];
///       setAside = [ { id = ID; owner = ana; reason = "…" } ] }
///     { id = ID; owner = ana; base = { answers = {…}; revision = "41"; deleted = true };
///       conflict = { theirs = {answers; revision; deleted};
///                    fields = [ { path = ["member", 1, "age"]; base; mine; theirs } ] };
///       review = { state = "hasIssues"; comment = "…" } }
///
/// A path's integers are places in a roster (from 0); an absent value is an absent key.
/// A file this code cannot read is refused whole (`DocumentError`) and never written over.
extension SyncLedger {
    static let currentFormat = 1
    static let headerKey = "ledger"
    /// The header's key for the file's token (`SyncLedgerJournal`).
    static let tokenKey = "journal"

    /// The entries, header first, then the surveys in `entryIDs`' order (the file is the same
    /// for the same ledger), as dictionaries: what the file holds, spelled out (`writeEntries` writes the
    /// same bytes without building them).
    public var propertyListEntries: [[String: PropertyValue]] {
        [headerEntry] + entryIDs.map(entry(for:))
    }

    /// The entries written one at a time into `writer`, `each` called after every one (to
    /// drain it): a ledger of 100,000 surveys is never a tree in memory, and a survey's
    /// entry is written straight from its packed base, keys in the file's order, with no
    /// dictionary built for it (building them took a third of a 100,000-survey pull).
    ///
    /// The surveys with a base are taken by their place in `bases` and sorted with their
    /// first eight bytes read once (`basesInOrder`), so writing one hashes its id once (for
    /// its owner), not three times, and no comparison reads an id again: at 100,000 surveys the
    /// sort and the look-ups were a third of the ledger's write, which is the last thing a
    /// large pull waits for.
    func writeEntries(into writer: inout PropertyListWriter, each: (inout PropertyListWriter) throws -> Void) rethrows {
        writer.appendEntry(headerEntry)
        try each(&writer)
        var owned = 0
        for index in basesInOrder {
            let (id, base) = bases[index]
            let owner = owners[id]
            if owner != nil { owned += 1 }
            writer.appendLedgerEntry(id: id, owner: owner, base: (base.packed, base.deleted, base.revision?.text),
                                     conflict: conflicts[id].map(\.propertyList), review: reviews[id].map(\.propertyList))
            try each(&writer)
        }
        for id in idsWithoutBase(everyOwnerHasABase: owned == owners.count) {
            writer.appendLedgerEntry(id: id, owner: owners[id], base: nil,
                                     conflict: conflicts[id].map(\.propertyList), review: reviews[id].map(\.propertyList))
            try each(&writer)
        }
    }

    /// The first entry: what the file is, the cursor and the rest of the ledger's own state.
    var headerEntry: [String: PropertyValue] {
        var header: [String: PropertyValue] = [Self.headerKey: .integer(Self.currentFormat)]
        // How many bases follow: a reader makes room for them at once (`EntryReader`).
        if let count = partialFile.basesHint { header["bases"] = .integer(count) } else if !bases.isEmpty { header["bases"] = .integer(bases.count) }
        if let pullCursor { header["pullCursor"] = .integer(Int(pullCursor)) }
        if let pullDataset { header["pullDataset"] = .string(pullDataset) }
        if let lastSync { header["lastSync"] = .date(lastSync) }
        if !pendingReasons.isEmpty { header["pendingReasons"] = .dictionary(pendingReasons.mapValues { .string($0) }) }
        if historyEntriesRead > 0 { header["historyEntriesRead"] = .integer(historyEntriesRead) }
        if !ownChanges.isEmpty {
            header["ownChanges"] = Self.propertyList(of: ownChanges)
        }
        if let role { header["role"] = .string(role) }
        if let token = fileToken.value { header[Self.tokenKey] = .string(token) }
        if !setAside.isEmpty {
            header["setAside"] = .array(setAside.map {
                .dictionary(["id": .string($0.id), "owner": .string($0.owner), "reason": .string($0.reason)])
            })
        }
        return header
    }

    /// Every survey the ledger says something about, in the file's order: those with a base
    /// sorted by id, then the others (an owner, a conflict or a review alone) sorted by id.
    /// The same ledger is always the same file.
    var entryIDs: [String] {
        basesInOrder.map { bases[$0].key } + idsWithoutBase(everyOwnerHasABase: false)
    }

    /// `bases`' places, by id (as `sortedByBytes`): each id's first eight bytes read once
    /// into a table of their own, sorted in place together with the places (a heap sort),
    /// the whole text compared only on a tie. The table goes once sorted, so what is walked
    /// is the places alone, 16 bytes a survey as a sorted copy of the ids was; the standard
    /// sort's merge buffer, or keeping the table, took a 100,000-survey sync's peak past 100 MB.
    var basesInOrder: [Dictionary<String, Version>.Index] {
        let skip = bases.keys.allSatisfy(Self.startsWithUUIDScheme) ? 5 : 0
        var places = Array(bases.indices)
        var keys = places.map { Self.leadingNumber(bases[$0].key, skipping: skip) }
        places.withUnsafeMutableBufferPointer { places in
            keys.withUnsafeMutableBufferPointer { keys in
                Self.heapSort(count: places.count, precedes: { a, b in
                    keys[a] != keys[b] ? keys[a] < keys[b]
                        : bases[places[a]].key.utf8.lexicographicallyPrecedes(bases[places[b]].key.utf8)
                }, swap: { a, b in
                    places.swapAt(a, b)
                    keys.swapAt(a, b)
                })
            }
        }
        return places
    }

    /// Sorts the positions `0..<count` of whatever `swap` moves, by `precedes` (positions
    /// compared as they stand), using no memory beside it. Not stable: the ledger's ids are
    /// distinct.
    static func heapSort(count: Int, precedes: (Int, Int) -> Bool, swap: (Int, Int) -> Void) {
        func siftDown(_ start: Int, _ end: Int) {
            var root = start
            while true {
                var child = 2 * root + 1
                guard child < end else { return }
                if child + 1 < end, precedes(child, child + 1) { child += 1 }
                guard precedes(root, child) else { return }
                swap(root, child)
                root = child
            }
        }
        guard count > 1 else { return }
        for start in stride(from: count / 2 - 1, through: 0, by: -1) { siftDown(start, count) }
        for end in stride(from: count - 1, to: 0, by: -1) {
            swap(0, end)
            siftDown(0, end)
        }
    }

    /// The surveys with no base, sorted. Nearly all have one: when the write found an owner
    /// for as many surveys as there are owners, no owner is left to look for.
    func idsWithoutBase(everyOwnerHasABase: Bool) -> [String] {
        var ids: [String] = []
        if !everyOwnerHasABase {
            for id in owners.keys where bases[id] == nil { ids.append(id) }
        }
        for id in conflicts.keys where bases[id] == nil && owners[id] == nil { ids.append(id) }
        for id in reviews.keys where bases[id] == nil && owners[id] == nil && conflicts[id] == nil { ids.append(id) }
        return Self.sortedByBytes(ids)
    }

    /// Sorted by their UTF-8 (for the ASCII ids survey makes, the order of `<`): compared
    /// first by eight bytes read as one number, past the `uuid:` every id shares, the whole
    /// text only on a tie. As Strings, 100,000 ids took a tenth of a second to sort. Used for
    /// the few surveys with no base (`basesInOrder` sorts the others), in place, the numbers
    /// read again at each comparison.
    static func sortedByBytes(_ ids: consuming [String]) -> [String] {
        let skip = ids.allSatisfy(Self.startsWithUUIDScheme) ? 5 : 0
        ids.sort { a, b in
            let (x, y) = (leadingNumber(a, skipping: skip), leadingNumber(b, skipping: skip))
            return x != y ? x < y : a.utf8.lexicographicallyPrecedes(b.utf8)
        }
        return ids
    }

    /// Whether `id` begins `uuid:`, as every id survey makes does (the generic `starts(with:)`
    /// was 4% of a large ledger's write).
    private static func startsWithUUIDScheme(_ id: String) -> Bool {
        func check(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
            bytes.count >= 5 && bytes[0] == 0x75 && bytes[1] == 0x75 && bytes[2] == 0x69 && bytes[3] == 0x64 && bytes[4] == 0x3A
        }
        return id.utf8.withContiguousStorageIfAvailable(check) ?? id.utf8.starts(with: "uuid:".utf8)
    }

    /// Up to eight bytes of `id` after `skip`, as one number, first byte highest (missing
    /// bytes zero, so a shorter text sorts first on a tie, as `lexicographicallyPrecedes`).
    @inline(__always)
    private static func leadingNumber(_ id: String, skipping skip: Int) -> UInt64 {
        func number<C: Collection>(_ bytes: C) -> UInt64 where C.Element == UInt8 {
            var key: UInt64 = 0, taken = 0
            for byte in bytes.dropFirst(skip).prefix(8) {
                key = key << 8 | UInt64(byte)
                taken += 1
            }
            return taken == 0 ? 0 : key << UInt64(8 * (8 - taken))
        }
        return id.utf8.withContiguousStorageIfAvailable { number($0) } ?? number(id.utf8)
    }

    /// One survey's entry as a dictionary.
    func entry(for id: String) -> [String: PropertyValue] {
        var entry: [String: PropertyValue] = ["id": .string(id)]
        if let owner = owners[id] { entry["owner"] = .string(owner) }
        if let base = bases[id] { entry["base"] = base.propertyList }
        if let conflict = conflicts[id] { entry["conflict"] = conflict.propertyList }
        if let review = reviews[id] { entry["review"] = review.propertyList }
        return entry
    }

    public init(propertyListEntries entries: [[String: PropertyValue]]) throws {
        try self.init(propertyListEntries: entries.count, { Record(entries[$0]) })
    }

    /// Read entry by entry from packed entries (`entry(i)` is the i-th as the scanner read
    /// it): a base's answers are taken as packed bytes, never built as a dictionary, and the
    /// whole file's dictionaries are never in memory at once.
    init(propertyListEntries count: Int, _ entry: (Int) -> Record) throws {
        var reader = EntryReader()
        for number in 0..<count { try reader.take(entry(number)) }
        self = try reader.finished()
    }

    /// A ledger read one entry at a time as the scanner reads the file (`readLedger`), so
    /// the entries are never all in memory beside the ledger made of them (19 MB at 100,000).
    struct EntryReader {
        private var ledger: SyncLedger?
        private var number = 0
        /// The most bases the file can hold (its bytes over the smallest entry with a base):
        /// the header's count is room made, and a count no file of this size can hold is
        /// taken as no count at all.
        private let mostBases: Int

        init(fileBytes: Int? = nil) {
            // Never more than two million (a document survey opens holds about 1.4 million at
            // most): a hostile header in a 2 GB file would otherwise reserve gigabytes.
            mostBases = min((fileBytes ?? 0) / 100, 2_000_000)
        }

        mutating func take(_ entry: Record) throws {
            defer { number += 1 }
            guard var ledger else {
                var header = try SyncLedger(header: entry.values)
                // Room for every base and owner made once: grown one doubling at a time, a
                // 100,000-survey ledger's tables were hashed again at each, with the old and
                // new tables in memory together at the last.
                if case .integer(let count)? = entry["bases"], count > 0, count <= mostBases {
                    header.bases.reserveCapacity(count)
                    header.owners.reserveCapacity(count)
                }
                ledger = header
                return
            }
            self.ledger = nil          // changed in place, not copied
            try ledger.take(entry, number: number)
            self.ledger = ledger
        }

        func finished() throws -> SyncLedger {
            guard let ledger else {
                throw DocumentError("not a sync ledger: its first entry does not say \"\(SyncLedger.headerKey)\"")
            }
            return ledger
        }
    }

    private init(header: [String: PropertyValue]) throws {
        guard case .integer(let format)? = header[Self.headerKey] else {
            throw DocumentError("not a sync ledger: its first entry does not say \"\(Self.headerKey)\"")
        }
        guard format <= Self.currentFormat else {
            throw DocumentError("a sync ledger of format \(format), newer than this survey reads (\(Self.currentFormat))")
        }
        self.init()
        if case .string(let token)? = header[Self.tokenKey] { fileToken.value = token }
        switch header["pullCursor"] {
        case nil: break
        case .integer(let cursor)?: pullCursor = Int64(cursor)
        case let other?: throw Self.bad("pullCursor", other)
        }
        switch header["lastSync"] {
        case nil: break
        case .date(let date)?: lastSync = date
        case let other?: throw Self.bad("lastSync", other)
        }
        switch header["ownChanges"] {
        case nil: break
        case let list?:
            guard let ranges = Self.changeRanges(list) else { throw Self.bad("ownChanges", list) }
            ownChanges = ranges
        }
        switch header["pullDataset"] {
        case nil: break
        case .string(let name)?: pullDataset = name
        case let other?: throw Self.bad("pullDataset", other)
        }
        switch header["role"] {
        case nil: break
        case .string(let name)?: role = name
        case let other?: throw Self.bad("role", other)
        }
        switch header["pendingReasons"] {
        case nil: break
        case .dictionary(let reasons)?:
            for (id, reason) in reasons {
                guard case .string(let text) = reason else { throw Self.bad("the reason pending for \(id)", reason) }
                pendingReasons[id] = text
            }
        case let other?: throw Self.bad("pendingReasons", other)
        }
        switch header["historyEntriesRead"] {
        case nil: break
        case .integer(let count)? where count >= 0: historyEntriesRead = count
        case let other?: throw Self.bad("historyEntriesRead", other)
        }
        switch header["setAside"] {
        case nil: break
        case .array(let list)?:
            setAside = try list.map { item in
                guard case .dictionary(let fields) = item, case .string(let id)? = fields["id"],
                      case .string(let owner)? = fields["owner"], case .string(let reason)? = fields["reason"] else {
                    throw Self.bad("a survey set aside", item)
                }
                return SetAsideRow(id: id, owner: owner, reason: reason)
            }
        case let other?: throw Self.bad("setAside", other)
        }
    }

    /// One survey's entry (the `number`th of the file, for messages), its parts found in one
    /// walk over it (`PackedAnswers.entries(forKeys:)`): a walk per part stepped over its base
    /// six times, a sixth of reading a 100,000-survey ledger.
    private mutating func take(_ entry: Record, number: Int) throws {
        var parts = EntryParts()
        entry.packed.withUnsafeBufferPointer { buffer in
            let found = PackedAnswers.entries(forKeys: Self.entryKeys, in: buffer)
            func value(_ i: Int) -> PropertyValue? { found[i].map { PackedAnswers.value(of: $0, in: buffer) } }
            parts.id = value(0)
            parts.owner = value(1)
            if let base = found[2] {
                parts.base = PackedAnswers.dictionaryEntries(of: base, in: buffer)
                if parts.base == nil { parts.notABase = PackedAnswers.value(of: base, in: buffer) }
            }
            parts.conflict = value(3)
            parts.review = value(4)
        }
        guard case .string(let id)? = parts.id, !id.isEmpty else {
            throw DocumentError("not a sync ledger: entry \(number + 1) has no id")
        }
        switch parts.owner {
        case nil: break
        case .string(let owner)?: owners[id] = owner
        case let other?: throw Self.bad("the owner of \(id)", other)
        }
        if let notABase = parts.notABase { throw Self.bad("the base of \(id)", notABase) }
        if let base = parts.base { bases[id] = try Version(packedBase: base, id) }
        if let conflict = parts.conflict {
            guard case .dictionary(let fields) = conflict, let theirs = fields["theirs"],
                  case .array(let list)? = fields["fields"] else { throw Self.bad("the conflict of \(id)", conflict) }
            conflicts[id] = Conflict(theirs: try Version(theirs, id), fields: try list.map { try FieldConflict($0, id) })
        }
        if let review = parts.review {
            guard case .dictionary(let fields) = review, case .string(let name)? = fields["state"],
                  let state = ReviewState(rawValue: name) else { throw Self.bad("the review of \(id)", review) }
            var comment: String?
            if case .string(let text)? = fields["comment"] { comment = text }
            reviews[id] = SyncReview(state, comment: comment)
        }
    }

    /// The parts of a survey's entry, in the order `take` asks for them.
    private static let entryKeys = ["id", "owner", "base", "conflict", "review"]

    private struct EntryParts {
        var id: PropertyValue?
        var owner: PropertyValue?
        /// The base's dictionary entries, packed; `notABase` when the entry holds something else there.
        var base: [UInt8]?
        var notABase: PropertyValue?
        var conflict: PropertyValue?
        var review: PropertyValue?
    }

    /// Takes in one chunk of the ledger's journal (`SyncLedgerJournal`), a small ledger file
    /// read into `entries`: its header's fields replace this ledger's own, and each of its
    /// entries replaces that survey's entry (one with its id alone removes it). The chunk is
    /// read whole first, so one that cannot be read changes nothing.
    mutating func fold(chunk entries: [Record]) throws {
        let part = try SyncLedger(propertyListEntries: entries.count) { entries[$0] }
        var ids: [String] = []
        for entry in entries.dropFirst() {
            guard case .string(let id)? = entry["id"], !id.isEmpty else { throw DocumentError("a journal entry has no id") }
            ids.append(id)
        }
        pullDataset = part.pullDataset
        role = part.role
        lastSync = part.lastSync
        pendingReasons = part.pendingReasons
        historyEntriesRead = part.historyEntriesRead
        setAside = part.setAside
        pullCursor = part.pullCursor
        ownChanges = part.ownChanges
        for id in ids {
            // The entry replaces the file's: a ledger read in part need not read that one.
            if !bases.holds(id) { takeRead(id, from: SyncLedger()) }
            owners[id] = part.owners[id]
            bases[id] = part.bases[id]
            conflicts[id] = part.conflicts[id]
            reviews[id] = part.reviews[id]
        }
    }

    /// Ranges of change numbers as a property list: `[[low, high], …]` (the ledger's and the
    /// sync mark's `ownChanges`).
    static func propertyList(of ranges: [ClosedRange<Int64>]) -> PropertyValue {
        .array(ranges.map { .array([.integer(Int($0.lowerBound)), .integer(Int($0.upperBound))]) })
    }

    /// nil unless `value` is such a list, each range in order.
    static func changeRanges(_ value: PropertyValue) -> [ClosedRange<Int64>]? {
        guard case .array(let list) = value else { return nil }
        var ranges: [ClosedRange<Int64>] = []
        for item in list {
            guard case .array(let pair) = item, pair.count == 2, case .integer(let low) = pair[0],
                  case .integer(let high) = pair[1], low <= high else { return nil }
            ranges.append(Int64(low)...Int64(high))
        }
        return ranges
    }

    static func bad(_ what: String, _ value: PropertyValue) -> DocumentError {
        DocumentError("not a sync ledger: \(what) is \(value.kindDescription)")
    }
}

extension SyncLedger.Version {
    /// A base from its dictionary's packed entries (`answers`, `revision`, `deleted`), found in
    /// one walk, its answers kept as the packed bytes they were read into: a nested
    /// dictionary's entries are packed as a survey's are.
    init(packedBase base: [UInt8], _ id: String) throws {
        let parts = base.withUnsafeBufferPointer { buffer in
            let found = PackedAnswers.entries(forKeys: ["answers", "deleted", "revision"], in: buffer)
            return (answers: found[0].flatMap { PackedAnswers.dictionaryEntries(of: $0, in: buffer) },
                    deleted: found[1].map { PackedAnswers.value(of: $0, in: buffer) },
                    revision: found[2].map { PackedAnswers.value(of: $0, in: buffer) })
        }
        guard let answers = parts.answers else {
            throw SyncLedger.bad("the base of \(id)", .dictionary(Record(packed: base).values))
        }
        var deleted = false
        if case .bool(let flag)? = parts.deleted { deleted = flag }
        self.init(packed: Record(packed: answers), revision: try Self.revision(parts.revision, id), deleted: deleted)
    }

    var propertyList: PropertyValue {
        var entry: [String: PropertyValue] = ["answers": .dictionary(answers)]
        if let revision { entry["revision"] = .string(revision.text) }
        if deleted { entry["deleted"] = .bool(true) }
        return .dictionary(entry)
    }

    init(_ value: PropertyValue, _ id: String) throws {
        guard case .dictionary(let entry) = value, case .dictionary(let answers)? = entry["answers"] else {
            throw SyncLedger.bad("the base of \(id)", value)
        }
        var deleted = false
        if case .bool(let flag)? = entry["deleted"] { deleted = flag }
        self.init(answers: answers, revision: try Self.revision(entry["revision"], id), deleted: deleted)
    }

    /// A revision as written (text), or as an older ledger wrote it (a number).
    private static func revision(_ value: PropertyValue?, _ id: String) throws -> SyncRevision? {
        switch value {
        case nil: return nil
        case .string(let text)?: return SyncRevision(text)
        case .integer(let number)?: return SyncRevision(Int64(number))
        case let other?: throw SyncLedger.bad("the revision of \(id)", other)
        }
    }
}

extension SyncLedger.Conflict {
    var propertyList: PropertyValue {
        .dictionary(["theirs": theirs.propertyList, "fields": .array(fields.map(\.propertyList))])
    }
}

extension SyncReview {
    var propertyList: PropertyValue {
        var fields: [String: PropertyValue] = ["state": .string(state.rawValue)]
        if let comment { fields["comment"] = .string(comment) }
        return .dictionary(fields)
    }
}

extension FieldConflict {
    var propertyList: PropertyValue {
        var entry: [String: PropertyValue] = ["path": .array(path.steps.map { step in
            switch step {
            case .key(let key): return .string(key)
            case .index(let index): return .integer(index)
            }
        })]
        if let base { entry["base"] = base }
        if let mine { entry["mine"] = mine }
        if let theirs { entry["theirs"] = theirs }
        return .dictionary(entry)
    }

    init(_ value: PropertyValue, _ id: String) throws {
        guard case .dictionary(let entry) = value, case .array(let steps)? = entry["path"] else {
            throw SyncLedger.bad("a conflict of \(id)", value)
        }
        let path = try steps.map { step -> SyncFieldPath.Step in
            switch step {
            case .string(let key): return .key(key)
            case .integer(let index) where index >= 0: return .index(index)
            default: throw SyncLedger.bad("a conflict's path in \(id)", step)
            }
        }
        self.init(path: SyncFieldPath(path), base: entry["base"], mine: entry["mine"], theirs: entry["theirs"])
    }
}
