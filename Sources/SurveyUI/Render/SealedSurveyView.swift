import SurveyValues
import SurveyForms

/// The form's place for a survey encrypted for the data manager's key (issue 31,
/// `Record.isSealed`): what it is, and what is readable of it (the answers its form marks
/// `publishable`, its form and id), instead of its questions drawn empty with buttons that
/// would be refused. Its answers cannot be shown here: only the private key opens them, and
/// it never comes to a field laptop.
struct SealedSurveyView: View {
    /// "Survey 3 of 10 · title · encrypted".
    let heading: String
    /// What is readable without the key, label and text, in the form's order.
    let readable: [(label: String, text: String)]

    static func make(from state: AppState, record: Record) -> SealedSurveyView {
        var heading = "Survey \(state.positionTitle) · \(state.session.title(of: record)) · encrypted"
        if let owner = state.session.othersOwner(of: record) { heading += " · " + SurveyOwner.possessive(owner) }
        let values = record.readableValues
        let outline = state.outline
        var readable: [(label: String, text: String)] = []
        let identity = Set(Questionnaire.identityKeys)
        for i in outline.indices {
            let field = outline.field(i)
            guard values[field.key] != nil, !identity.contains(field.key), outline.path(i).steps.isEmpty else { continue }
            readable.append((field.label.isEmpty ? field.key : field.label, outline.storedText(i, in: record)))
        }
        let formID = record.text(forKey: Questionnaire.formIDKey)
        let version = record.text(forKey: Questionnaire.formVersionKey)
        let form = [formID, version.isEmpty ? "" : "version " + version].filter { !$0.isEmpty }
        if !form.isEmpty { readable.append(("Form", form.joined(separator: ", "))) }
        if let id = record.instanceID { readable.append(("ID", id)) }
        return SealedSurveyView(heading: heading, readable: readable)
    }

    func draw(into grid: inout CellGrid, in rect: Rect) {
        let inner = Rect(x: rect.x + 2, y: rect.y, width: rect.width - 3, height: rect.height)
        guard !inner.isEmpty else { return }
        var y = inner.y
        func paragraph(_ text: String, style: Style = .plain) {
            for line in TextWrap.lines(text, width: inner.width).flatMap({ TextWrap.hardLines($0, width: inner.width) }) where y < inner.maxY {
                grid.put(line, x: inner.x, y: y, style: style, clip: inner)
                y += 1
            }
        }
        paragraph(heading, style: .accent)
        y += 1
        paragraph("Encrypted for the data manager's key: its answers cannot be opened here.")
        y += 1
        let labelWidth = min(readable.map { TextWidth.width(of: $0.label) }.max() ?? 0, max(1, inner.width / 3))
        for (label, text) in readable where y < inner.maxY {
            let valueX = inner.x + labelWidth + 2
            grid.put(label, x: inner.x, y: y, style: .muted, clip: Rect(x: inner.x, y: y, width: labelWidth, height: 1))
            if valueX < inner.maxX {
                grid.put(text, x: valueX, y: y, clip: Rect(x: valueX, y: y, width: inner.maxX - valueX, height: 1))
            }
            y += 1
        }
        y += 1
        paragraph("It can be deleted (d); the data manager opens it with "
                  + "survey decrypt --key FILE.", style: .muted)
    }
}
