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

/// The files of a folder export (`export --format odk-csv|odk-xml --output FOLDER`), written
/// only inside FOLDER. Their names come from the form (its `form_id`, title and repeat names)
/// and from the surveys (their ids), and a name from a form or a survey is never a path:
/// each is made one plain file name first (`safeName`), and before anything is written
/// every file's place is checked to lie inside FOLDER, through no link found there (a link
/// inside FOLDER could lead a write out of it). Nothing is written when any file is already
/// there and `replacing` is false, so a second export never mixes with a first.
public enum ExportFolder {
    /// One file to write: its path inside the folder, a name per step, and its bytes.
    public struct File {
        public let path: [String]
        public let data: Data
        public init(path: [String], data: Data) {
            self.path = path
            self.data = data
        }
    }

    /// Writes `files` into `root` (created if missing), each whole or not at all. Throws a
    /// `DocumentError` before writing anything when a step of a path is not a plain name
    /// (empty, `.`, `..`, holding `/` or NUL), two files share a path, a step inside `root`
    /// is a link or not a folder, a file is already there and `replacing` is false, or a
    /// file there is a link or not a regular file.
    public static func write(_ files: [File], into root: URL, replacing: Bool) throws {
        var seen: Set<[String]> = []
        for file in files {
            guard !file.path.isEmpty, file.path.allSatisfy(isPlainName) else {
                throw DocumentError("“\(file.path.joined(separator: "/"))” is not a name inside \(root.path): nothing was written")
            }
            guard seen.insert(file.path).inserted else {
                throw DocumentError("two files would both be \(url(file.path, in: root).path): nothing was written")
            }
            try checkPlace(file.path, in: root, replacing: replacing)
        }
        for file in files {
            let target = url(file.path, in: root)
            try makeFolders(file.path.dropLast(), in: root)
            // Checked again just before: a folder made above is ours, and nothing else may
            // have put a link where a step is meanwhile.
            try checkPlace(file.path, in: root, replacing: replacing)
            do {
                try ExportFile.write(file.data, to: target, replacing: replacing)
            } catch is ExportFile.AlreadyExists {
                throw DocumentError("\(target.path) already exists (add --force to replace it)")
            }
        }
    }

    /// A name that stays one step down: not empty, not `.` or `..`, no `/` or NUL.
    static func isPlainName(_ name: String) -> Bool {
        !name.isEmpty && name != "." && name != ".." && !name.contains("/") && !name.unicodeScalars.contains("\0")
    }

    private static func url(_ path: [String], in root: URL) -> URL {
        path.reduce(root) { $0.appendingPathComponent($1) }
    }

    /// Every folder of `path` below `root` is a real folder or not there yet; the file is
    /// not there, or (when replacing) a regular file, never a link.
    private static func checkPlace(_ path: [String], in root: URL, replacing: Bool) throws {
        var current = root
        for (i, step) in path.enumerated() {
            current.appendPathComponent(step)
            var info = stat()
            guard lstat(current.path, &info) == 0 else { return }   // nothing there: nor below
            let type = info.st_mode & S_IFMT
            if i < path.count - 1 {
                guard type == S_IFDIR else {
                    throw DocumentError("\(current.path) is \(type == S_IFLNK ? "a link" : "not a folder"): "
                        + "survey writes only inside \(root.path), through no link; nothing was written")
                }
            } else {
                guard replacing else { throw DocumentError("\(current.path) already exists (add --force to replace it)") }
                guard type == S_IFREG else {
                    throw DocumentError("\(current.path) is \(type == S_IFLNK ? "a link" : "not a regular file"): "
                        + "survey replaces only files inside \(root.path); nothing was written")
                }
            }
        }
    }

    private static func makeFolders(_ steps: ArraySlice<String>, in root: URL) throws {
        var current = root
        do {
            if !FileManager.default.fileExists(atPath: root.path) {
                try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true, attributes: [
                    .posixPermissions: Int(NewFileMode.folder(in: root.deletingLastPathComponent().path)),
                ])
            }
            for step in steps {
                let parent = current.path
                current.appendPathComponent(step)
                if mkdir(current.path, NewFileMode.folder(in: parent)) != 0, errno != EEXIST { throw SystemError("mkdir") }
            }
        } catch let error as SystemError {
            throw DocumentError("Could not create \(current.path): \(error.reason)")
        } catch {
            throw DocumentError("Could not create \(current.path): \(error)")
        }
    }
}
