@_spi(_Unicode) import Swift

/// Folding for search, sort and name comparison, as Foundation's
/// `folding(options:locale: nil)` did on Linux, without ICU: the standard library's Unicode
/// data (case mappings, canonical decomposition and composition, Grapheme_Extend) plus three
/// small tables (`TextFolding+Tables.swift`) of the scalars where Foundation's answer differs
/// from that rule. `TextFoldingTests` checks every scalar of the Basic Multilingual Plane and
/// more against Foundation itself, so a toolchain whose Unicode data moves is caught.
/// (`_nfd`/`_nfc` are the standard library's own normalisers, reached through its SPI.)
public enum TextFolding {
    /// `folding(options: [.caseInsensitive])`: full case folding (`ß` → `ss`, `µ` → `μ`),
    /// the same text up to canonical equivalence (Foundation decomposes a few letters, `ǰ`).
    public static func caseFolded(_ text: some StringProtocol) -> String {
        var out = String.UnicodeScalarView()
        for scalar in text.unicodeScalars { appendCaseFolded(scalar, to: &out) }
        return String(out)
    }

    /// `folding(options: [.caseInsensitive, .diacriticInsensitive])`, and with `width`,
    /// `.widthInsensitive` too (full-width Latin as ASCII, half-width kana as full-width).
    /// Marks are dropped after a base character; a mark that starts the text stays, as in
    /// Foundation. What was decomposed to drop marks is composed again.
    public static func folded(_ text: some StringProtocol, width: Bool = false) -> String {
        var out = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if width, let folded = widthFolds[scalar.value] {
                for s in folded.unicodeScalars { out.append(s) }   // (append(contentsOf:) copies the whole view each time)
            } else if keptWhole.contains(scalar.value) {
                appendCaseFolded(scalar, to: &out)
            } else if scalar.isASCII {
                appendCaseFolded(scalar, to: &out)
            } else {
                // Decomposed, marks dropped, case-folded, composed again: per scalar, as
                // Foundation keeps letters NFC would decompose (U+0958) and separate jamo.
                var piece = String.UnicodeScalarView()
                for part in String(scalar)._nfd {
                    if part.properties.isGraphemeExtend && !(out.isEmpty && piece.isEmpty) { continue }
                    appendCaseFolded(part, to: &piece)
                }
                out.append(contentsOf: String(piece)._nfc)
            }
        }
        return String(out)
    }

    /// Canonical composition (NFC): Foundation's `precomposedStringWithCanonicalMapping`.
    public static func composed(_ text: some StringProtocol) -> String {
        var out = String.UnicodeScalarView()
        for scalar in String(text)._nfc { out.append(scalar) }
        return String(out)
    }

    /// Canonical decomposition (NFD), as scalars.
    static func decomposed(_ text: some StringProtocol) -> [Unicode.Scalar] {
        Array(String(text)._nfd)
    }

    private static func appendCaseFolded(_ scalar: Unicode.Scalar, to out: inout String.UnicodeScalarView) {
        if scalar.isASCII {
            let v = scalar.value
            out.append(v >= 0x41 && v <= 0x5A ? Unicode.Scalar(v + 0x20)! : scalar)
        } else if let folded = caseFolds[scalar.value] {
            for s in folded.unicodeScalars { out.append(s) }
        } else {
            for s in scalar.properties.lowercaseMapping.unicodeScalars { out.append(s) }
        }
    }
}
