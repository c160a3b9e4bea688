/// Word wrapping by display width, for help and error texts in narrow terminals.
enum TextWrap {
    static func lines(_ text: String, width: Int) -> [String] {
        guard width > 0 else { return [] }
        var lines: [String] = []
        for paragraph in text.split(separator: "\n", omittingEmptySubsequences: false) {
            var line = ""
            var lineWidth = 0
            for word in paragraph.split(separator: " ") {
                let w = TextWidth.width(of: word)
                if lineWidth > 0 && lineWidth + 1 + w > width {
                    lines.append(line)
                    line = ""
                    lineWidth = 0
                }
                if lineWidth > 0 { line += " "; lineWidth += 1 }
                line += word
                lineWidth += w
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
