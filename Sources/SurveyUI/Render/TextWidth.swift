import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// Display width of text in terminal cells, from the C library's `wcwidth`, so that what we
/// measure agrees with what the terminal (which uses the same tables) draws.
///
/// glibc hides `wcwidth` from Swift's Glibc module, and the UI core must not import the
/// curses shim, so the symbol is looked up once with `dlsym`.
public enum TextWidth {
    private typealias WcwidthFunction = @convention(c) (Int32) -> Int32

    private static let wcwidthFunction: WcwidthFunction? = {
        ensureUTF8Locale()
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "wcwidth") else { return nil }
        return unsafeBitCast(symbol, to: WcwidthFunction.self)
    }()

    /// `wcwidth` answers -1 for every non-ASCII character under the C locale. The app sets
    /// the locale from the environment; tests and CI often have none, so fall back to C.UTF-8.
    public static func ensureUTF8Locale() {
        let current = setlocale(LC_CTYPE, nil).map { String(cString: $0) } ?? "C"
        if current.uppercased().contains("UTF-8") || current.uppercased().contains("UTF8") { return }
        if setlocale(LC_CTYPE, "") != nil,
           let now = setlocale(LC_CTYPE, nil).map({ String(cString: $0) }),
           now.uppercased().contains("UTF") { return }
        _ = setlocale(LC_CTYPE, "C.UTF-8")
    }

    /// Width of one scalar: 0 for combining marks, 2 for wide CJK/emoji, 1 otherwise.
    /// Control characters (which `wcwidth` calls -1) count as 1: they are drawn as U+FFFD.
    public static func width(of scalar: Unicode.Scalar) -> Int {
        if scalar.value < 0x7F { return 1 }
        let w = wcwidthFunction.map { Int($0(Int32(bitPattern: scalar.value))) } ?? 1
        return w < 0 ? 1 : w
    }

    /// Width of one grapheme cluster: its first scalar's width, so a base letter with
    /// combining marks is 1 and an emoji with modifiers is 2. A base followed by the emoji
    /// presentation selector (U+FE0F) is widened to 2, as terminals draw it.
    public static func width(of character: Character) -> Int {
        let scalars = character.unicodeScalars
        guard let first = scalars.first else { return 0 }
        if first.value < 0x7F, scalars.count == 1 { return 1 }
        var w = width(of: first)
        if w == 0, scalars.count == 1 { return 0 }
        if w == 0 { w = 1 }
        if w == 1, scalars.contains(where: { $0.value == 0xFE0F }) { w = 2 }
        return w
    }

    public static func width(of text: some StringProtocol) -> Int {
        // ASCII without a carriage return (the one pair of ASCII characters that is one
        // character: CR LF) is a cell a byte: counted from the bytes, as every label of a
        // form is measured each time a survey comes on it.
        if let counted = text.utf8.withContiguousStorageIfAvailable({ bytes -> Int? in
            for byte in bytes where byte >= 0x7F || byte == 0x0D { return nil }
            return bytes.count
        }), let counted {
            return counted
        }
        var total = 0
        for c in text { total += width(of: c) }
        return total
    }

    /// The text cut to `maxWidth` cells, ending in "…" when something was cut. Walks only as
    /// far as `maxWidth` reaches, so a 1 MB value costs what fits, not its length (`measure`
    /// is there so a test can count the characters measured).
    public static func truncate(_ text: String, to maxWidth: Int,
                                measure: (Character) -> Int = TextWidth.width(of:)) -> String {
        guard maxWidth > 0 else { return "" }
        var used = 0
        var cut = text.startIndex   // the end of the longest prefix that leaves room for "…"
        var index = text.startIndex
        while index < text.endIndex {
            used += measure(text[index])
            if used > maxWidth { return String(text[..<cut]) + "…" }
            index = text.index(after: index)
            if used <= maxWidth - 1 { cut = index }
        }
        return text
    }
}
