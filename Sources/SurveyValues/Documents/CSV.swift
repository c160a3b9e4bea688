import FoundationEssentials

/// Comma-separated values as RFC 4180 describes them, so that spreadsheets, Python's `csv`
/// module and shell tools read what we write and we read what they write.
///
/// Writing is strict: CRLF after every row (the last one too), and a field is quoted only
/// when it holds a comma, a double quote, CR or LF, with its quotes doubled. Reading is
/// lenient where that loses nothing: LF or CR alone also end a row, a UTF-8 byte order mark
/// (which Excel writes) is skipped, and a quote inside an unquoted field (`5'10"`) is kept
/// as a character, as Python does. It refuses what would otherwise have to be guessed: text
/// after a closing quote (`"a"b`) and a quoted field that is never closed.
public enum CSV {
    public static func text(_ rows: [[String]]) -> String {
        rows.map { $0.map(field).joined(separator: ",") + "\r\n" }.joined()
    }

    /// One field as written: unchanged, or quoted with its quotes doubled.
    public static func field(_ value: String) -> String {
        let needsQuotes = value.unicodeScalars.contains { [",", "\"", "\r", "\n"].contains($0) }
        guard needsQuotes else { return value }
        return "\"" + value.replacingEvery("\"", with: "\"\"") + "\""
    }

    /// The rows of `text`, each a list of fields. A line break after the last row does not
    /// start another row; an empty line is a row of one empty field (RFC 4180 has no other
    /// reading of it). Scans Unicode scalars, because Swift treats CRLF as one Character.
    /// Throws a `DocumentError` naming the line ("line 4: ..."). `separator` is what stands
    /// between fields: a comma, or what `separator(guessedFrom:)` found.
    public static func rows(_ text: String, separator: Unicode.Scalar = ",") throws -> [[String]] {
        var reader = Reader(text.unicodeScalars, separator: separator)
        return try reader.rows()
    }

    /// The separators spreadsheets write: a comma, a semicolon (Excel where the comma is the
    /// decimal mark, much of Europe and South America) or a tab ("tab-separated values").
    public static let separators: [Unicode.Scalar] = [",", ";", "\t"]

    /// The one of `separators` that occurs most in the first line (after any empty ones)
    /// outside quotes; a comma
    /// when there is a tie or none (a one-column file). The header row is the safest place
    /// to look: column names rarely hold any of them, while answers ("Rua 1; Porto") may.
    public static func separator(guessedFrom text: String) -> Unicode.Scalar {
        var counts: [Unicode.Scalar: Int] = [:]
        var quoted = false
        for scalar in text.unicodeScalars.drop(while: { $0 == "\n" || $0 == "\r" }) {
            if scalar == "\"" { quoted.toggle() }
            if quoted { continue }
            if scalar == "\n" || scalar == "\r" { break }
            if separators.contains(scalar) { counts[scalar, default: 0] += 1 }
        }
        return separators.max { counts[$0, default: 0] < counts[$1, default: 0] } ?? ","
    }

    private struct Reader {
        let scalars: [Unicode.Scalar]
        let separator: Unicode.Scalar
        var index = 0
        var line = 1

        init(_ view: String.UnicodeScalarView, separator: Unicode.Scalar) {
            var scalars = Array(view)
            if scalars.first == "\u{FEFF}" { scalars.removeFirst() }
            self.scalars = scalars
            self.separator = separator
        }

        var atEnd: Bool { index >= scalars.count }

        mutating func rows() throws -> [[String]] {
            var rows: [[String]] = []
            while !atEnd {
                rows.append(try row())
            }
            return rows
        }

        /// Fields up to and including the line break that ends the row (or the end of text).
        mutating func row() throws -> [String] {
            var fields: [String] = []
            while true {
                fields.append(try field())
                guard !atEnd else { return fields }
                let separator = scalars[index]
                index += 1
                if separator == self.separator { continue }
                endLine(after: separator)
                return fields
            }
        }

        /// One field, leaving `index` on the separator or line break that follows it.
        mutating func field() throws -> String {
            var value = String.UnicodeScalarView()
            guard !atEnd, scalars[index] == "\"" else {
                while !atEnd, !endsField(scalars[index]) {
                    value.append(scalars[index])
                    index += 1
                }
                return String(value)
            }
            let opening = line
            index += 1
            while true {
                guard !atEnd else {
                    throw DocumentError("line \(opening): a quoted field is never closed")
                }
                let scalar = scalars[index]
                index += 1
                if scalar == "\"" {
                    if !atEnd, scalars[index] == "\"" {
                        value.append("\"")
                        index += 1
                        continue
                    }
                    if atEnd || endsField(scalars[index]) { return String(value) }
                    throw DocumentError(
                        "line \(line): text after the closing quote of a field (write a quote inside a quoted field as \"\")")
                }
                if scalar == "\n" || (scalar == "\r" && (atEnd || scalars[index] != "\n")) { line += 1 }
                value.append(scalar)
            }
        }

        /// Consumes the LF of a CRLF and counts the line.
        mutating func endLine(after breakScalar: Unicode.Scalar) {
            if breakScalar == "\r", !atEnd, scalars[index] == "\n" { index += 1 }
            line += 1
        }

        func endsField(_ scalar: Unicode.Scalar) -> Bool {
            scalar == separator || scalar == "\r" || scalar == "\n"
        }
    }
}
