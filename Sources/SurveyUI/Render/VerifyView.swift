/// Verify mode's box: the survey and how far its verification is, the member the question is
/// in, the question and its hint, the blank field being typed, and after a difference the
/// request to key it again (with the stored and keyed answers side by side on Tab). The
/// stored answer is never shown before the verifier has keyed one: the point of double
/// entry is keying from paper, unprompted; so the box takes the form's whole place.
///
/// It holds the session and the layout it goes in, so it can be drawn from a hand-made one.
struct VerifyView {
    let session: VerifySession
    let layout: Layout

    /// The form's whole place, so no stored answer shows beside the blank field.
    static func box(_ layout: Layout) -> Rect { layout.form }

    func draw(into grid: inout CellGrid) {
        let box = Self.box(layout)
        let position = min(session.verifiedCount + 1, session.questions.count)
        let inner = grid.box(box, title: "Verify \(session.title) · \(position) of \(session.questions.count)", style: .accent)
        guard inner.height > 0, inner.width > 2, let question = session.currentQuestion else { return }
        let x = inner.x + 1
        let width = inner.width - 2
        let clip = Rect(x: x, y: inner.y, width: width, height: inner.height)
        // The field and the key line are kept; the rest gives way, from the bottom, on a short screen.
        var lines: [(String, Style)] = []
        if !question.place.isEmpty { lines.append((question.place, .muted)) }
        for line in TextWrap.lines(question.label, width: width).prefix(2) { lines.append((line, .bold)) }
        if !question.field.hint.isEmpty, let hint = TextWrap.lines(question.field.hint, width: width).first {
            lines.append((hint, .muted))
        }
        var after: [(String, Style)] = []
        if session.firstTry != nil {
            after.append(("Not what was keyed: key it again from the paper", .error))
            if session.showsBoth {
                after.append(("Stored: " + Self.shown(question.storedText) + "   First try: " + Self.shown(session.firstTryText), .plain))
            }
        }
        after.append(("Enter keeps · Tab both · Esc stops", .muted))
        let room = inner.height - 1 - after.count
        var y = inner.y
        for (text, style) in lines.prefix(max(0, room)) {
            grid.put(text, x: x, y: y, style: style, clip: clip)
            y += 1
        }
        if y < inner.maxY {
            TextFieldView(buffer: session.input).draw(into: &grid, in: Rect(x: x, y: y, width: min(width, 40), height: 1))
            y += 1
        }
        for (text, style) in after where y < inner.maxY {
            grid.put(text, x: x, y: y, style: style, clip: clip)
            y += 1
        }
    }

    static func shown(_ text: String) -> String { text.isEmpty ? "(no answer)" : text }
}
