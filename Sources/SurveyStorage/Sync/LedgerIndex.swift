#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Where each survey's entry is in a ledger file, found by its lines alone as the file streams
/// past, so a sync that needs a few surveys' entries parses those and not the other 99,900
/// (issue 28: reading a 100,000-survey ledger whole was half of a sync of 100 edits;
/// `PartialLedger`). Nothing of the file is kept but the header's bytes, each entry's id and
/// place, and a digest of its base's answers (`AnswersDigest`), which tells a sync the surveys
/// unchanged since their base without reading them (`DocumentDigests`).
///
/// It reads only the layout `PropertyListWriter.appendLedgerEntry` writes: one tab per depth,
/// each tag on its own line. A line whose first byte after its tabs is `<` is markup at that
/// depth: text never holds a raw `<` (it is written `&lt;`), so a string running over several
/// lines never passes for a tag. A file laid out any other way (a hand-edited ledger, one
/// written by another tool), an id written with an entity (`&amp;`: its text is not its
/// bytes) or an id twice gives no index, and the file is read whole, as before.
struct LedgerIndex: LineTaker {
    struct Entry {
        /// From the entry's `\t<dict>` line to its `\t</dict>` line, newline included, in the file.
        var whole: Range<Int>
        /// The digest of its base's answers; nil when it has no base.
        var answers: AnswersDigest.Value?
        var baseDeleted = false
        var conflict = false
    }

    /// The file's opening up to and including the header entry: with entries after it and
    /// `closing`, a ledger file of its own.
    private(set) var header: [UInt8] = []
    /// By the place of each entry's id in `ids`.
    private(set) var entries: [Entry] = []
    private(set) var ids = IDTable()

    static let closing: StaticString = "</array>\n</plist>\n"

    /// Where the lines read so far have left it.
    private enum Place {
        case prologue, headerOpen, header, entries, entry, base, answers, nested, after, end
    }
    private var place = Place.prologue
    /// What the next line must be, after a key that is followed by its value's line.
    private enum Awaiting { case nothing, baseOpen, answersOpen, deletedValue, revisionValue, idValue, ownerValue, nestedOpen }
    private var awaiting = Awaiting.nothing
    private var layout = PropertyListLayout()
    private var current = Entry(whole: 0..<0)
    private var currentID: [UInt8]?
    private var digest = AnswersDigest()
    private(set) var failed = false

    init() {}

    /// Takes the file's next line, `line` its bytes with its newline, `offset` where it starts.
    /// Once a line does not fit, the index is `failed` for good.
    mutating func take(_ line: UnsafeBufferPointer<UInt8>, at offset: Int) {
        guard !failed else { return }
        let line = PropertyListLine(bytes: line)
        let (wasIn, wasAwaiting) = (place, awaiting)
        let kind = layout.kind(of: line, prologue: place == .prologue)
        if !step(line, kind, at: offset) {
            failed = true
            return
        }
        // A base's answers, from their opening line to their closing one, go into its digest
        // (tags two tabs deeper than a survey's in the document).
        if wasIn == .answers || wasAwaiting == .answersOpen {
            if wasIn != .answers { digest = AnswersDigest() }
            digest.take(line, depth: kind == .text ? nil : line.tabs - 2)
            if place != .answers { current.answers = digest.finish() }
        }
    }

