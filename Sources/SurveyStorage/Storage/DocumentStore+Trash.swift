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

/// Deleting moves a document (with its draft and deleted surveys) into `.trash/` inside the document folder
/// instead of unlinking it: a field worker who removes the wrong survey can get it back, and
/// the trash travels with the folder. The leading "." keeps it out of the document list.
extension DocumentStore {
    /// folder/.trash
    public var trashFolder: URL {
        folder.appendingPathComponent(".trash", isDirectory: true)
    }

    /// Moves NAME.plist to `.trash/NAME (deleted YYYY-MM-DD HH.MM.SS).plist` (" 2", " 3"...
    /// when taken), its draft to `.trash/.NAME (deleted ...).draft.plist` and its deleted
    /// surveys to `.trash/.NAME (deleted ...).deleted.plist`. `name` is matched like
    /// `existingName(matching:)`. All or nothing: when a companion cannot be moved, what
    /// was moved goes back. Returns the trash file's name.
    @discardableResult
    public func delete(_ name: String, at date: Date) throws -> String {
        let wanted = DocumentName.cleaned(name)
        guard let current = Self.match(wanted, in: listedNames()) else { throw Self.doesNotExist(wanted) }
        let stem: String
        let trashed: URL
        let source = filePath(for: current)   // the file itself, even when its name is not UTF-8
        do {
            try createTrashFolder()
        } catch let error as SystemError {
            throw DocumentError("Could not move “\(current)” to the trash: \(error.reason)")
        }
        stem = freeTrashStem(for: current, at: date)
        trashed = trashURL(stem: stem)
        let fs = fileSystem
        let companions = DocumentCompanion.allCases.filter { isOccupied(companionURL($0, for: current)) }.map { companion in
            let from = companionURL(companion, for: current).path, to = trashCompanionURL(companion, stem: stem).path
            return MoveStep(companion: companion, run: { try FileMove.withoutReplacing(from: from, to: to, in: fs) },
                            undo: { try? FileMove.withoutReplacing(from: to, to: from, in: fs) })
        }
        do {
            try moveTogether([MoveStep(companion: nil,
                                       run: { try FileMove.withoutReplacing(from: source, to: RawPath(trashed.path), in: fs) },
                                       undo: { try? FileMove.withoutReplacing(from: RawPath(trashed.path), to: source, in: fs) })]
                             + companions)
        } catch let failed as MoveStepFailed {
            let what = failed.companion.map { "the \($0.noun) of “\(current)”" } ?? "“\(current)”"
            throw DocumentError("Could not move \(what) to the trash: \(failed.error.reason)")
        }
        try? AtomicFile.syncFolder(trashFolder.path, in: fileSystem)
        return trashed.lastPathComponent
    }

