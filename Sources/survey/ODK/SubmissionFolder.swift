import FoundationEssentials
import SurveyValues
import SurveyForms
import SurveyStorage
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// An encrypted submission's folder as ODK leaves it: Collect's `instances/NAME/` (the
/// manifest under the instance's own name, `NAME.xml`, beside `submission.xml.enc` and the
/// media's `.enc` files) or Briefcase's `instances/uuid…/` (the manifest as
/// `submission.xml`). The manifest is the `.xml` file that holds `base64EncryptedKey`.
struct SubmissionFolder: Equatable {
    /// As the person gave it (and the subfolder's name after it), for messages.
    let path: String
    /// The manifest's file name in it.
    let manifest: String

    struct Refusal: Error, CustomStringConvertible {
        let description: String
    }

    /// A FOLDER given to `survey decrypt`: an instance folder itself, else each of its
    /// subfolders that holds a manifest (Collect's `instances/`, Briefcase's
    /// `forms/FORM/instances/`), by name. A subfolder that holds none (a form not
    /// encrypted, Collect's other files) is passed over; a folder with none anywhere is a
    /// refusal, as is a subfolder whose manifest cannot be told.
    static func collect(_ argument: String) -> [(path: String, outcome: Result<SubmissionFolder, Error>)] {
        guard PrivateFiles.isFolder(argument) else {
            return [(argument, .failure(Refusal(description: PrivateFiles.exists(argument) ? "not a folder" : "no such folder")))]
        }
        do {
            if let folder = try find(in: argument) { return [(argument, .success(folder))] }
        } catch {
            return [(argument, .failure(error))]
        }
        var found: [(path: String, outcome: Result<SubmissionFolder, Error>)] = []
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: argument)) ?? []).sorted()
        for name in names where !name.hasPrefix(".") {
            let path = argument.hasSuffix("/") ? argument + name : argument + "/" + name
            guard PrivateFiles.isFolder(path) else { continue }
            do {
                if let folder = try find(in: path) { found.append((path, .success(folder))) }
            } catch {
                found.append((path, .failure(error)))
            }
        }
        if found.isEmpty {
            return [(argument, .failure(Refusal(description: "no encrypted submission in it or in its folders (one holds a manifest .xml with base64EncryptedKey, and submission.xml.enc)")))]
        }
        return found
    }

    /// The folder's manifest: `submission.xml` when it is one, else its one `.xml` file that
    /// is; nil when it has none.
    static func find(in path: String) throws -> SubmissionFolder? {
        let names = try FileManager.default.contentsOfDirectory(atPath: path).sorted()
        func isManifest(_ name: String) -> Bool {
            (try? read(path + "/" + name, limit: ODKManifest.largest)).map(ODKManifest.looksLikeManifest) ?? false
        }
        if names.contains("submission.xml"), isManifest("submission.xml") {
            return SubmissionFolder(path: path, manifest: "submission.xml")
        }
        let manifests = names.filter { $0.hasSuffix(".xml") && !$0.hasPrefix(".") && isManifest($0) }
        guard manifests.count <= 1 else {
            throw Refusal(description: "it holds \(manifests.count) manifests (\(manifests.joined(separator: ", "))): one encrypted submission a folder")
        }
        return manifests.first.map { SubmissionFolder(path: path, manifest: $0) }
    }

    /// A file of the folder by the plain name the manifest gave (`ODKFileName` checked it).
    func read(_ name: String) throws -> [UInt8] {
        try Self.read(path + "/" + name, limit: Int.max)
    }

    /// A regular file's bytes, at most `limit` of them.
    static func read(_ path: String, limit: Int) throws -> [UInt8] {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw Refusal(description: PrivateFiles.reason(errno)) }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw Refusal(description: PrivateFiles.reason(errno)) }
        guard (info.st_mode & S_IFMT) == S_IFREG else { throw Refusal(description: "not a file") }
        guard Int(info.st_size) <= limit else { throw Refusal(description: "\(info.st_size) bytes, more than \(limit)") }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = chunk.withUnsafeMutableBytes { readSome(fd, $0) }
            if n < 0, errno == EINTR { continue }
            guard n >= 0 else { throw Refusal(description: PrivateFiles.reason(errno)) }
            guard n > 0 else { break }
            bytes += chunk[0..<n]
            guard bytes.count <= limit else { throw Refusal(description: "more than \(limit) bytes") }
        }
        return bytes
    }
}

/// `read(2)`, outside `SubmissionFolder`, whose own `read` would shadow it.
private func readSome(_ fd: Int32, _ buffer: UnsafeMutableRawBufferPointer) -> Int {
    read(fd, buffer.baseAddress, buffer.count)
}
