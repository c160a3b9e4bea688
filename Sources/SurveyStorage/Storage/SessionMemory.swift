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

/// Remembers, per document folder, the last document used and the record showing in each,
/// so the app reopens where the person left off. It is a convenience: reading it is never
/// an error (missing, unreadable or garbled -> nothing remembered), and it lives in the
/// XDG state folder rather than beside the documents, because it describes one person's
/// session, not the documents.
public struct SessionMemory: Equatable, Sendable {
    public typealias Place = SessionPlace
    public let url: URL
    /// Keyed by `SessionMemory.key(for:)`; folders with nothing remembered are dropped.
    var folders: [String: FolderMemory]

    struct FolderMemory: Equatable, Sendable {
        var lastDocument: String?
        /// The record showing in each document, as the UI counts records.
        var records: [String: Int] = [:]
        /// The same record by its `instanceID`, which survives records added or removed
        /// before it by other programs; the position is the fallback for records without one.
        var recordIDs: [String: String] = [:]
        /// How each document's list was ordered (`ListOrder` in the UI, as a word).
        var listOrders: [String: String] = [:]
        /// The question highlighted in each document (`AnswerPath.description`: its members
        /// too), and the form's language shown when it was not the default (issue 30: a
        /// keyer coming back finds the survey, member, question and language left).
        var questions: [String: String] = [:]
        var languages: [String: String] = [:]

        var isEmpty: Bool {
            lastDocument == nil && records.isEmpty && recordIDs.isEmpty && listOrders.isEmpty && questions.isEmpty && languages.isEmpty
        }
    }

    /// $XDG_STATE_HOME/survey/state.plist (only if absolute, as the XDG spec says), else
    /// $HOME/.local/state/survey/state.plist. Empty values count as unset.
    public static func defaultURL(environment: [String: String]) -> URL {
        let stateHome: String
        if let xdg = environment["XDG_STATE_HOME"], xdg.hasPrefix("/") {
            stateHome = xdg
        } else {
            let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? FileManager.default.homeDirectoryForCurrentUser.path
            stateHome = home + "/.local/state"
        }
        return URL(fileURLWithPath: stateHome, isDirectory: true)
            .appendingPathComponent("survey", isDirectory: true)
            .appendingPathComponent("state.plist", isDirectory: false)
            .standardizedFileURL
    }

    /// Loads leniently: whatever parts of the file make sense are kept, the rest ignored.
    public init(url: URL) {
        self.url = url
        let data = (try? Data(contentsOf: url)) ?? Data()
        folders = Self.folders(fromPropertyList: data)
    }

    public func lastDocument(in folder: URL) -> String? {
        folders[Self.key(for: folder)]?.lastDocument
    }

    public func lastRecord(of document: String, in folder: URL) -> Int? {
        folders[Self.key(for: folder)]?.records[document]
    }


    public func place(of document: String, in folder: URL) -> Place {
        let memory = folders[Self.key(for: folder)]
        return Place(record: memory?.records[document], recordID: memory?.recordIDs[document],
                     listOrder: memory?.listOrders[document], question: memory?.questions[document],
                     language: memory?.languages[document])
    }

    /// Makes `document` the last one used in `folder`, and remembers where in it the person was.
    public mutating func remember(document: String, place: Place, in folder: URL) {
        update(folder) { memory in
            memory.lastDocument = document
            memory.records[document] = place.record
            memory.recordIDs[document] = place.recordID
            memory.listOrders[document] = place.listOrder
            memory.questions[document] = place.question
            memory.languages[document] = place.language
        }
    }

    /// Makes `document` the last one used in `folder` and sets the record showing in it
    /// (nil forgets the record).
    public mutating func remember(document: String, record: Int?, in folder: URL) {
        update(folder) { memory in
            memory.lastDocument = document
            memory.records[document] = record
        }
    }

    /// After a document is removed: its record is dropped, and it is no longer "last".
    public mutating func forget(document: String, in folder: URL) {
        update(folder) { memory in
            memory.records[document] = nil
            memory.recordIDs[document] = nil
            memory.listOrders[document] = nil
            memory.questions[document] = nil
            memory.languages[document] = nil
            if memory.lastDocument == document { memory.lastDocument = nil }
        }
    }

    /// After a rename: the record and "last" follow the document. A record left under the
    /// new name (from an older document of that name) is replaced, never inherited.
    public mutating func renamed(_ old: String, to new: String, in folder: URL) {
        guard !old.utf8.elementsEqual(new.utf8) else { return }
        update(folder) { memory in
            let record = memory.records.removeValue(forKey: old)
            memory.records[new] = record
            let id = memory.recordIDs.removeValue(forKey: old)
            memory.recordIDs[new] = id
            let order = memory.listOrders.removeValue(forKey: old)
            memory.listOrders[new] = order
            let question = memory.questions.removeValue(forKey: old)
            memory.questions[new] = question
            let language = memory.languages.removeValue(forKey: old)
            memory.languages[new] = language
            if memory.lastDocument == old { memory.lastDocument = new }
        }
    }

    /// Reads the file afresh, applies `change`, and writes it back only when something
    /// changed. Every writer goes through here: the app and `survey docs` may both have
    /// written it since either last read it.
    public static func update(at url: URL, _ change: (inout SessionMemory) -> Void) throws {
        var memory = SessionMemory(url: url)
        let before = memory
        change(&memory)
        if memory != before { try memory.save() }
    }

    /// Atomic (a crash never leaves half a file), creating the state folder (mode 0700, as
    /// the XDG spec asks) when missing.
    public func save() throws {
        let parent = url.deletingLastPathComponent()
        do {
            try FileManager.default.createDirectory(at: parent, withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
            try AtomicFile.write(propertyListData(), to: url, in: .live)
        } catch let error as SystemError {
            throw DocumentError("Could not save \(url.path): \(error.reason)")
        } catch {
            throw DocumentError("Could not save \(url.path): \(SurveyDocument.oneLine(error))")
        }
    }

    /// The folder's absolute path with symbolic links resolved, so `--dir ~/survey` and
    /// `--dir /home/me/survey/` (or a link to it) share one memory.
    static func key(for folder: URL) -> String {
        let path = folder.standardizedFileURL.path
        if let resolved = realpath(path, nil) {
            defer { free(resolved) }
            return String(cString: resolved)
        }
        return path.count > 1 && path.hasSuffix("/") ? String(path.dropLast()) : path
    }

    private mutating func update(_ folder: URL, _ change: (inout FolderMemory) -> Void) {
        let key = Self.key(for: folder)
        var memory = folders[key] ?? FolderMemory()
        change(&memory)
        folders[key] = memory.isEmpty ? nil : memory
    }
}
