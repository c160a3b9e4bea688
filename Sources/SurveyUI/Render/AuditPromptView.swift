/// The audit log's prompt: who is keying (`identify-user`, the login name offered) or why a
/// stored survey is changed (`track-changes-reasons`, or one a supervisor approved: the
/// prompt says which), a line to type into.
struct AuditPromptView {
    let prompt: AuditPrompt

    func draw(into grid: inout CellGrid, layout: Layout) {
        let (title, question, after) = switch prompt.kind {
        case .user: ("Who is keying?", "The form logs who keys each answer. Your name:",
                     "Enter keeps it for this session; Esc keys nothing.")
        case .reason where prompt.waiting?.rule == .approved:
            ("A supervisor approved it: why is it changed?", "This survey was approved: a change to it says why. Reason:",
             "Enter saves the change with it; Esc saves nothing, your entry stays.")
        case .reason: ("Why is it changed?", "The form asks why a stored survey is changed. Reason:",
                       "Enter saves the change with it; Esc saves nothing, your entry stays.")
        }
        let lines = [question, "", "", after]
        let inner = drawDialog(title: title, lines: lines, into: &grid, layout: layout)
        let wrapped = TextWrap.lines(question, width: inner.width - 2).count
        let field = Rect(x: inner.x + 1, y: inner.y + wrapped + 1, width: max(0, inner.width - 2), height: 1).intersection(inner)
        TextFieldView(buffer: prompt.input).draw(into: &grid, in: field)
    }
}
