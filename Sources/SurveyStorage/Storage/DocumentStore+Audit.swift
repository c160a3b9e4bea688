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

/// A document's audit log, `.NAME.audit.csv` beside it (`DocumentCompanion.audit`): one CSV
/// file for all its surveys, each line an ODK Collect audit event with the survey's
/// instanceID first (`AuditLog`). Beside the document, as the verification record is, so it
/// moves with it through rename, trash and restore; `survey export --format odk-xml` splits
/// it into each survey's `audit.csv`.
///
/// Lines are only added, each batch in one atomic write (the file rewritten whole through
/// `AtomicFile`, so a failure leaves the file as it was and the batch is reported, never half
/// written). A file that is there but cannot be read is never written over.
extension DocumentStore {
    /// folder/.NAME.audit.csv
    public func auditURL(for name: String) -> URL {
        companionURL(.audit, for: name)
    }

    /// The document's audit log (empty when there is none yet).
    public func auditLog(for name: String) throws -> AuditLog {
        try checkDeletedName(name)
        guard let text = try auditText(for: name) else { return AuditLog() }
        do {
            return try AuditLog(text: text)
        } catch let error as DocumentError {
            throw Self.unreadableAudit("\(auditURL(for: name).lastPathComponent): \(error.message)")
        }
    }

    /// Adds `events` at the end, in one atomic write; the lines already there are kept as
    /// they are. Returns how many events the log held before them (a sync taking the team's
    /// lines tells from it whether lines of this laptop came in between); 0 when there were
    /// none to add.
    @discardableResult
    public func appendAudit(_ events: [AuditEvent], for name: String) throws -> Int {
        try checkDeletedName(name)
        guard !events.isEmpty else { return 0 }     // nothing added: the file is not even read
        // Under the folder's lock: two windows on one document each add theirs, never one
        // writing over the lines the other added a moment before.
        return try withFolderLock {
            let old = try auditText(for: name)
            let before = try old.map { try auditLogChecked($0, name: name).events.count } ?? 0
            var text = old ?? CSV.text([AuditLog.header])
            // A last line without its end (written by hand) gets one; CRLF is one Character, so
            // the scalars are asked.
            if let last = text.unicodeScalars.last, last != "\n", last != "\r" { text += "\r\n" }
            text += AuditLog.lines(events)
            try write(Data(text.utf8), to: auditURL(for: name))
            return before
        }
    }

    /// Removes every line of `surveys` (their logs sealed inside their encrypted submissions,
    /// issue 31), in one atomic write; a log without them is left as it is.
    public func removeAudit(of surveys: Set<String>, for name: String) throws {
        try checkDeletedName(name)
        guard !surveys.isEmpty else { return }
        try withFolderLock {
            guard let old = try auditText(for: name) else { return }
            let log = try auditLogChecked(old, name: name)
            let kept = log.events.filter { !surveys.contains($0.survey) }
            guard kept.count != log.events.count else { return }
            try write(Data(AuditLog.text(kept).utf8), to: auditURL(for: name))
        }
    }

    private func auditLogChecked(_ text: String, name: String) throws -> AuditLog {
        do {
            return try AuditLog(text: text)
        } catch let error as DocumentError {
            throw Self.unreadableAudit("\(auditURL(for: name).lastPathComponent): \(error.message)")
        }
    }

    /// The file's text, read through the store's `FileSystem`; nil when there is none.
    private func auditText(for name: String) throws -> String? {
        let url = auditURL(for: name)
        let fd = fileSystem.open(url.path, O_RDONLY | O_CLOEXEC)
        if fd < 0 {
            if errno == ENOENT { return nil }
            throw Self.unreadableAudit("\(url.lastPathComponent): \(String(cString: strerror(errno)))")
        }
        defer { _ = fileSystem.close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = chunk.withUnsafeMutableBytes { fileSystem.read(fd, $0.baseAddress!, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw Self.unreadableAudit("\(url.lastPathComponent): \(String(cString: strerror(errno)))")
            }
            if count == 0 { break }
            bytes += chunk[0..<count]
        }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw Self.unreadableAudit("\(url.lastPathComponent): it is not UTF-8 text")
        }
        return text
    }

    private static func unreadableAudit(_ reason: String) -> DocumentError {
        DocumentError("\(reason); it holds the document's audit log, so survey does not write over it "
            + "(repair it or move it away)")
    }
}
