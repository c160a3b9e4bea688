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

/// Resolves where documents live and reads/writes them safely. Every document and draft
/// file goes through it (the state file and exports have their own small writers), so the
/// UI can stay a pure function of state and tests can point a store at a throw-away folder.
public struct DocumentStore: Sendable {
    public let folder: URL
    /// Every call that changes a file goes through it: `.live`, or in tests one that fails
    /// a chosen call (see `FileSystem`).
    public let fileSystem: FileSystem
    /// The entity lists a save read before writing, for its write after (`EntityListHold`).
    let entityListHold = EntityListHold()

    public init(folder: URL, fileSystem: FileSystem = .live) {
        self.folder = folder
        self.fileSystem = fileSystem
    }

    /// `prepare(requested:remembered:)` with nothing remembered.
    public func prepare(requested: String?) throws -> String {
        try prepare(requested: requested, remembered: nil)
    }

    /// Creates the folder (with parents) when missing, then picks the document to open.
    ///
    /// With `requested` (from --doc): validates it as a name (see `validateName`), reuses an
    /// existing document whose name matches after Unicode normalisation and case folding
    /// (returning the existing spelling), or creates an empty document of that name. Without:
    /// `remembered` (the last document used here, from `SessionMemory`) when it still exists,
    /// else the first document in sorted order, else a new "Untitled". A remembered document
    /// that is gone is not worth a message: it was renamed or removed on purpose.
    /// Returns the document name to open.
    public func prepare(requested: String?, remembered: String?) throws -> String {
        try createFolder()
        LeftoverTemporaryFiles.remove(in: folder, through: fileSystem)
        let existing = try documentNames()
        guard let requested else {
            if let remembered, let match = Self.match(remembered, in: existing) { return match }
            if let first = existing.first { return first }
            return try create(named: nextUntitledName())
        }
        let name = try Self.validateName(requested).get()
        if let match = Self.match(name, in: existing) { return match }
        return try create(named: name)
    }

    /// The folder with its parents; a no-op when it exists.
    func createFolder() throws {
        // Each missing folder from the outermost, through the file system (`mkdir -p`).
        var missing: [String] = []
        var path = folder.standardizedFileURL.path
        var status = stat()
        while !path.isEmpty, path != "/", stat(path, &status) != 0 {
            missing.append(path)
            path = path.pathRemovingLastComponent
        }
        for path in missing.reversed() where fileSystem.makeFolder(path, NewFileMode.folder(in: path.pathRemovingLastComponent)) != 0 && errno != EEXIST {
            throw DocumentError("Could not create the folder \(folder.path): \(SystemError("create folder").reason)")
        }
        guard stat(folder.path, &status) == 0, (status.st_mode & S_IFMT) == S_IFDIR else {
            throw DocumentError("Could not create the folder \(folder.path): \(SystemError("create folder", code: ENOTDIR).reason)")
        }
    }

    /// Document names: "*.plist" files in the folder, never names starting with "."; without
    /// the suffix; sorted case-insensitively with numbers in order ("Untitled 2" before
    /// "Untitled 10"). A file name that is not valid UTF-8 is listed as shown, with U+FFFD
    /// (see `rawNamedFile(for:)`).
    public func documentNames() throws -> [String] {
        let entries: [FolderEntry]
        do {
            entries = try FolderEntry.list(folder)
        } catch let error as SystemError {
            throw DocumentError("Could not list the folder \(folder.path): \(error.reason)")
        }
        let suffix = Array(DocumentName.fileSuffix.utf8)
        let names = entries.compactMap { entry -> String? in
            guard entry.bytes.count > suffix.count, entry.bytes.first != UInt8(ascii: "."),
                  entry.bytes.suffix(suffix.count).elementsEqual(suffix) else { return nil }
            var status = stat()
            guard RawPath(folder: folder, entry: entry.bytes).withCString({ stat($0, &status) }) == 0,
                  (status.st_mode & S_IFMT) != S_IFDIR else { return nil }
            return String(entry.shownName.dropLast(DocumentName.fileSuffix.count))
        }
        return names.sorted(by: DocumentName.sortsBefore)
    }

    /// folder/NAME.plist
    public func url(for name: String) -> URL {
        folder.appendingPathComponent(name + DocumentName.fileSuffix, isDirectory: false)
    }

