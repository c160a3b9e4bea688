import FoundationEssentials
import SurveyModel

/// Where to connect: a libpq connection string (`host=… dbname=…`) or URI
/// (`postgresql://user@host/db`), from `--db`, else `$SURVEY_DB`, else empty, which lets libpq
/// read its own `PG*` variables and `~/.pgpass` (it does so for any string, too).
///
/// It also knows the password it may carry, so every message survey prints about this
/// connection is redacted: libpq's own errors can quote parts of the string it was given
/// ("missing "=" after …", "invalid port …"), and a password must never reach a screen, a log
/// or a script's stderr.
public struct ConnectionString: Equatable, Sendable {
    /// Exactly as given; handed to libpq, never printed.
    public let text: String
    /// Every password this connection may use (from the string, percent-decoded too, and
    /// `$PGPASSWORD`): each is cut out of any message.
    let secrets: [String]

    public init(_ text: String, environment: [String: String] = [:]) {
        self.text = text
        var secrets = Self.passwords(in: text)
        if let fromEnvironment = environment["PGPASSWORD"], !fromEnvironment.isEmpty { secrets.append(fromEnvironment) }
        // Longest first, so a password that contains another is cut whole.
        self.secrets = Array(Set(secrets.filter { !$0.isEmpty })).sorted { $0.count > $1.count }
    }

    /// `--db`, else `$SURVEY_DB`, else "" (libpq's `PG*` variables and `~/.pgpass`).
    public static func resolve(option: String?, environment: [String: String]) -> ConnectionString {
        if let option { return ConnectionString(option, environment: environment) }
        if let variable = environment["SURVEY_DB"], !variable.isEmpty { return ConnectionString(variable, environment: environment) }
        return ConnectionString("", environment: environment)
    }

    /// The string as it may be shown: the password replaced by `***`.
    public var redacted: String { redact(text) }

    /// What names the database in messages: the redacted string, or where libpq will look.
    public var shown: String { text.isEmpty ? "the database named by PGHOST/PGDATABASE (libpq's defaults)" : redacted }

    /// `message` with every password this connection may use replaced by `***`.
    public func redact(_ message: String) -> String {
        var out = message
        for secret in secrets { out = out.replacingEvery(secret, with: "***") }
        return out
    }

    /// The passwords `text` writes (a URI's or a keyword string's), longest first: what the
    /// command line hides from `ps`.
    public static func passwordsWritten(in text: String) -> [String] {
        Array(Set(passwords(in: text).filter { !$0.isEmpty })).sorted { $0.count > $1.count }
    }

    static func isURIPrefix(_ text: String) -> Bool { text.hasPrefix("postgresql://") || text.hasPrefix("postgres://") }

    /// The passwords written in a connection string: a URI's `user:password@` and
    /// `?password=`, a keyword string's `password=value` (quoted or not).
    static func passwords(in text: String) -> [String] {
        var found: [String] = []
        let trimmed = text.trimmingSpaces
        if isURIPrefix(trimmed) {
            guard let scheme = trimmed.firstRange(of: "://") else { return found }
            let rest = trimmed[scheme.upperBound...]
            let authority = rest.prefix { $0 != "/" && $0 != "?" }
            if let at = authority.lastIndex(of: "@"), let colon = authority[..<at].firstIndex(of: ":") {
                let password = String(authority[authority.index(after: colon)..<at])
                found += [password, percentDecoded(password)]
            }
            if let question = trimmed.firstIndex(of: "?") {
                for pair in trimmed[trimmed.index(after: question)...].split(separator: "&") {
                    let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                    if parts.count == 2, parts[0] == "password" { found += [String(parts[1]), percentDecoded(String(parts[1]))] }
                }
            }
            return found
        }
        for pair in keywordPairs(text) where pair.keyword == "password" { found += [pair.value, pair.written] }
        return found
    }

    /// A keyword string's `keyword = value` pairs as libpq reads them: values in single quotes
    /// may hold spaces and `\'`, `\\`; unquoted ones end at a space. `written` is the value as
    /// it stands in the text (escapes and all), which is what an echo of the text would show.
    static func keywordPairs(_ text: String) -> [(keyword: String, value: String, written: String)] {
        var pairs: [(keyword: String, value: String, written: String)] = []
        let scalars = Array(text.unicodeScalars)
        var i = 0
        func skipSpace() { while i < scalars.count, scalars[i] == " " || scalars[i] == "\t" || scalars[i] == "\n" { i += 1 } }
        while i < scalars.count {
            skipSpace()
            var keyword = String.UnicodeScalarView()
            while i < scalars.count, scalars[i] != "=", scalars[i] != " ", scalars[i] != "\t" { keyword.append(scalars[i]); i += 1 }
            skipSpace()
            guard i < scalars.count, scalars[i] == "=" else { break }
            i += 1
            skipSpace()
            var value = String.UnicodeScalarView()
            let start = i
            if i < scalars.count, scalars[i] == "'" {
                i += 1
                while i < scalars.count, scalars[i] != "'" {
                    if scalars[i] == "\\", i + 1 < scalars.count { i += 1 }
                    value.append(scalars[i]); i += 1
                }
                i += 1
            } else {
                while i < scalars.count, scalars[i] != " ", scalars[i] != "\t", scalars[i] != "\n" {
                    if scalars[i] == "\\", i + 1 < scalars.count { i += 1 }
                    value.append(scalars[i]); i += 1
                }
            }
            var written = String.UnicodeScalarView()
            written.append(contentsOf: scalars[start..<min(i, scalars.count)])
            pairs.append((String(keyword), String(value), String(written)))
        }
        return pairs
    }

    /// `%xx` escapes decoded as UTF-8; text that is not valid stays as it was.
    static func percentDecoded(_ text: String) -> String {
        var bytes: [UInt8] = []
        let utf8 = Array(text.utf8)
        var i = 0
        while i < utf8.count {
            if utf8[i] == UInt8(ascii: "%"), i + 2 < utf8.count,
               let byte = UInt8(String(decoding: utf8[(i + 1)...(i + 2)], as: UTF8.self), radix: 16) {
                bytes.append(byte); i += 3
            } else {
                bytes.append(utf8[i]); i += 1
            }
        }
        return String(validating: bytes, as: UTF8.self) ?? text
    }
}

extension String {
    /// Without leading and trailing spaces, tabs and newlines. Walks the UTF-8 bytes: the
    /// generic `drop`/`reversed` chain it replaces cost every start of the binary about a
    /// millisecond, most of it the runtime instantiating `ReversedCollection` and `Slice`
    /// metadata by name (the arguments are checked for passwords before anything else runs).
    var trimmingSpaces: String {
        let bytes = utf8
        func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0A }
        var start = bytes.startIndex, end = bytes.endIndex
        while start < end, isSpace(bytes[start]) { start = bytes.index(after: start) }
        while end > start, isSpace(bytes[bytes.index(before: end)]) { end = bytes.index(before: end) }
        return start == bytes.startIndex && end == bytes.endIndex ? self : String(self[start..<end])
    }
}
