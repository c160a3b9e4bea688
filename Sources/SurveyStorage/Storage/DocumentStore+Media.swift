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

extension DocumentStore {
    /// Why `name` (from a form, a server, another laptop) cannot be a file of a media folder,
    /// or nil: a path, a hidden name, control characters.
    public static func mediaNameProblem(_ name: String) -> String? { MediaFolder.problem(withName: name) }

    /// folder/NAME.media
    public func mediaFolderURL(for name: String) -> URL {
        companionURL(.media, for: name)
    }

    /// Copies files into the document's media folder under their own names (a list the form
    /// reads, a picture a label shows), replacing an older copy of the same name atomically.
    /// Each copy is only as readable as its file, and a link is refused (`CopiedFile`).
    /// Returns the names copied.
    @discardableResult
    public func attachMediaFiles(_ paths: [String], to name: String) throws -> [String] {
        guard exists(name) else { throw Self.doesNotExist(name) }
        return try install(try readMediaFiles(paths), to: name)
    }

    /// Every file read before any is copied, so a refused one (a link, a folder) leaves the
    /// media folder and the document's form as they were.
    func readMediaFiles(_ paths: [String]) throws -> [(file: String, copy: CopiedFile)] {
        try paths.map { path in
            let file = URL(fileURLWithPath: path).lastPathComponent
            if let why = MediaFolder.problem(withName: file) { throw DocumentError("\(path) cannot be attached: \(why)") }
            return (file, try CopiedFile.read(path, in: fileSystem))
        }
    }

    func install(_ files: [(file: String, copy: CopiedFile)], to name: String) throws -> [String] {
        guard !files.isEmpty else { return [] }
        let folder = try mediaFolder(creatingFor: name)
        for (file, copy) in files { try write(copy, to: folder.appendingPathComponent(file)) }
        return files.map(\.file)
    }

    /// The answer to an `image`, `audio`, `video` or `file` question given as a path on disk:
    /// the file is copied into the document's media folder and its name there is returned, to
    /// be stored as the answer (as ODK stores an attachment's file name). A different file
    /// already under that name is never replaced: the copy is named `photo-2.jpg`, `photo-3.jpg`…;
    /// the same bytes under that name are the same attachment, not copied twice. What the
    /// form calls when a keyer gives a path. The copy is only as readable as the file, and a
    /// link is refused (`CopiedFile`).
    public func copyAttachment(from path: String, for name: String) throws -> String {
        guard exists(name) else { throw Self.doesNotExist(name) }
        let given = URL(fileURLWithPath: path).lastPathComponent
        if let why = MediaFolder.problem(withName: given) { throw DocumentError("\(path) cannot be attached: \(why)") }
        let copy = try CopiedFile.read(path, in: fileSystem)
        let folder = try mediaFolder(creatingFor: name)
        let stem = FormMedia.instanceName(of: given)
        let suffix = given.dropFirst(stem.count)
        var number = 1
        while true {
            let file = number == 1 ? given : "\(stem)-\(number)\(suffix)"
            let target = folder.appendingPathComponent(file)
            if !isOccupied(target) {
                try write(copy, to: target)
                return file
            }
            if (try? CopiedFile.read(target.path, in: fileSystem))?.data == copy.data { return file }
            number += 1
        }
    }

    /// `copy` put in place at `url`, readable by its owner alone (or its group too in a
    /// team's shared folder, `NewFileMode`), and never more than the file it came from (a
    /// 0400 photo stays 0400): a photo or list file may be a respondent's (issue 31).
    func write(_ copy: CopiedFile, to url: URL) throws {
        do {
            try AtomicFile.replace(copy.data, at: url, mode: copy.mode & NewFileMode.file(in: url.deletingLastPathComponent().path),
                                   in: fileSystem)
        } catch let error as SystemError {
            throw DocumentError("Could not save \(url.lastPathComponent): \(error.reason)")
        }
        LeftoverTemporaryFiles.remove(in: folder, through: fileSystem)
    }

    /// The media folder, made when missing; refused when something else (a file, a link
    /// that could lead out of the folder) has its name.
    func mediaFolder(creatingFor name: String) throws -> URL {
        let url = mediaFolderURL(for: name)
        var status = stat()
        if lstat(url.path, &status) != 0 {
            if fileSystem.makeFolder(url.path, NewFileMode.folder(in: folder.path)) != 0, errno != EEXIST {
                throw DocumentError("Could not create \(url.lastPathComponent): \(SystemError("mkdir").reason)")
            }
            guard lstat(url.path, &status) == 0 else { throw DocumentError("Could not create \(url.lastPathComponent)") }
        }
        guard (status.st_mode & S_IFMT) == S_IFDIR else {
            throw DocumentError("\(url.lastPathComponent) is not a folder: move it away to attach files to “\(name)”")
        }
        return url
    }

    /// The media folder to read a document's list files from, when it is a real folder.
    func mediaFolderToRead(for name: String) -> URL? {
        let url = mediaFolderURL(for: name)
        var status = stat()
        return lstat(url.path, &status) == 0 && (status.st_mode & S_IFMT) == S_IFDIR ? url : nil
    }
}
