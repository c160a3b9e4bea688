/// Foundation's `CharacterSet.whitespaces`, `.newlines` and `.whitespacesAndNewlines`, and the
/// trimming and splitting done with them, on Unicode scalars as Foundation does (so a lone
/// combining mark after a trimmed space stays). Foundation's own versions link ICU
/// (DECISIONS.md); `WhitespaceTests` compares these with them for every scalar.
extension Unicode.Scalar {
    /// Tab, the space separators (Zs) and ZERO WIDTH SPACE, as Foundation counts them.
    public var isHorizontalWhitespace: Bool {
        // ASCII first: the Unicode property lookup cost a third of every rule's number
        // parsing on a 500-question form (space is the one ASCII space separator).
        if value < 0x80 { return value == 0x20 || value == 0x09 }
        return value == 0x200B || properties.generalCategory == .spaceSeparator
    }

    /// LF, VT, FF, CR, NEL, LINE SEPARATOR and PARAGRAPH SEPARATOR.
    public var isLineBreak: Bool {
        (0x0A...0x0D).contains(value) || value == 0x85 || value == 0x2028 || value == 0x2029
    }
}

extension StringProtocol {
    /// `trimmingCharacters(in: .whitespaces)`.
    public func trimmingWhitespace() -> String {
        trimmingScalars { $0.isHorizontalWhitespace }
    }

    /// `trimmingCharacters(in: .whitespacesAndNewlines)`.
    public func trimmingWhitespaceAndNewlines() -> String {
        trimmingScalars { $0.isHorizontalWhitespace || $0.isLineBreak }
    }

    /// `components(separatedBy: .newlines)`: "\r\n" is two breaks with an empty line between.
    public func linesSeparatedByEachBreak() -> [String] {
        var lines: [String] = []
        var line = String.UnicodeScalarView()
        for scalar in unicodeScalars {
            if scalar.isLineBreak {
                lines.append(String(line))
                line = String.UnicodeScalarView()
            } else {
                line.append(scalar)
            }
        }
        lines.append(String(line))
        return lines
    }

    private func trimmingScalars(_ trimmed: (Unicode.Scalar) -> Bool) -> String {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !trimmed($0) }) else { return "" }
        let last = scalars.lastIndex(where: { !trimmed($0) })!
        // Nothing to trim (the usual case: an answer read by a rule): the text as it is,
        // without rebuilding it scalar by scalar.
        if first == scalars.startIndex, scalars.index(after: last) == scalars.endIndex { return String(self) }
        return String(String.UnicodeScalarView(scalars[first...last]))
    }
}
