import Foundation
import SurveyModel

/// How the survey list is ordered: entry order (the original app's), or sorted by a key,
/// optionally grouped into sections by the initial of the last name (abook's and the iOS
/// contacts list's A…Z).
public struct ListOrder: Equatable, Sendable {
    public enum Key: String, Equatable, Sendable, CaseIterable {
        case entry, lastName, firstName, age

        public var label: String {
            switch self {
            case .entry: return "entry order"
            case .lastName: return "last name"
            case .firstName: return "first name"
            case .age: return "age"
            }
        }

        /// `s` in the list: entry order → last name → first name → age → entry order.
        public var next: Key {
            let all = Key.allCases
            return all[(all.firstIndex(of: self)! + 1) % all.count]
        }
    }

    public var key: Key = .entry
    /// Sections imply last-then-first name order.
    public var sections = false

    public init(key: Key = .entry, sections: Bool = false) {
        self.key = key
        self.sections = sections
    }

    /// One word for the session memory: "sections" or the key.
    public var memoryWord: String { sections ? "sections" : key.rawValue }

    public init?(memoryWord word: String) {
        if word == "sections" { self.init(sections: true); return }
        guard let key = Key(rawValue: word) else { return nil }
        self.init(key: key)
    }
}

/// The list on screen as a projection of the document: which records show (the filter), in
/// which order, under which section headers. Positions in the document never change by
/// sorting or filtering, so the form, undo and saves keep working on the document itself.
/// In entry order without a filter (the common case, and the only one at 100,000 records
/// that must cost nothing per key) it is the identity and holds no arrays.
public struct ListProjection: Equatable, Sendable {
    public enum Row: Equatable, Sendable {
        case header(String)
        /// A record, by its index in the document.
        case record(Int)
    }

    /// Set when the projection is the document as it is: `identity` records, in order.
    private var identity: Int?
    private var rows: [Row] = []
    private var order: [Int] = []
    /// By document index, -1 when not shown: arrays, not dictionaries, so a projection of
    /// 100,000 records is built in a few milliseconds.
    private var rowOfRecord: [Int32] = []
    private var positionOfRecord: [Int32] = []

    public init() { identity = 0 }

    /// `keep`: records that stay although the filter no longer matches them (edited while
    /// the filter was on: a record does not vanish under the typing hand).
    public init(records: RecordList, filter: RecordFilter, order listOrder: ListOrder, keep: Set<Int> = []) {
        self.init(records: records, filter: filter, order: listOrder, keep: keep, index: nil)
    }

    /// `within`: the records of a projection of the same records and order under a filter
    /// this one narrows (typing added characters), already in order: only they are searched.
    init(records: RecordList, filter: RecordFilter, order listOrder: ListOrder, keep: Set<Int>, index: SearchIndex?,
         within: [Int]? = nil, names: ListNames = .standard) {
        if filter.isEmpty, listOrder == ListOrder() {
            identity = records.count
            return
        }
        var shown: [Int]
        let candidates = within ?? Array(records.indices)
        if filter.isEmpty {
            shown = candidates
        } else if let index {
            let words = index.foldQuery(filter.words)
            shown = candidates.filter { keep.contains($0) || index.matches($0, words: words) }
        } else {
            shown = candidates.filter { keep.contains($0) || filter.matches(records[$0]) }
        }
        let sortKey: ListOrder.Key = listOrder.sections ? .lastName : listOrder.key
        if sortKey != .entry && within == nil {
            let keys = shown.map { SortingKey(records[$0], by: sortKey, names: names) }
            let byIndex = Dictionary(uniqueKeysWithValues: zip(shown, keys))
            shown.sort { a, b in
                let (ka, kb) = (byIndex[a]!, byIndex[b]!)
                if ka < kb { return true }
                if kb < ka { return false }
                return a < b   // equal keys keep entry order
            }
        }
        order = shown
        rowOfRecord = Array(repeating: -1, count: records.count)
        positionOfRecord = Array(repeating: -1, count: records.count)
        rows.reserveCapacity(shown.count)
        var lastSection: String?
        for (position, index) in shown.enumerated() {
            if listOrder.sections {
                let section = Self.section(of: records[index], names: names)
                if section != lastSection {
                    rows.append(.header(section))
                    lastSection = section
                }
            }
            rowOfRecord[index] = Int32(rows.count)
            positionOfRecord[index] = Int32(position)
            rows.append(.record(index))
        }
    }

    /// Rows on screen, headers included.
    public var rowCount: Int { identity ?? rows.count }
    /// Records shown (what `N of M` counts).
    public var count: Int { identity ?? order.count }

    /// The records shown, in order (the identity spelled out).
    var shownRecords: [Int] { identity.map { Array(0..<$0) } ?? order }

    public func row(_ r: Int) -> Row { identity != nil ? .record(r) : rows[r] }
    public func record(atPosition p: Int) -> Int { identity != nil ? p : order[p] }

