import FoundationEssentials
import SurveyDatabase
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A password written in `--db postgresql://ana:secret@host/db` would show in `ps` and in
/// /proc/PID/cmdline for as long as a sync runs: those show the process's own argument
/// memory, so each password's bytes there are overwritten with `*` as soon as the arguments
/// are parsed (as mysql's and psql's clients do). The parsed copy keeps the real one. Only
/// where the password is written (`ConnectionString.hiddenByteRanges`): starring its letters
/// wherever they occur in the argument showed a short password by the gaps.
enum ProcessTitle {
    static func hidePasswords() {
        for index in 1..<Int(CommandLine.argc) {
            // Only an argument that can hold a password (a URI's `user:secret@`, a keyword or
            // query `password=`, percent-encoded or not) is parsed.
            guard let raw = CommandLine.unsafeArgv[index], strchr(raw, 0x40) != nil || strchr(raw, 0x3D) != nil,
                  let text = String(validatingCString: raw) else { continue }
            let offset = text.hasPrefix("--db=") ? 5 : 0
            let ranges = ConnectionString.hiddenByteRanges(in: String(text.dropFirst(offset)))
            guard !ranges.isEmpty else { continue }
            let bytes = UnsafeMutableBufferPointer(start: UnsafeMutableRawPointer(raw).assumingMemoryBound(to: UInt8.self), count: strlen(raw))
            for range in ranges {
                for j in (range.lowerBound + offset)..<min(range.upperBound + offset, bytes.count) { bytes[j] = UInt8(ascii: "*") }
            }
        }
    }
}
