import FoundationEssentials
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A digest of each survey's answers in a document's file, by id, read from its lines as it
/// streams past (`AnswersDigest`): with the digests of the bases in the ledger's index
/// (`LedgerIndex`), a sync finds the surveys changed here since their base without reading
/// every base (issue 28: looking at 100,000 surveys' bases was a third of a sync of 100
/// edits). A survey whose digest is its base's has its base's answers; any other is looked at
/// as before, its base read and the answers compared.
///
/// Only the layout survey writes a document in is read (as `LedgerIndex`); any other, an id
/// written with an entity or spelled over lines, gives none, and the sync reads the ledger
/// whole. A survey found twice is left out (it is looked at).
struct DocumentDigests: LineTaker {
    private(set) var ids = IDTable()
    private(set) var digests: [AnswersDigest.Value] = []
    /// Ids found more than once.
    private var repeated = Set<String>()

    private enum Place { case prologue, surveys, survey, after, end }
    private var place = Place.prologue
    private var awaitingID = false
    private var currentID: [UInt8]?
    private var digest = AnswersDigest()
    private var layout = PropertyListLayout()
    private(set) var failed = false

    /// The digests of the document file at `path` (nil: it could not be read so).
    static func read(_ path: RawPath, limit: Int = DocumentFileReader.maximumBytes) -> DocumentDigests? {
        guard case .success(let (fd, _)) = DocumentFileReader.openChecked(path, limit: limit) else { return nil }
        defer { close(fd) }
        var digests = DocumentDigests()
        guard digests.takeLines(of: fd, limit: limit) else { return nil }
        return digests.finish()
    }

    mutating func take(_ line: UnsafeBufferPointer<UInt8>, at offset: Int) {
        guard !failed else { return }
        let line = PropertyListLine(bytes: line)
        if !step(line, layout.kind(of: line, prologue: place == .prologue)) { failed = true }
    }

    /// Whether `line` fits: a survey's lines all go into its digest, tags at their depth, text
    /// and Base64 as they are, but its id's key and value.
    private mutating func step(_ line: PropertyListLine, _ kind: PropertyListLayout.Kind) -> Bool {
        guard case .markup(let depth) = kind else {
            guard kind != .unknown, place == .survey, !awaitingID else { return false }
            digest.take(line, depth: kind == .text ? nil : line.tabs)
            return true
        }
        switch place {
        case .prologue:
            if line.is("<array>") { place = .surveys; return true }
            if line.is("<array/>") { place = .after; return true }
            return depth == 0 && !layout.isOpen
        case .surveys:
            if line.is("</array>") { place = .after; return true }
            guard line.is("\t<dict>") else { return false }
            digest = AnswersDigest()
            digest.take(line, depth: depth)
            currentID = nil
            place = .survey
            return true
        case .survey:
            if awaitingID {
                // The id's value is left out of the digest: a base holds every answer but it.
                awaitingID = false
                guard currentID == nil, let text = line.between("\t\t<string>", "</string>"),
                      PropertyListLine.isPlainID(text) else { return false }
                currentID = Array(text)
                return true
            }
            if line.is("\t\t<key>instanceID</key>") {       // `Record.instanceIDKey`
                awaitingID = true
                return true
            }
            digest.take(line, depth: depth)
            if line.is("\t</dict>") {
                if let id = currentID {
                    id.withUnsafeBufferPointer { ids.append($0) }
                    digests.append(digest.finish())
                }
                place = .surveys
                return true
            }
            return depth >= 2
        case .after:
            guard line.is("</plist>") else { return false }
            place = .end
            return true
        case .end:
            return false
        }
    }

    private mutating func finish() -> DocumentDigests? {
        guard !failed, place == .end else { return nil }
        repeated = Set(ids.seal().map { ids.id(at: $0) })
        return self
    }

    /// The digest of survey `id`'s answers; nil when the file has no such survey, or has it twice.
    func digest(of id: String) -> AnswersDigest.Value? {
        guard repeated.isEmpty || !repeated.contains(id), let place = ids.find(id) else { return nil }
        return digests[place]
    }

    /// Whether survey `id` is in the file more than once.
    func holdsRepeated(_ id: String) -> Bool { !repeated.isEmpty && repeated.contains(id) }

    /// Whether some survey is in the file more than once.
    var hasRepeats: Bool { !repeated.isEmpty }

    /// Whether the file holds survey `id` (its bytes), once or more.
    func holds(_ id: UnsafeBufferPointer<UInt8>) -> Bool { ids.find(bytes: id) != nil }
}
