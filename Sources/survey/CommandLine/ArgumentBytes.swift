import FoundationEssentials
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Names and paths reach survey as bytes, and `CommandLine.arguments` and
/// `ProcessInfo.environment` decode them lossily: `--dir 'caf\xE9'` (a Latin-1 name) would
/// become the folder `caf\u{FFFD}`, another folder, and data would go there. So the raw
/// bytes are checked first, and anything that is not UTF-8 is refused (exit 2) before a
/// file is touched. Refusing rather than using the bytes as given: every other part of
/// survey (names, messages, the state file, URLs) holds text, and a folder named in
/// another encoding is better renamed once than half supported.
enum ArgumentBytes {
    /// The first argument that is not UTF-8, as a usage error naming its position.
    static func checkArguments() throws {
        for index in 1..<Int(CommandLine.argc) {
            guard let raw = CommandLine.unsafeArgv[index], String(validatingCString: raw) == nil else { continue }
            throw CommandLineOptions.UsageError(description: "argument \(index) \(notUTF8(raw))")
        }
    }

    /// The environment variables survey will actually use for its folders, given `--dir`
    /// (a variable overridden by a flag or an earlier variable does not matter): a message
    /// for the first that is not UTF-8, else nil.
    static func environmentProblem(dir: String?) -> String? {
        func given(_ name: String) -> UnsafeMutablePointer<CChar>? {
            guard let value = getenv(name), value.pointee != 0 else { return nil }
            return value
        }
        var used: [String] = []
        if dir?.isEmpty ?? true {
            if given("SURVEY_HOME") != nil {
                used.append("SURVEY_HOME")
            } else if let data = given("XDG_DATA_HOME"), UInt8(bitPattern: data.pointee) == UInt8(ascii: "/") {
                used.append("XDG_DATA_HOME")
            } else {
                used.append("HOME")
            }
        }
        if let state = given("XDG_STATE_HOME"), UInt8(bitPattern: state.pointee) == UInt8(ascii: "/") {
            used.append("XDG_STATE_HOME")
        } else {
            used.append("HOME")
        }
        for name in used {
            if let raw = given(name), String(validatingCString: raw) == nil {
                return "$\(name) \(notUTF8(raw))"
            }
        }
        return nil
    }

    /// "is not UTF-8 text (caf\xE9): ...", showing each byte that is not part of UTF-8 as \xHH.
    private static func notUTF8(_ raw: UnsafePointer<CChar>) -> String {
        let bytes = Array(UnsafeBufferPointer(start: raw, count: strlen(raw))).map { UInt8(bitPattern: $0) }
        var shown = ""
        var parser = Unicode.UTF8.ForwardParser()
        var iterator = bytes.makeIterator()
        var offset = 0
        while true {
            switch parser.parseScalar(from: &iterator) {
            case .valid(let encoded):
                shown.unicodeScalars.append(Unicode.UTF8.decode(encoded))
                offset += encoded.count
            case .error(let length):
                for byte in bytes[offset..<offset + length] {
                    shown += "\\x" + String(byte, radix: 16, uppercase: true).leftPadded(to: 2)
                }
                offset += length
            case .emptyInput:
                return "is not UTF-8 text (\(shown)): give names and paths in UTF-8"
            }
        }
    }
}

private extension String {
    func leftPadded(to width: Int) -> String {
        String(repeating: "0", count: max(0, width - count)) + self
    }
}
