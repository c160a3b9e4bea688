/// A CSV cell a spreadsheet would run as a formula, kept as text. A supervisor opens an
/// export in Excel or LibreOffice, and an answer typed as `=HYPERLINK(…)` or `@SUM(…)` (or
/// pasted into a form by anyone) would run there. OWASP's advice ("CSV Injection") is to
/// begin such a cell with `'`, which every spreadsheet reads as "this is text": a cell that
/// begins with `=`, `+`, `-`, `@`, a tab or a carriage return, after any quotes it already
/// begins with (so `'=x`, which a spreadsheet would show as `=x`, is escaped too, and comes
/// back whole). A plain number (`-3`, `+2.5`, `-1e3`) is left as it is: a spreadsheet reads
/// it as the number it is, and a keyer's -3 must stay -3 for a script as for a person. So are
/// plain numbers separated by blanks and semicolons, ODK's geopoint, geotrace and geoshape
/// (`-6.8 39.28 0 0`, the latitude of everything south of the equator): nothing in them can
/// run, and ruODK, odkmeta and every script split them into numbers.
///
/// `survey import` takes the `'` back off (`unescaped`), so an export imports as the same
/// answers; `export --raw` writes the cells as they are, for scripts.
public enum SpreadsheetFormula {
    /// The characters that make a spreadsheet read a cell as a formula.
    static let triggers: Set<Unicode.Scalar> = ["=", "+", "-", "@", "\t", "\r"]

    /// `text` as a CSV export writes it: `'` before it when a spreadsheet would run it.
    public static func escaped(_ text: String) -> String {
        needsEscape(text) ? "'" + text : text
    }

    /// A cell as `survey import` reads it: one `'` fewer when it begins with quotes and then
    /// one of the triggers, as `escaped` wrote it.
    public static func unescaped(_ text: String) -> String {
        guard text.unicodeScalars.first == "'",
              let after = text.unicodeScalars.first(where: { $0 != "'" }), triggers.contains(after) else { return text }
        return String(text.unicodeScalars.dropFirst())
    }

    static func needsEscape(_ text: String) -> Bool {
        guard let first = text.unicodeScalars.first(where: { $0 != "'" }), triggers.contains(first) else { return false }
        return !isPlainNumber(text) && !isNumberList(text)
    }

    /// Plain numbers separated by blanks and semicolons: a geopoint, a geotrace, a geoshape.
    static func isNumberList(_ text: String) -> Bool {
        let parts = text.split(whereSeparator: { $0 == " " || $0 == ";" })
        return !parts.isEmpty && parts.allSatisfy { isPlainNumber(String($0)) }
    }

    /// An optional sign, digits with at most one decimal point, an optional exponent: what
    /// every spreadsheet reads as a number rather than a formula.
    package static func isPlainNumber(_ text: String) -> Bool {
        var scalars = text.unicodeScalars[...]
        if let sign = scalars.first, sign == "+" || sign == "-" { scalars = scalars.dropFirst() }
        var digits = 0
        var point = false
        while let s = scalars.first {
            if ("0"..."9").contains(s) { digits += 1 } else if s == ".", !point { point = true } else { break }
            scalars = scalars.dropFirst()
        }
        guard digits > 0 else { return false }
        if let e = scalars.first, e == "e" || e == "E" {
            scalars = scalars.dropFirst()
            if let sign = scalars.first, sign == "+" || sign == "-" { scalars = scalars.dropFirst() }
            guard let first = scalars.first, ("0"..."9").contains(first) else { return false }
            scalars = scalars.drop { ("0"..."9").contains($0) }
        }
        return scalars.isEmpty
    }
}
