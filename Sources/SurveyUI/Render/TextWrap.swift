/// Word wrapping by display width, for labels, help and error texts in narrow terminals.
enum TextWrap {
    /// Lines of at most `width` cells, broken at spaces. A word wider than a line (Chinese,
    /// Japanese and Thai are written without spaces, and a path has none) starts after the
    /// text before it and is broken between grapheme clusters, so a character is never split
    /// and nothing is cut. Only a cluster wider than `width` itself (a wide character when
    /// `width` is 1) overflows, on a line of its own.
    static func lines(_ text: String, width: Int) -> [String] {
        guard width > 0 else { return [] }
        var lines: [String] = []
        for paragraph in text.split(separator: "\n", omittingEmptySubsequences: false) {
            var line = ""
            var lineWidth = 0
            for word in paragraph.split(separator: " ") {
                let w = TextWidth.width(of: word)
                let space = lineWidth > 0 ? 1 : 0
                if lineWidth + space + w <= width {
                    if space > 0 { line += " " }
                    line += word
                    lineWidth += space + w
                } else if w <= width {
                    lines.append(line)
                    line = String(word)
                    lineWidth = w
                } else {
                    if lineWidth > 0, let first = word.first, lineWidth + 1 + TextWidth.width(of: first) <= width {
                        line += " "
                        lineWidth += 1
                    }
                    for c in word {
                        let cw = TextWidth.width(of: c)
                        if lineWidth + cw > width && lineWidth > 0 {
                            lines.append(line)
                            line = ""
                            lineWidth = 0
                        }
                        line.append(c)
                        lineWidth += cw
                    }
                }
            }
            lines.append(line)
        }
        return lines
    }

    /// Breaks text into lines of at most `width` cells, anywhere (for paths and names).
    static func hardLines(_ text: String, width: Int) -> [String] {
        guard width > 0 else { return [] }
        var lines: [String] = []
        var line = ""
        var used = 0
        for c in text {
            let w = TextWidth.width(of: c)
            if used + w > width && !line.isEmpty {
                lines.append(line)
                line = ""
                used = 0
            }
            line.append(c)
            used += w
        }
        lines.append(line)
        return lines
    }
}
