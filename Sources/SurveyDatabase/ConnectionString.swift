import FoundationEssentials
import SurveyValues
import SurveyForms
import SurveyStorage

/// Where to connect: a libpq connection string (`host=… dbname=…`) or URI
/// (`postgresql://user@host/db`), from `--db`, else `$SURVEY_DB`, else empty, which lets libpq
/// read its own `PG*` variables and `~/.pgpass` (it does so for any string, too).
///
/// It also knows the password it may carry, so every message survey prints about this
/// connection is redacted: libpq's own errors can quote parts of the string it was given
/// ("missing "=" after …", "invalid percent-encoded token: …", the whole URI), and a password
/// must never reach a screen, a log or a script's stderr.
///
/// Redaction goes by where a password is written, never by searching for its letters in
/// text (issue 28): cutting every "a" out of a message for the password "a", or "password"
/// out of libpq's "password authentication failed", showed the password by the gaps it left.
/// So the string is redacted by its structure (the password's place, and any other value
/// that equals it), and a message only where libpq quotes what it was given: the whole
/// string, a stretch of it that holds the password, or a value equal to the password, each
/// between double quotes as libpq writes them. Prose is never touched.
public struct ConnectionString: Equatable, Sendable {
    /// Exactly as given; handed to libpq, never printed.
    public let text: String
    /// Every password this connection may use (from the string, as written and as libpq reads
    /// it, and `$PGPASSWORD`), longest first: a value libpq quotes that equals one is cut.
    let secrets: [String]
    /// Where `text` holds a secret (a password, or another value equal to one), in Unicode
    /// scalars, sorted and apart: what `redacted` and echoes of the string show as `***`.
    let hidden: [Range<Int>]

    public init(_ text: String, environment: [String: String] = [:]) {
        self.text = text
        let fields = Self.fields(in: text)
        var secrets = fields.filter(\.isPassword).flatMap { [$0.value, $0.written] }
        if let fromEnvironment = environment["PGPASSWORD"], !fromEnvironment.isEmpty { secrets.append(fromEnvironment) }
        // Longest first, so a password that contains another is cut whole.
        self.secrets = Array(Set(secrets.filter { !$0.isEmpty })).sorted { $0.count > $1.count }
        hidden = Self.hiddenRanges(fields, secrets: Set(self.secrets))
    }

    /// `--db`, else `$SURVEY_DB`, else "" (libpq's `PG*` variables and `~/.pgpass`).
    public static func resolve(option: String?, environment: [String: String]) -> ConnectionString {
        if let option { return ConnectionString(option, environment: environment) }
        if let variable = environment["SURVEY_DB"], !variable.isEmpty { return ConnectionString(variable, environment: environment) }
        return ConnectionString("", environment: environment)
    }

    /// The string as it may be shown: each password, and any other value equal to one,
    /// replaced by `***` where it stands.
    public var redacted: String { Self.replacing(hidden, in: Array(text.unicodeScalars), within: 0..<text.unicodeScalars.count) }

    /// What names the database in messages: the redacted string, or where libpq will look.
    public var shown: String { text.isEmpty ? "the database named by PGHOST/PGDATABASE (libpq's defaults)" : redacted }

    /// Characters libpq's messages quote as part of their own wording (`missing "=" after`,
    /// `expected ":" or "/"`): never a value it echoes, so never cut, even when a password is
    /// one of them (cutting them would show it).
    static let libpqWording: Set<String> = ["=", ":", "/", "]", "["]

    /// `message` with each echo of this connection's secrets replaced by `***`: the whole
    /// string (its `redacted` form), and each double-quoted stretch that is a secret or a
    /// piece of the string holding one. Nothing outside quotes but the whole string is cut.
    public func redact(_ message: String) -> String {
        guard !secrets.isEmpty else { return message }
        var out = message
        if !hidden.isEmpty {
            for whole in Set([text, text.trimmingSpaces]).sorted(by: { $0.count > $1.count }) where !whole.isEmpty {
                out = out.replacingEvery(whole, with: redacted)
            }
        }
        let scalars = Array(out.unicodeScalars)
        let source = Array(text.unicodeScalars)
        var result = String.UnicodeScalarView()
        var i = 0
        while i < scalars.count {
            guard scalars[i] == "\"", let close = scalars[(i + 1)...].firstIndex(of: "\"") else {
                result.append(scalars[i]); i += 1; continue
            }
            let quoted = Array(scalars[(i + 1)..<close])
            result.append("\"")
            result.append(contentsOf: quotedEcho(quoted, source: source).unicodeScalars)
            result.append("\"")
            i = close + 1
        }
        return String(result)
    }

