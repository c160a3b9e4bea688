import FoundationEssentials
import SurveyValues
import SurveyForms

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

    /// What the list is ordered by (sections go by last name).
    var sortKey: Key { sections ? .lastName : key }

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
    /// With sections, each row: a record's index, or `-1 - h` for header `h` in `headers`.
    /// Plain numbers, so a list of 100,000 is built and let go of without touching each row.
    /// Without sections the rows are `order` itself.
    private var sectionRows: [Int32] = []
    private var headers: [String] = []
    private var order: [Int] = []
    /// By document index, -1 when not shown: arrays, not dictionaries, so a projection of
    /// 100,000 records is built in a few milliseconds.
    private var rowOfRecord: [Int32] = []
    private var positionOfRecord: [Int32] = []
    /// `order` is in entry order (no sort, no sections): a record's position is found by a
    /// binary search, and `positionOfRecord` (4 MB at a million surveys, filled on every key
    /// of a search) is not made.
    private var ascending = false

    public init() { identity = 0 }

    /// `keep`: records that stay although the filter no longer matches them (edited while
    /// the filter was on: a record does not vanish under the typing hand).
    public init(records: RecordList, filter: RecordFilter, order listOrder: ListOrder, keep: Set<Int> = []) {
        self.init(records: records, filter: filter, order: listOrder, keep: keep, index: nil)
    }

    /// `within`: the records of a projection of the same records and order under a filter
    /// this one narrows (typing added characters), already in order: only they are searched.
    /// `sorting`: the sort keys of `records` (made when none is given).
    init(records: RecordList, filter: RecordFilter, order listOrder: ListOrder, keep: Set<Int>, index: SearchIndex?,
         within: [Int]? = nil, names: ListNames = .standard, sorting: SortIndex? = nil) {
        if filter.isEmpty, listOrder == ListOrder() {
            identity = records.count
            return
        }
        var shown: [Int]
        let candidates = within ?? Array(records.indices)
        if filter.isEmpty {
            shown = candidates
        } else if let index {
            shown = index.matching(candidates, words: index.foldQuery(filter.words), keep: keep)
        } else {
            shown = candidates.filter { keep.contains($0) || filter.matches(records[$0]) }
        }
        let sortKey = listOrder.sortKey
        let sorting = sortKey == .entry ? nil : sorting ?? SortIndex(records: records, key: sortKey, names: names)
        if let sorting, within == nil {
            // Every survey: the order the sort index keeps (made once, then reused by `/`).
            if filter.isEmpty, shown.count == records.count { shown = sorting.sorted() } else { shown.sort(by: sorting.precedes) }
        }
        build(shown: shown, recordCount: records.count, ascending: sortKey == .entry,
              section: listOrder.sections ? { sorting?.section($0) ?? Self.section(of: records[$0], names: names) } : nil)
    }

    /// Exactly `shown`, without sections: the matches a search made elsewhere already found
    /// (`SearchIndex.searchAhead`, a `SearchJob`). `ascending`: in entry order.
    init(shown: [Int], recordCount: Int, ascending: Bool = true) {
        build(shown: shown, recordCount: recordCount, ascending: ascending, section: nil)
    }

    /// Rows, and where each record is, for `shown` in order.
    private mutating func build(shown: [Int], recordCount: Int, ascending: Bool, section: ((Int) -> String)?) {
        identity = nil
        order = shown
        sectionRows = []
        headers = []
        self.ascending = ascending && section == nil
        positionOfRecord = []
        if self.ascending { rowOfRecord = []; return }
        positionOfRecord = Array(repeating: -1, count: recordCount)
        for (position, index) in shown.enumerated() { positionOfRecord[index] = Int32(position) }
        guard let section else {
            rowOfRecord = []
            return
        }
        rowOfRecord = Array(repeating: -1, count: recordCount)
        sectionRows.reserveCapacity(shown.count + 27)
        var lastSection: String?
        for index in shown {
            let name = section(index)
            if name != lastSection {
                sectionRows.append(Int32(-1 - headers.count))
                headers.append(name)
                lastSection = name
            }
            rowOfRecord[index] = Int32(sectionRows.count)
            sectionRows.append(Int32(index))
        }
    }

    /// The same projection after a few surveys changed, were added, or were taken out (a
    /// commit, an Add, a delete): the old ones are taken out (`removing`, by their old
    /// index), the others keep their place under their new index (`moved`), and `inserting`
    /// (new indices) are put back where they now belong by a binary search, instead of
    /// ordering every survey again. The result is the one a fresh projection gives, since the
    /// order is total (key, then entry order) and moving indices keeps their order.
    func repositioned(removing: (Int) -> Bool, moved: (Int) -> Int, inserting: [Int], recordCount: Int,
                      isShown: (Int) -> Bool, order listOrder: ListOrder, sorting: SortIndex?,
                      names: ListNames, records: RecordList) -> ListProjection? {
        guard identity == nil else { return nil }
        let sortKey = listOrder.sortKey
        if sortKey != .entry && sorting == nil { return nil }
        var shown: [Int] = []
        shown.reserveCapacity(order.count + inserting.count)
        for i in order where !removing(i) { shown.append(moved(i)) }
        for i in inserting.sorted() where isShown(i) {
            let low = shown.insertionIndex { if let sorting, sortKey != .entry { sorting.precedes($0, i) } else { $0 < i } }
            shown.insert(i, at: low)
        }
        var next = ListProjection()
        next.build(shown: shown, recordCount: recordCount, ascending: sortKey == .entry,
                   section: listOrder.sections ? { sorting?.section($0) ?? Self.section(of: records[$0], names: names) } : nil)
        return next
    }

    /// Rows on screen, headers included.
    public var rowCount: Int { identity ?? (headers.isEmpty ? order.count : sectionRows.count) }
    /// Records shown (what `N of M` counts).
    public var count: Int { identity ?? order.count }

    /// The records shown, in order (the identity spelled out).
    var shownRecords: [Int] { identity.map { Array(0..<$0) } ?? order }

    public func row(_ r: Int) -> Row {
        if identity != nil { return .record(r) }
        if headers.isEmpty { return .record(order[r]) }
        let value = Int(sectionRows[r])
        return value >= 0 ? .record(value) : .header(headers[-1 - value])
    }
    public func record(atPosition p: Int) -> Int { identity != nil ? p : order[p] }

    public func row(ofRecord index: Int) -> Int? {
        if let identity { return (0..<identity).contains(index) ? index : nil }
        if headers.isEmpty { return position(ofRecord: index) }
        guard rowOfRecord.indices.contains(index), rowOfRecord[index] >= 0 else { return nil }
        return Int(rowOfRecord[index])
    }

    public func position(ofRecord index: Int) -> Int? {
        if let identity { return (0..<identity).contains(index) ? index : nil }
        if ascending {
            let low = order.insertionIndex { $0 < index }
            return low < order.count && order[low] == index ? low : nil
        }
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
        return sectionRows.indices.filter { sectionRows[$0] < 0 }
    }

    /// `A` … `Z` by the last name's first letter with accents and case folded (`Ö` under
    /// `O`), `#` for anything else (digits, CJK, no last name).
    public static func section(of record: Record, names: ListNames = .standard) -> String {
        let last = names.primaryName(of: record).trimmingWhitespace()
        guard let first = last.first else { return "#" }
        let folded = TextFolding.folded(String(first)).uppercased()
        guard folded.count == 1, let scalar = folded.unicodeScalars.first, ("A"..."Z").contains(scalar) else { return "#" }
        return folded
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
        // Surveys read without their form are named by their answers, as a form's are.
        self = questionnaire.isOriginalFive ? .standard : .form(questionnaire)
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
