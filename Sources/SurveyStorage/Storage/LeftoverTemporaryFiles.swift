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

/// Temporary files of saves that were killed half-way (`.K2.plist.tmp-PID-RANDOM`, as big as
/// the document) used to pile up. They are removed at the next start or save in the folder
/// once their writer is surely gone; another live writer's file is never touched.
enum LeftoverTemporaryFiles {
    /// A writer whose process has ended may still be writing from another PID namespace (a
    /// container sharing the folder), so its file must also have stopped changing this long.
    static let quietForDeadWriter: TimeInterval = 60
    /// A live process that is not a survey got the PID of a writer that has gone (PIDs are
    /// reused); the long wait covers a survey started under another command name.
    static let quietForOtherProgram: TimeInterval = 10 * 60

    /// Best effort: a folder that cannot be read or a file that cannot be removed is left.
    /// The system's clock, not the app's: it is compared with the times the file system
    /// stamped on the files, which a pinned or test clock knows nothing of.
    static func remove(in folder: URL, through fs: FileSystem) {
        let now = Date()
        guard let entries = try? FolderEntry.list(folder) else { return }
        let names = Set(entries.compactMap(\.validName))
        for entry in entries {
            guard let name = entry.validName, let parsed = parse(name),
                  names.contains(parsed.target) || names.contains("." + parsed.target) else { continue }
            let path = folder.appendingPathComponent(name).path
            var status = stat()
            guard lstat(path, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG else { continue }
            let quiet = now.timeIntervalSince(DocumentStore.modificationDate(status))
            if isAbandoned(pid: parsed.pid, quietFor: quiet) { _ = fs.unlink(path) }
        }
    }

    /// ".NAME.tmp-PID-HEX" -> ("NAME", PID), as `AtomicFile.temporaryName` makes them. The
    /// document it was written for is "NAME" or ".NAME" (a draft lost its leading dot).
    static func parse(_ name: String) -> (target: String, pid: pid_t)? {
        guard name.hasPrefix("."), let marker = name.lastRange(of: ".tmp-"),
              marker.lowerBound > name.startIndex else { return nil }
        let target = String(name[name.index(after: name.startIndex)..<marker.lowerBound])
        let parts = name[marker.upperBound...].split(separator: "-", omittingEmptySubsequences: false)
        guard !target.isEmpty, parts.count == 2, let pid = pid_t(parts[0]), pid > 0,
              !parts[1].isEmpty, parts[1].allSatisfy(\.isHexDigit) else { return nil }
        return (target, pid)
    }

    /// Never our own; a process that has ended (ESRCH), once the file has been quiet a
    /// minute; a live process that is not a survey (`/proc/PID/comm`), after ten.
    static func isAbandoned(pid: pid_t, quietFor quiet: TimeInterval) -> Bool {
        if pid == getpid() { return false }
        if kill(pid, 0) != 0, errno == ESRCH { return quiet >= quietForDeadWriter }
        return quiet >= quietForOtherProgram && !isSurvey(pid)
    }

    /// A process we cannot look at counts as a survey (kept).
    private static func isSurvey(_ pid: pid_t) -> Bool {
        guard let comm = try? String(contentsOfFile: "/proc/\(pid)/comm", encoding: .utf8) else { return true }
        return comm.hasPrefix("survey")
    }
}