    public func row(ofRecord index: Int) -> Int? {
        if let identity { return (0..<identity).contains(index) ? index : nil }
        guard rowOfRecord.indices.contains(index), rowOfRecord[index] >= 0 else { return nil }
        return Int(rowOfRecord[index])
    }

    public func position(ofRecord index: Int) -> Int? {
        if let identity { return (0..<identity).contains(index) ? index : nil }
        guard positionOfRecord.indices.contains(index), positionOfRecord[index] >= 0 else { return nil }
        return Int(positionOfRecord[index])
    }

    /// The record at a row, or the nearest one after it (before it at the end) for a header.
    public func record(nearRow row: Int) -> Int? {
        guard rowCount > 0 else { return nil }
        let start = min(max(0, row), rowCount - 1)
        for r in start..<rowCount { if case .record(let i) = self.row(r) { return i } }
        for r in stride(from: start, through: 0, by: -1) { if case .record(let i) = self.row(r) { return i } }
        return nil
    }

    /// Rows where sections start (PgUp/PgDn jump between them).
    public var headerRows: [Int] {
        guard identity == nil else { return [] }
        return rows.indices.filter { if case .header = rows[$0] { return true } else { return false } }
    }

    /// `A` … `Z` by the last name's first letter with accents and case folded (`Ö` under
    /// `O`), `#` for anything else (digits, CJK, no last name).
    public static func section(of record: Record, names: ListNames = .standard) -> String {
        let last = names.primaryName(of: record).trimmingCharacters(in: .whitespaces)
        guard let first = last.first else { return "#" }
        let folded = String(first).folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil).uppercased()
        guard folded.count == 1, let scalar = folded.unicodeScalars.first, ("A"..."Z").contains(scalar) else { return "#" }
        return folded
    }
}

/// One record's place in a sort: the key's text folded for a case- and accent-insensitive,
/// locale-aware comparison, then the other name, so ties are broken as people expect.
private struct SortingKey: Comparable {
    let primary: String
    let secondary: String
    let number: Int?

    init(_ record: Record, by key: ListOrder.Key, names: ListNames) {
        let last = names.primaryName(of: record)
        let first = names.secondaryName(of: record)
        switch key {
        case .entry, .lastName:
            (primary, secondary, number) = (Self.fold(last), Self.fold(first), nil)
        case .firstName:
            (primary, secondary, number) = (Self.fold(first), Self.fold(last), nil)
        case .age:
            if case .integer(let n) = record.values["age"] { number = n } else { number = nil }
            (primary, secondary) = (Self.fold(last), Self.fold(first))
        }
    }

    static func fold(_ text: String) -> String {
        text.trimmingCharacters(in: .whitespaces).folding(options: [.caseInsensitive, .diacriticInsensitive], locale: .current)
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
        if a.primary != b.primary { return a.primary.compare(b.primary, locale: .current) == .orderedAscending }
        return a.secondary.compare(b.secondary, locale: .current) == .orderedAscending
    }
}

/// `/` search: every word must appear somewhere in the record's text answers, ignoring case
/// and accents (`umea` finds `Umeå`, `ana lima` finds `Lima, Ana`).
public struct RecordFilter: Equatable, Sendable {
    public let text: String
    let words: [String]

    public init(_ text: String) {
        self.text = text
        words = text.split(whereSeparator: \.isWhitespace).map(String.init)
    }

    public var isEmpty: Bool { words.isEmpty }

    /// One record on its own (the index does the same for a whole list at once).
    public func matches(_ record: Record) -> Bool {
        guard !words.isEmpty else { return true }
        var folding = SearchFolding()
        let haystack = folding.searchText(of: record)
        return words.allSatisfy { SearchIndex.contains(haystack, folding.fold($0)) }
    }
}

/// The names the list sorts and groups surveys by: the original five's last and first name,
/// or, with a designer's form, the survey's title (its `instance_name`), since a form's
/// questions have names of the designer's choosing.
public enum ListNames: Equatable, Sendable {
    case standard
    case form(Questionnaire)

    public init(_ questionnaire: Questionnaire) {
        self = questionnaire.form == nil ? .standard : .form(questionnaire)
    }

    func primaryName(of record: Record) -> String {
        switch self {
        case .standard: return record.text(forKey: "lastName")
        case .form(let q): return q.name(of: record)
        }
    }

    func secondaryName(of record: Record) -> String {
        switch self {
        case .standard: return record.text(forKey: "firstName")
        case .form: return ""
        }
    }

    /// What the sort keys are called for this questionnaire.
    func label(_ key: ListOrder.Key) -> String {
        switch (self, key) {
        case (.form, .lastName), (.form, .firstName): return "name"
        default: return key.label
        }
    }

    /// `s`: the next key; a form has entry order and its titles only.
    func next(after key: ListOrder.Key) -> ListOrder.Key {
        switch self {
        case .standard: return key.next
        case .form: return key == .entry ? .lastName : .entry
        }
    }
}
