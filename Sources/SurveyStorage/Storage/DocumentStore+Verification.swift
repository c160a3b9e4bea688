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

/// A document's verification record, `.NAME.verify.plist` beside it (`DocumentCompanion`):
/// an XML property list plistlib reads, an array of `VerificationEntry` dictionaries, oldest
/// first. Beside the document rather than inside its surveys, so no export, sync or merge
/// carries it (it says how the office keyed, not what the respondent answered), and it moves
/// with the document through rename, trash and restore.
///
/// Lines are only added: each is written at once (the file rewritten whole, atomically), so
/// a verification stopped anywhere resumes from the last question written. A file that is
/// there but cannot be read is never written over: adding refuses with the reason.
extension DocumentStore {
    /// folder/.NAME.verify.plist
    public func verificationURL(for name: String) -> URL {
        companionURL(.verification, for: name)
    }

    /// The document's verification record (empty when there is none yet). Lines not shaped
    /// as this code writes them are skipped.
    public func verificationLog(for name: String) throws -> VerificationLog {
        try checkDeletedName(name)
        return VerificationLog(try verificationLines(for: name).compactMap(VerificationEntry.init(dictionary:)))
    }

    /// Adds `entries` at the end, in one atomic write; lines already there are kept as they
    /// are, even ones this code cannot read.
    public func appendVerification(_ entries: [VerificationEntry], for name: String) throws {
        try checkDeletedName(name)
        guard !entries.isEmpty else { return }
        // Under the folder's lock: a `survey verify` in a shell and the app each add theirs,
        // never one writing over the other's lines read a moment before.
        try withFolderLock {
            let lines = try verificationLines(for: name) + entries.map(\.dictionary)
            let data = try SurveyDocument(records: lines.map(Record.init)).propertyListData()
            try write(data, to: verificationURL(for: name))
        }
    }

    private func verificationLines(for name: String) throws -> [[String: PropertyValue]] {
        let url = verificationURL(for: name)
        let data: Data
        switch readFile(url) {
        case .success(let contents): data = contents
        case .failure(.system(_, let code)) where code == ENOENT: return []
        case .failure(let failure):
            throw Self.unreadableVerification(Self.describe(failure, fileName: url.lastPathComponent))
        }
        do {
            return try SurveyDocument(propertyListData: data).records.map(\.values)
        } catch let error as DocumentError {
            throw Self.unreadableVerification("\(url.lastPathComponent): \(error.message)")
        }
    }

    private static func unreadableVerification(_ reason: String) -> DocumentError {
        DocumentError("\(reason); it holds the document's verification record, so survey does not write over it "
            + "(repair it or move it away)")
    }
}
