import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif
import SurveyValues
import SurveyForms

/// Saving only over the file we know. A large document takes half a second to serialise;
/// checking the file first and writing it afterwards left that half second for another
/// program (a second window, `survey add`) to save in between, and one of the two changes
/// was lost. The check and the replacement are now one step under an exclusive lock on the
/// folder (`flock`), which every writer of documents takes. The slow part stays outside it:
/// the document is streamed into its temporary file and synced first, and only the check
/// and the rename happen under the lock (a file found changed costs that temporary file).
extension DocumentStore {
    public enum GuardedSave: Equatable, Sendable {
        /// Written; the file's fingerprint now, and how many forbidden characters were replaced.
        case saved(fingerprint: FileFingerprint?, replaced: Int)
        /// Not written: the file is no longer `expected` (its fingerprint now; nil if gone).
        case changed(FileFingerprint?)
    }

    /// Writes `document` as `name` if the file is still `expected`.
    public func save(_ document: SurveyDocument, as name: String, ifStill expected: FileFingerprint?) throws -> GuardedSave {
        guard DocumentName.isUsable(name) else {
            throw DocumentError("\"\(name)\" is not a usable document name")
        }
        if let refusal = rawNameRefusal(for: name) { throw refusal }
        var outcome = GuardedSave.changed(nil)
        try write(to: url(for: name), contents: document.writePropertyList) { install in
            try withFolderLock {
                let current = fingerprint(of: name)
                guard current == expected else { outcome = .changed(current); return }
                try install()
                // Still under the lock: no other save can have replaced the file since.
                outcome = .saved(fingerprint: fingerprint(of: name), replaced: 0)
            }
        }
        if case .saved(let written, _) = outcome {
            return .saved(fingerprint: written, replaced: document.forbiddenCharacterCount)
        }
        return outcome
    }

    /// Runs `body` holding the folder's exclusive lock (shared by every copy of survey and
    /// its command line). Where the folder cannot be locked, `body` runs anyway: the check
    /// before writing still stands, as it did before the lock.
    public func withFolderLock<T>(_ body: () throws -> T) throws -> T {
        let fd = fileSystem.open(folder.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { return try body() }
        defer { _ = fileSystem.close(fd) }
        while fileSystem.lock(fd, LOCK_EX) != 0 {
            if errno != EINTR { return try body() }
        }
        defer { flock(fd, LOCK_UN) }
        return try body()
    }
}