    /// Whether `line` fits where the file is. Only what `PropertyListWriter` writes fits: at the
    /// depths of an entry and of its base, only their own keys, each followed by its value;
    /// anything else there, however like a ledger, gives the file up.
    private mutating func step(_ line: PropertyListLine, _ kind: PropertyListLayout.Kind, at offset: Int) -> Bool {
        guard case .markup(let depth) = kind else {
            // Text or Base64 lines only inside a header, an answer or a conflict or review.
            if place == .header { header += line.bytes }
            return kind != .unknown && (place == .header || place == .answers || place == .nested)
        }
        if place == .prologue {
            header += line.bytes
            if line.is("<array>") { place = .headerOpen; return true }
            return depth == 0 && !layout.isOpen
        }
        switch awaiting {
        case .nothing: break
        case .baseOpen, .nestedOpen, .answersOpen:
            let wanted = awaiting
            awaiting = .nothing
            switch wanted {
            case .baseOpen:
                guard line.is("\t\t<dict>") else { return false }
                place = .base
            case .nestedOpen:
                if line.is("\t\t<dict/>") { return true }
                guard line.is("\t\t<dict>") else { return false }
                place = .nested
            default:
                if line.is("\t\t\t<dict/>") { return true }
                guard line.is("\t\t\t<dict>") else { return false }
                place = .answers
            }
            return true
        case .deletedValue:
            awaiting = .nothing
            current.baseDeleted = line.is("\t\t\t<true/>")
            return current.baseDeleted || line.is("\t\t\t<false/>")
        case .revisionValue:
            awaiting = .nothing
            return line.between("\t\t\t<string>", "</string>") != nil
        case .ownerValue:
            awaiting = .nothing
            return line.between("\t\t<string>", "</string>") != nil
        case .idValue:
            awaiting = .nothing
            guard currentID == nil, let text = line.between("\t\t<string>", "</string>"),
                  PropertyListLine.isPlainID(text) else { return false }
            currentID = Array(text)
            return true
        }
        if layout.isOpen, place != .header, place != .answers, place != .nested { return false }
        switch place {
        case .prologue, .end:
            return false
        case .headerOpen:
            guard line.is("\t<dict>") else { return false }
            header += line.bytes
            place = .header
            return true
        case .header:
            header += line.bytes
            if line.is("\t</dict>") { place = .entries; return true }
            return depth >= 2
        case .entries:
            if line.is("</array>") { place = .after; return true }
            guard line.is("\t<dict>") else { return false }
            current = Entry(whole: offset..<offset)
            currentID = nil
            place = .entry
            return true
        case .answers:
            if line.is("\t\t\t</dict>") { place = .base; return true }
            return depth >= 4
        case .nested:
            if line.is("\t\t</dict>") { place = .entry; return true }
            return depth >= 3
        case .base:
            if line.is("\t\t</dict>") { place = .entry }
            else if line.is("\t\t\t<key>answers</key>") { awaiting = .answersOpen }
            else if line.is("\t\t\t<key>deleted</key>") { awaiting = .deletedValue }
            else if line.is("\t\t\t<key>revision</key>") { awaiting = .revisionValue }
            else { return false }
            return true
        case .entry:
            if line.is("\t</dict>") {
                guard let id = currentID else { return false }
                current.whole = current.whole.lowerBound..<(offset + line.bytes.count)
                id.withUnsafeBufferPointer { ids.append($0) }
                entries.append(current)
                place = .entries
                return true
            }
            if line.is("\t\t<key>base</key>") { awaiting = .baseOpen }
            else if line.is("\t\t<key>conflict</key>") { awaiting = .nestedOpen; current.conflict = true }
            else if line.is("\t\t<key>review</key>") { awaiting = .nestedOpen }
            else if line.is("\t\t<key>id</key>") { awaiting = .idValue }
            else if line.is("\t\t<key>owner</key>") { awaiting = .ownerValue }
            else { return false }
            return true
        case .after:
            guard line.is("</plist>") else { return false }
            place = .end
            return true
        }
    }

    /// The index once the whole file was taken; nil when it did not fit, or names a survey twice.
    mutating func finish() -> LedgerIndex? {
        guard !failed, place == .end, ids.seal().isEmpty else { return nil }
        return self
    }

    /// The place in `entries` of survey `id`'s entry, nil when the file has none.
    func find(_ id: String) -> Int? { ids.find(id) }
}

extension LedgerIndex {
    /// The index of a file's bytes held whole (tests; the sync streams the file instead).
    init?(bytes: [UInt8]) {
        var index = LedgerIndex()
        bytes.withUnsafeBufferPointer { index.takeLines(of: $0, at: 0) }
        guard let done = index.finish() else { return nil }
        self = done
    }

}
