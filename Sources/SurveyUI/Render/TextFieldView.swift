/// A one-line text field being typed into: underlined, scrolled so the caret stays in view,
/// with the terminal's caret placed in it. The form's fields, the rename field and the
/// save-as name all draw through this, so they scroll and show the caret alike.
struct TextFieldView: View {
    let buffer: TextInput

    func draw(into grid: inout CellGrid, in rect: Rect) {
        guard !rect.isEmpty else { return }
        grid.fill(rect, style: Style(.underline))
        let window = Self.visibleWindow(buffer.characters, caret: buffer.caret, width: rect.width)
        // A selected answer (typing replaces it) shows reversed, as a selection does.
        grid.put(String(buffer.characters[window.start..<window.end]), x: rect.x, y: rect.y,
                 style: Style(buffer.selectsAll ? [.underline, .reverse] : .underline), clip: rect, truncate: false)
        grid.cursor = Point(x: rect.x + window.caretColumn, y: rect.y)
        grid.showsCaret = true
    }

    /// The part of a long value that fits, scrolled so the caret stays visible (at most
    /// `width - 1` cells before it, leaving room for the caret itself). Walks back from the
    /// caret and on from the window's start only, so the cost is the width, not the length
    /// (`measure` is there so a test can count the characters measured).
    static func visibleWindow(_ chars: [Character], caret: Int, width: Int,
                              measure: (Character) -> Int = TextWidth.width(of:)) -> (start: Int, end: Int, caretColumn: Int) {
        var start = caret
        var before = 0
        while start > 0 {
            let w = measure(chars[start - 1])
            if before + w > width - 1 { break }
            before += w
            start -= 1
        }
        var end = start
        var used = 0
        while end < chars.count {
            let w = measure(chars[end])
            if used + w > width { break }
            used += w
            end += 1
        }
        return (start, end, before)
    }
}
