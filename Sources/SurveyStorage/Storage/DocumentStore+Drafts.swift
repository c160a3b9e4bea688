import FoundationEssentials
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import SurveyValues
import SurveyForms

/// Drafts keep an unsent New form across quits and crashes, one per document, so field
/// workers never retype an interview. The leading "." keeps them out of the document list.
extension DocumentStore {
    /// folder/.NAME.draft.plist
    public func draftURL(for name: String) -> URL {
        companionURL(.draft, for: name)
    }

    /// The saved draft; a missing or unreadable draft is an empty record (a draft is a
    /// convenience, never a reason to stop work).
    public func loadDraft(for name: String) -> Record {
        guard DocumentName.isUsable(name),
              case .success(let data) = readFile(draftURL(for: name)),
              let document = try? SurveyDocument(propertyListData: data) else { return Record() }
        return document.records.first ?? Record()
    }

    /// A blank record (judged by `questionnaire`) removes the draft file; otherwise it is
    /// written atomically as a one-record document. `beingStoredAs` marks the file as holding
    /// the survey a save is about to store under that id (`draftBeingStoredAs`): a second
    /// element, which `loadDraft` (and every earlier version) leaves aside. Every other write
    /// leaves the mark out, so it never outlives the answers it was written with.
    ///
    /// A marked file met here (the caller has settled what it holds: its survey stored, or
    /// kept for recovery) holds a finished survey in clear: its bytes are overwritten with
    /// zeros once it is replaced or removed, as `removeDraftSecurely` does (issue 31).
    public func saveDraft(_ record: Record, for name: String,
                          in questionnaire: Questionnaire, beingStoredAs id: String? = nil) throws {
        guard DocumentName.isUsable(name) else {
            throw DocumentError("\"\(name)\" is not a usable document name")
        }
        let url = draftURL(for: name)
        let marked = OpenedDraft.open(url.path, through: fileSystem)
        defer { marked?.close(through: fileSystem) }
        let replaced = marked?.mark == nil ? nil : marked
        if record.isBlank(in: questionnaire) {
            if let replaced {
                _ = replaced.zero(through: fileSystem)
                try replaced.removeName(url.path, through: fileSystem)
            } else if fileSystem.unlink(url.path) != 0, errno != ENOENT {
                throw DocumentError("Could not remove \(url.lastPathComponent): \(SystemError("unlink").reason)")
            }
            return
        }
        let mark = id.map { [Record([Self.beingStoredAsKey: .string($0)])] } ?? []
        let data = try SurveyDocument(records: [record] + mark).propertyListData()
        try write(data, to: url)
        // The marked file is nameless now (the write renamed over it); its blocks are zeroed.
        if let replaced, !replaced.isStill(at: url.path) { _ = replaced.zero(through: fileSystem) }
    }

    static let beingStoredAsKey = "beingStoredAs"

    /// The id the draft file says its survey was being stored under when it was written
    /// (`saveDraft(beingStoredAs:)`); nil for a file without the mark (or none).
    public func draftBeingStoredAs(for name: String) -> String? {
        guard DocumentName.isUsable(name),
              case .success(let data) = readFile(draftURL(for: name)),
              let document = try? SurveyDocument(propertyListData: data), document.records.count == 2,
              case .string(let id)? = document.records[1][Self.beingStoredAsKey], !id.isEmpty else { return nil }
        return id
    }

    /// Removes the draft file after overwriting its bytes with zeros (synced): it holds a
    /// finished survey's answers in clear, which an unlink alone leaves in the freed blocks
    /// (on a journaling or copy-on-write file system, or a flash disk, the old blocks may still
    /// survive: this is the best a program can do, not a guarantee). Throws when the file
    /// could not be removed; a file that could not be overwritten is still removed.
    public func removeDraftSecurely(for name: String) throws {
        _ = try removeDraftSecurely(for: name, when: { _ in true })
    }

    /// `removeDraftSecurely`, for a file carrying the mark whose X `stored` accepts (for
    /// `when`, the file is marked or not: its X, or nil); the X when the file was removed,
    /// nil when nothing was touched. The file is opened once: the mark is read, the bytes
    /// zeroed and the name removed through that one opening, and only while the name still
    /// leads to it, so a file another window put in its place meanwhile (its next New form)
    /// is left whole (issue 31).
    public func removeMarkedDraftSecurely(for name: String, ifStored stored: (String) -> Bool) throws -> String? {
        guard DocumentName.isUsable(name) else { return nil }
        return try removeDraftSecurely(for: name) { mark in mark.map(stored) ?? false }
    }

    private func removeDraftSecurely(for name: String, when decide: (String?) -> Bool) throws -> String? {
        guard DocumentName.isUsable(name) else {
            throw DocumentError("\"\(name)\" is not a usable document name")
        }
        let path = draftURL(for: name).path
        guard let opened = OpenedDraft.open(path, through: fileSystem) else {
            // Nothing could be opened or read: the old plain removal, for a decision on no mark.
            guard decide(nil) else { return nil }
            if fileSystem.unlink(path) != 0, errno != ENOENT {
                throw DocumentError("Could not remove \(draftURL(for: name).lastPathComponent): \(SystemError("unlink").reason)")
            }
            return ""
        }
        defer { opened.close(through: fileSystem) }
        guard decide(opened.mark) else { return nil }
        _ = opened.zero(through: fileSystem)
        try opened.removeName(path, through: fileSystem)
        return opened.mark ?? ""
    }

    /// Whether the bytes of document `name` or of its journal hold `text` (read in parts,
    /// never whole): a survey's id in a document still being read, or saved by another copy
    /// of survey, where a fresh id appears only once the save that gave it landed. False when
    /// neither file can be read.
    public func documentBytesHold(_ text: String, in name: String) -> Bool {
        guard DocumentName.isUsable(name) else { return false }
        return Self.bytes(atPath: url(for: name).path, hold: text) || Self.bytes(atPath: journalURL(for: name).path, hold: text)
    }

    private static func bytes(atPath path: String, hold text: String) -> Bool {
        let needle = Array(text.utf8)
        guard !needle.isEmpty else { return false }
        let fd = Glibc.open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return false }
        defer { Glibc.close(fd) }
        let part = 1 << 20
        var buffer = [UInt8](repeating: 0, count: part + needle.count)
        var kept = 0                                    // the end of the last part, for an id across two
        while true {
            let count = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress! + kept, part) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { return false }
            let filled = kept + count
            if buffer[..<filled].firstRange(of: needle) != nil { return true }
            kept = min(needle.count - 1, filled)
            buffer.replaceSubrange(0..<kept, with: buffer[(filled - kept)..<filled])
        }
    }
}