    /// A quoted stretch of a message as it may be shown: `***` when it is a secret; the
    /// redacted piece when it is a stretch of the string that holds a secret; else as it is.
    private func quotedEcho(_ quoted: [Unicode.Scalar], source: [Unicode.Scalar]) -> String {
        var content = String.UnicodeScalarView()
        content.append(contentsOf: quoted)
        let text = String(content)
        if Self.libpqWording.contains(text) { return text }
        if secrets.contains(text) { return "***" }
        guard !quoted.isEmpty, quoted.count <= source.count else { return text }
        var start = 0
        while start + quoted.count <= source.count {
            let stretch = start..<(start + quoted.count)
            if source[stretch].elementsEqual(quoted), hidden.contains(where: { $0.overlaps(stretch) }) {
                return Self.replacing(hidden, in: source, within: stretch)
            }
            start += 1
        }
        return text
    }

    /// `scalars[within]` with the parts of `ranges` inside it replaced by `***`.
    static func replacing(_ ranges: [Range<Int>], in scalars: [Unicode.Scalar], within: Range<Int>) -> String {
        var out = String.UnicodeScalarView()
        var i = within.lowerBound
        for range in ranges where range.overlaps(within) {
            let cut = range.clamped(to: within)
            if cut.lowerBound > i { out.append(contentsOf: scalars[i..<cut.lowerBound]) }
            out.append(contentsOf: "***".unicodeScalars)
            i = cut.upperBound
        }
        if i < within.upperBound { out.append(contentsOf: scalars[i..<within.upperBound]) }
        return String(out)
    }

    /// Where `text` holds a password (or a value equal to one), in UTF-8 bytes: what the
    /// command line overwrites so `ps` does not show it (`ProcessTitle`).
    public static func hiddenByteRanges(in text: String) -> [Range<Int>] {
        let connection = ConnectionString(text)
        var offsets = [0]
        for scalar in text.unicodeScalars { offsets.append(offsets.last! + String(scalar).utf8.count) }
        return connection.hidden.map { offsets[$0.lowerBound]..<offsets[$0.upperBound] }
    }

    /// One value a connection string writes: its keyword, where it stands in the text (in
    /// Unicode scalars), as written there and as libpq reads it.
    struct Field: Equatable {
        var keyword: String
        var range: Range<Int>
        var written: String
        var value: String
        var isPassword: Bool { keyword == "password" }
    }

    /// The password fields, and every other field whose value is a secret, merged.
    static func hiddenRanges(_ fields: [Field], secrets: Set<String>) -> [Range<Int>] {
        let ranges = fields.filter { !$0.range.isEmpty && ($0.isPassword || secrets.contains($0.value) || secrets.contains($0.written)) }
            .map(\.range).sorted { $0.lowerBound < $1.lowerBound }
        var merged: [Range<Int>] = []
        for range in ranges {
            if let last = merged.last, range.lowerBound <= last.upperBound {
                merged[merged.count - 1] = last.lowerBound..<max(last.upperBound, range.upperBound)
            } else {
                merged.append(range)
            }
        }
        return merged
    }

    static func isURIPrefix(_ text: String) -> Bool { text.hasPrefix("postgresql://") || text.hasPrefix("postgres://") }

    /// The values a connection string writes, a URI's or a keyword string's.
    static func fields(in text: String) -> [Field] {
        let scalars = Array(text.unicodeScalars)
        let trimmed = text.trimmingSpaces
        guard isURIPrefix(trimmed) else { return keywordFields(scalars) }
        let lead = scalars.prefix { $0 == " " || $0 == "\t" || $0 == "\n" }.count
        return uriFields(scalars, from: lead + (trimmed.hasPrefix("postgresql://") ? 13 : 11))
    }

