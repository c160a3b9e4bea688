import FoundationEssentials
import SurveyValues
import SurveyForms
#if canImport(Glibc)
import Glibc
#endif

/// One survey's place in a sort: its names folded (case, accents and width ignored, as `/`
/// search folds them) into UTF-8 bytes, compared byte by byte, then the other name, so ties
/// are broken as people expect; empty names and missing ages go last, as in abook.
///
/// Bytes rather than Foundation's locale-aware `compare`: that built a locale for every
/// comparison, and a sorted list of 100,000 surveys took 5 seconds to order, again after
/// every commit. Folded text in code-point order gives the same A…Z order for names written
/// in one script (the folding has already put `Ö` with `O`); see DECISIONS.md.
struct SortingKey: Comparable, Sendable {
    let primary: [UInt8]
    let secondary: [UInt8]
    let number: Int?

    init(_ record: Record, by key: ListOrder.Key, names: ListNames, folding: inout SearchFolding) {
        let last = Self.fold(names.primaryName(of: record), &folding)
        let first = Self.fold(names.secondaryName(of: record), &folding)
        switch key {
        case .entry, .lastName:
            (primary, secondary, number) = (last, first, nil)
        case .firstName:
            (primary, secondary, number) = (first, last, nil)
        case .age:
            if case .integer(let n) = record["age"] { number = n } else { number = nil }
            (primary, secondary) = (last, first)
        }
    }

    /// Folded, without the spaces and tabs around it.
    static func fold(_ text: String, _ folding: inout SearchFolding) -> [UInt8] {
        let bytes = folding.fold(text)
        let isBlank: (UInt8) -> Bool = { $0 == 0x20 || $0 == 0x09 }
        guard let start = bytes.firstIndex(where: { !isBlank($0) }), let end = bytes.lastIndex(where: { !isBlank($0) }) else { return [] }
        return start == 0 && end == bytes.count - 1 ? bytes : Array(bytes[start...end])
    }

    static func < (a: SortingKey, b: SortingKey) -> Bool {
        if a.number != b.number {
            // Records without an age go last.
            guard let x = a.number else { return false }
            guard let y = b.number else { return true }
            return x < y
        }
        // Empty names go last, as in abook.
        if a.primary.isEmpty != b.primary.isEmpty { return !a.primary.isEmpty }
        let first = compare(a.primary, b.primary)
        if first != 0 { return first < 0 }
        return compare(a.secondary, b.secondary) < 0
    }

    private static func compare(_ a: [UInt8], _ b: [UInt8]) -> Int {
        let common = min(a.count, b.count)
        let result = common == 0 ? 0 : a.withUnsafeBufferPointer { x in b.withUnsafeBufferPointer { y in Int(memcmp(x.baseAddress!, y.baseAddress!, common)) } }
        return result != 0 ? result : a.count - b.count
    }
}

/// Every survey's sort key (and section letter, once asked for), made once and then kept up
/// to date for the surveys that changed, as `SearchIndex` does for `/`: ordering the list
/// after a commit then costs the one survey that moved, not folding every name again.
final class SortIndex: @unchecked Sendable {
    let key: ListOrder.Key
    let names: ListNames
    private(set) var records: RecordList
    private(set) var keys: [SortingKey]
    private var sectionCache: [String?]
    private var folding = SearchFolding()
    /// Every survey in this order, made when the whole list is first shown sorted (a wide `/`
    /// search in a sorted list finds its first screenfuls by walking it too). After an edit
    /// only the surveys that changed (`moved`) are put back in place, when it is next asked
    /// for; an add or a delete makes it again.
    private var sortedCache: [Int]?
    private var moved: Set<Int> = []

    init(records: RecordList, key: ListOrder.Key, names: ListNames) {
        self.key = key
        self.names = names
        self.records = records
        var folding = SearchFolding()
        var keys: [SortingKey] = []
        keys.reserveCapacity(records.count)
        for record in records { keys.append(SortingKey(record, by: key, names: names, folding: &folding)) }
        self.keys = keys
        self.folding = folding
        sectionCache = Array(repeating: nil, count: records.count)
    }

    /// The same index for `newRecords`, made again only for surveys that are not the very
    /// same as before.
    func updated(for newRecords: RecordList, key: ListOrder.Key, names: ListNames) -> SortIndex {
        guard key == self.key, names == self.names else { return SortIndex(records: newRecords, key: key, names: names) }
        if newRecords.isSameStorage(as: records) { return self }
        if newRecords.count == records.count {
            for i in newRecords.differingIndices(from: records) {
                if sortedCache != nil { moved.insert(i) }
                keys[i] = SortingKey(newRecords[i], by: key, names: names, folding: &folding)
                sectionCache[i] = nil
            }
        } else {
            // Added, deleted, put back: only the stretch the two versions do not share.
            let (prefix, suffix) = newRecords.changedStretch(from: records)
            let (oldEnd, newEnd) = (records.count - suffix, newRecords.count - suffix)
            keys.replaceSubrange(prefix..<oldEnd, with: (prefix..<newEnd).map {
                SortingKey(newRecords[$0], by: key, names: names, folding: &folding)
            })
            sectionCache.replaceSubrange(prefix..<oldEnd, with: repeatElement(nil, count: newEnd - prefix))
            sortedCache = nil
            moved = []
        }
        records = newRecords
        return self
    }

    /// Every survey, in this order.
    func sorted() -> [Int] {
        // Each insertion moves the list (8 MB at a million): many changes sort afresh.
        if moved.count > 256 { sortedCache = nil }
        if var known = sortedCache, !moved.isEmpty {
            // Out, then back in by a binary search each: the order is total, so this is the
            // order a fresh sort gives.
            known.removeAll { moved.contains($0) }
            for i in moved.sorted() {
                known.insert(i, at: known.insertionIndex { precedes($0, i) })
            }
            moved = []
            sortedCache = known
        }
        if let known = sortedCache { return known }
        let all = Array(0..<records.count).sorted(by: precedes)
        sortedCache = all
        moved = []
        return all
    }

    /// `A` … `Z`, or `#` (see `ListProjection.section(of:names:)`).
    func section(_ i: Int) -> String {
        if let known = sectionCache[i] { return known }
        let section = ListProjection.section(of: records[i], names: names)
        sectionCache[i] = section
        return section
    }

    /// Whether survey `a` comes before survey `b`; equal keys keep entry order.
    func precedes(_ a: Int, _ b: Int) -> Bool {
        let (ka, kb) = (keys[a], keys[b])
        if ka < kb { return true }
        if kb < ka { return false }
        return a < b
    }
}