    /// What is in the trash, most recently deleted first. The date comes from the file
    /// name; a document put there by hand (not named by `delete`) is listed under its own
    /// name with its modification time.
    public func trash() -> [TrashedDocument] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: trashFolder.path)) ?? []
        let found = entries.compactMap { entry -> (document: TrashedDocument, number: Int)? in
            guard entry.hasSuffix(DocumentName.fileSuffix), !entry.hasPrefix("."),
                  entry.count > DocumentName.fileSuffix.count else { return nil }
            var status = stat()
            guard stat(trashFolder.appendingPathComponent(entry).path, &status) == 0,
                  (status.st_mode & S_IFMT) == S_IFREG else { return nil }
            if let parsed = TrashName.parse(entry) {
                return (TrashedDocument(name: parsed.name, deletedAt: parsed.deletedAt, fileName: entry), parsed.number)
            }
            let name = String(entry.dropLast(DocumentName.fileSuffix.count))
            return (TrashedDocument(name: name, deletedAt: Self.modificationDate(status), fileName: entry), 1)
        }
        return found.sorted { a, b in
            if a.document.deletedAt != b.document.deletedAt { return a.document.deletedAt > b.document.deletedAt }
            if a.number != b.number { return a.number > b.number }
            return a.document.fileName > b.document.fileName
        }.map(\.document)
    }

    /// Brings back the most recent deletion (of `name` when given, matched folded) under its
    /// old name, or "NAME 2", "NAME 3"... when that is taken; its draft and its deleted
    /// surveys come back too (all or nothing, as `delete`). Returns the restored name.
    @discardableResult
    public func restore(_ name: String? = nil, at date: Date) throws -> String {
        guard let entry = trashed(matching: name) else {
            guard let name, !trash().isEmpty else { throw DocumentError("The trash is empty") }
            throw DocumentError("Nothing named “\(DocumentName.cleaned(name))” in the trash")
        }
        let target = freeName(startingWith: entry.name)
        let trashed = trashFolder.appendingPathComponent(entry.fileName)
        let stem = String(entry.fileName.dropLast(DocumentName.fileSuffix.count))
        let fs = fileSystem
        let restored = url(for: target).path
        let companions = DocumentCompanion.allCases.filter { isOccupied(trashCompanionURL($0, stem: stem)) }.map { companion in
            let from = trashCompanionURL(companion, stem: stem).path, to = companionURL(companion, for: target).path
            return MoveStep(companion: companion, run: {
                try moveStaleCompanionToTrash(companion, of: target, at: date)
                try FileMove.withoutReplacing(from: from, to: to, in: fs)
            }, undo: { try? FileMove.withoutReplacing(from: to, to: from, in: fs) })
        }
        do {
            try moveTogether([MoveStep(companion: nil, run: { try FileMove.withoutReplacing(from: trashed.path, to: restored, in: fs) },
                                       undo: { try? FileMove.withoutReplacing(from: restored, to: trashed.path, in: fs) })]
                             + companions)
        } catch let failed as MoveStepFailed {
            let what = failed.companion.map { "the \($0.noun) of “\(entry.name)”" } ?? "“\(entry.name)”"
            throw DocumentError("Could not restore \(what): \(failed.error.reason)")
        }
        return target
    }

    /// What `restore(name)` would bring back: the most recent deletion (of `name`, cleaned
    /// and compared folded, when given); nil when there is none.
    public func trashed(matching name: String?) -> TrashedDocument? {
        let entries = trash()
        guard let name else { return entries.first }
        let key = DocumentName.matchKey(DocumentName.cleaned(name))
        return entries.first { DocumentName.matchKey($0.name) == key }
    }

    /// A draft (or deleted surveys) whose document does not exist (left by an older version,
    /// or by hand) is in the way of a document that brings its own under that name. It goes
    /// to the trash rather than being overwritten; a document arriving without one simply
    /// adopts it.
    func moveStaleCompanionToTrash(_ companion: DocumentCompanion, of name: String, at date: Date) throws {
        let stale = companionURL(companion, for: name)
        guard isOccupied(stale) else { return }
        try createTrashFolder()
        let stem = freeTrashStem(for: name, at: date)
        try FileMove.withoutReplacing(from: stale.path, to: trashCompanionURL(companion, stem: stem).path, in: fileSystem)
    }

    // MARK: - Names inside the trash

    private func trashURL(stem: String) -> URL {
        trashFolder.appendingPathComponent(stem + DocumentName.fileSuffix, isDirectory: false)
    }

    /// `.trash/.STEM.draft.plist`, `.trash/.STEM.deleted.plist`
    private func trashCompanionURL(_ companion: DocumentCompanion, stem: String) -> URL {
        trashFolder.appendingPathComponent(companion.fileName(stem: stem), isDirectory: false)
    }

    /// The first stem free for the document and every companion, so they stay together.
    private func freeTrashStem(for name: String, at date: Date) -> String {
        var number = 1
        while true {
            let stem = TrashName.stem(for: name, deletedAt: date, number: number)
            if !isOccupied(trashURL(stem: stem)),
               !DocumentCompanion.allCases.contains(where: { isOccupied(trashCompanionURL($0, stem: stem)) }) {
                return stem
            }
            number += 1
        }
    }

    /// Throws `SystemError` (not `DocumentError`) so callers can roll back and word it.
    func createTrashFolder() throws {
        if isFolder(trashFolder) { return }
        if fileSystem.makeFolder(trashFolder.path, NewFileMode.folder(in: folder.path)) != 0, errno != EEXIST { throw SystemError("create .trash") }
        guard isFolder(trashFolder) else { throw SystemError("create .trash", code: ENOTDIR) }
    }

    private func isFolder(_ url: URL) -> Bool {
        var status = stat()
        return stat(url.path, &status) == 0 && (status.st_mode & S_IFMT) == S_IFDIR
    }
}