    /// Missing file -> failure "NAME.plist does not exist"; too large -> "NAME.plist is 2.0 GB,
    /// more than survey opens (512 MB)"; unreadable or unparsable -> failure "NAME.plist:
    /// <reason>", naming the copy an interrupted in-place save left beside it, if any.
    public func load(_ name: String) -> Result<SurveyDocument, DocumentError> {
        let fileName = name + DocumentName.fileSuffix
        guard DocumentName.isUsable(name) else {
            return .failure(DocumentError("\"\(name)\" is not a usable document name"))
        }
        func failed(_ failure: DocumentFileReader.Failure) -> Result<SurveyDocument, DocumentError> {
            if case .system(_, let code) = failure, code == ENOENT {
                return .failure(DocumentError("\(fileName) does not exist"))
            }
            return .failure(DocumentError(Self.describe(failure, fileName: fileName) + backupNotice(for: fileName)))
        }
        // Files in survey's own layout are scanned as they are read; anything else is read
        // whole and left to Foundation.
        switch DocumentFileReader.scannedRecords(filePath(for: name)) {
        case .success(let records?): return .success(SurveyDocument(records: records))
        case .success(nil): break
        case .failure(let failure): return failed(failure)
        }
        let data: Data
        switch readFile(filePath(for: name)) {
        case .success(let contents): data = contents
        case .failure(let failure): return failed(failure)
        }
        do {
            return .success(try SurveyDocument(propertyListData: data))
        } catch let error as DocumentError {
            return .failure(DocumentError("\(fileName): \(error.message)" + backupNotice(for: fileName)))
        } catch {
            return .failure(DocumentError("\(fileName): \(SurveyDocument.oneLine(error))" + backupNotice(for: fileName)))
        }
    }

    static func describe(_ failure: DocumentFileReader.Failure, fileName: String) -> String {
        switch failure {
        case .system(let operation, let code):
            return "\(fileName) could not be read: \(SystemError(operation, code: code).reason)"
        case .tooLarge(let bytes):
            return "\(fileName) is \(DocumentFileReader.sizeText(bytes)), more than survey opens "
                + "(\(DocumentFileReader.sizeText(DocumentFileReader.maximumBytes)))"
        case .notAPropertyList(let first):
            return "\(fileName): not a property list: it starts with \(PropertyListStart.hex(first))"
        case .notARegularFile:
            return "\(fileName) is not a regular file"
        }
    }

    /// Atomic write: a crash leaves the old or the new file, the old file's owner, group and
    /// permission bits are kept (another user's file is written in place behind a backup
    /// copy, see `AtomicFile.write`), and no temporary file stays behind. A document whose
    /// file name is not UTF-8 is refused: it must be renamed first. The document is streamed
    /// into the temporary file survey by survey, never built whole in memory. Returns how many
    /// forbidden characters were replaced.
    @discardableResult
    public func save(_ document: SurveyDocument, as name: String) throws -> Int {
        guard DocumentName.isUsable(name) else {
            throw DocumentError("\"\(name)\" is not a usable document name")
        }
        if let refusal = rawNameRefusal(for: name) { throw refusal }
        try write(to: url(for: name), contents: document.writePropertyList)
        return document.forbiddenCharacterCount
    }

    /// Validation used by prepare, create and rename: the cleaned name or why not.
    /// Trims surrounding blanks and a typed ".plist" and composes accents (NFC); refuses
    /// empty names, "/", a leading ".", control characters, more than 100 characters or more
    /// than 200 UTF-8 bytes (so "NAME (deleted DATE TIME) 2" still fits a file name).
    public static func validateName(_ raw: String) -> Result<String, DocumentError> {
        DocumentName.validate(raw)
    }

    // MARK: - File access shared with drafts

    func write(_ data: Data, to url: URL) throws {
        try write(to: url) { try $0.write(data) }
    }

    /// `write(_:to:)` with the content streamed by `contents`; `commit` as in
    /// `AtomicFile.write(to:contents:commit:)`. Also clears away temporary files of saves
    /// killed in this folder (their writer gone).
    func write(to url: URL, contents: AtomicFile.Contents,
               commit: (_ install: () throws -> Void) throws -> Void = { try $0() }) throws {
        do {
            try AtomicFile.write(to: url, in: fileSystem, contents: contents, commit: commit)
        } catch let error as SystemError {
            throw DocumentError("Could not save \(url.lastPathComponent): \(error.reason)")
        }
        LeftoverTemporaryFiles.remove(in: folder, through: fileSystem)
    }

    /// Reads through the system so that "missing" can be told apart from "unreadable", and
    /// looks at the size and first bytes before reading a file whole (`DocumentFileReader`).
    func readFile(_ path: RawPath) -> Result<Data, DocumentFileReader.Failure> {
        DocumentFileReader.read(path)
    }

    func readFile(_ url: URL) -> Result<Data, DocumentFileReader.Failure> {
        readFile(RawPath(url.path))
    }
}
