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
/// are parsed (as mysql's and psql's clients do). The parsed copy keeps the real one.
enum ProcessTitle {
    static func hidePasswords() {
        for index in 1..<Int(CommandLine.argc) {
            // Only an argument that can hold a password (a URI's `user:secret@`, a keyword or
            // query `password=`, percent-encoded or not) is parsed.
            guard let raw = CommandLine.unsafeArgv[index], strchr(raw, 0x40) != nil || strchr(raw, 0x3D) != nil,
                  let text = String(validatingCString: raw) else { continue }
            let value = text.hasPrefix("--db=") ? String(text.dropFirst(5)) : text
            let secrets = ConnectionString.passwordsWritten(in: value).filter { !$0.isEmpty }
            guard !secrets.isEmpty else { continue }
            let length = strlen(raw)
            let bytes = UnsafeMutableBufferPointer(start: UnsafeMutableRawPointer(raw).assumingMemoryBound(to: UInt8.self), count: length)
            for secret in secrets {
                let needle = Array(secret.utf8)
                var i = 0
                while i + needle.count <= bytes.count {
                    if bytes[i..<(i + needle.count)].elementsEqual(needle) {
                        for j in i..<(i + needle.count) { bytes[j] = UInt8(ascii: "*") }
                        i += needle.count
                    } else {
                        i += 1
                    }
                }
            }
        }
    }
}