    /// A URI's values: `user:password@` (the password up to the last `@` before the path, so a
    /// password with an unencoded `@` is kept whole), the hosts and ports, the database, and
    /// each `?keyword=value`; values percent-decoded as libpq reads them.
    static func uriFields(_ s: [Unicode.Scalar], from start: Int) -> [Field] {
        var fields: [Field] = []
        func field(_ keyword: String, _ range: Range<Int>) {
            var written = String.UnicodeScalarView()
            written.append(contentsOf: s[range])
            fields.append(Field(keyword: keyword, range: range, written: String(written), value: percentDecoded(String(written))))
        }
        let authorityEnd = s[start...].firstIndex { $0 == "/" || $0 == "?" } ?? s.count
        var hostStart = start
        if let at = s[start..<authorityEnd].lastIndex(of: "@") {
            let colon = s[start..<at].firstIndex(of: ":")
            field("user", start..<(colon ?? at))
            if let colon { field("password", (colon + 1)..<at) }
            hostStart = at + 1
        }
        var i = hostStart
        while i < authorityEnd {
            let end = s[i..<authorityEnd].firstIndex(of: ",") ?? authorityEnd
            // host[:port], or [v6]:port
            let close = s[i] == "[" ? s[i..<end].firstIndex(of: "]") : nil
            let colon = s[(close ?? i)..<end].lastIndex(of: ":")
            field("host", i..<(colon ?? end))
            if let colon { field("port", (colon + 1)..<end) }
            i = end + 1
        }
        var queryStart = authorityEnd
        if authorityEnd < s.count, s[authorityEnd] == "/" {
            let end = s[authorityEnd...].firstIndex(of: "?") ?? s.count
            field("dbname", (authorityEnd + 1)..<end)
            queryStart = end
        }
        i = queryStart + 1
        while i < s.count {
            let end = s[i...].firstIndex(of: "&") ?? s.count
            if let equals = s[i..<end].firstIndex(of: "=") {
                var keyword = String.UnicodeScalarView()
                keyword.append(contentsOf: s[i..<equals])
                field(percentDecoded(String(keyword)), (equals + 1)..<end)
            }
            i = end + 1
        }
        return fields
    }

    /// A keyword string's `keyword = value` pairs as libpq reads them: values in single quotes
    /// may hold spaces and `\'`, `\\`; unquoted ones end at a space. A word after an unquoted
    /// password that is not a `keyword=` (`password=my secret`: libpq takes "my" and refuses
    /// "secret", quoting it) is counted in the password's place.
    static func keywordFields(_ scalars: [Unicode.Scalar]) -> [Field] {
        var fields: [Field] = []
        var i = 0
        func skipSpace() { while i < scalars.count, scalars[i] == " " || scalars[i] == "\t" || scalars[i] == "\n" { i += 1 } }
        func word(_ range: Range<Int>) -> String {
            var out = String.UnicodeScalarView()
            out.append(contentsOf: scalars[range])
            return String(out)
        }
        while i < scalars.count {
            skipSpace()
            let keywordStart = i
            while i < scalars.count, scalars[i] != "=", scalars[i] != " ", scalars[i] != "\t", scalars[i] != "\n" { i += 1 }
            let keyword = keywordStart..<i
            skipSpace()
            guard i < scalars.count, scalars[i] == "=" else {
                // Not a pair: after an unquoted password, the rest of what was meant as it.
                if !keyword.isEmpty, var last = fields.last, last.isPassword, !last.written.hasPrefix("'") {
                    last.range = last.range.lowerBound..<keyword.upperBound
                    last.written = word(last.range)
                    fields[fields.count - 1] = last
                }
                break
            }
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
                i = min(i + 1, scalars.count)
            } else {
                while i < scalars.count, scalars[i] != " ", scalars[i] != "\t", scalars[i] != "\n" {
                    if scalars[i] == "\\", i + 1 < scalars.count { i += 1 }
                    value.append(scalars[i]); i += 1
                }
            }
            fields.append(Field(keyword: word(keyword), range: start..<i, written: word(start..<i), value: String(value)))
        }
        return fields
    }

    /// `%xx` escapes decoded as UTF-8; text that is not valid stays as it was.
    static func percentDecoded(_ text: String) -> String {
        var bytes: [UInt8] = []
        let utf8 = Array(text.utf8)
        var i = 0
        while i < utf8.count {
            if utf8[i] == UInt8(ascii: "%"), i + 2 < utf8.count, let high = hexDigit(utf8[i + 1]), let low = hexDigit(utf8[i + 2]) {
                bytes.append(high << 4 | low); i += 3
            } else {
                bytes.append(utf8[i]); i += 1
            }
        }
        return String(validating: bytes, as: UTF8.self) ?? text
    }

    private static func hexDigit(_ c: UInt8) -> UInt8? {
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): c - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): c - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): c - UInt8(ascii: "A") + 10
        default: nil
        }
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
