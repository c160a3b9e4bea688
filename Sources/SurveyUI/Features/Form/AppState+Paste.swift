import SurveyValues
import SurveyForms

/// Pasting is not typing. A paste arrives as one piece of text (the terminal's bracketed
/// paste), and goes into the text box of the moment as text: its line breaks and tabs never
/// act as Enter or Tab, and nothing in it can press a key.
extension AppState {
    /// A paste into the field being typed, the rename box or the save-as name; on a
    /// highlighted field it starts editing that field. Elsewhere (lists, help, dialogs
    /// without a text box) it is ignored, and the status line says so. One row of
    /// tab-separated values pasted on the New form fills its fields (see `fillNewForm`).
    mutating func paste(_ text: String) -> [Effect] {
        let pasted = EditBuffer.pastableText(text)
        switch inputMode {
        case .formEditing, .renamingDocument, .namingDocument:
            break
        case .formBrowsing, .rosterBrowsing:
            guard case .field(let index) = formItem, outline.heading(index) == nil else {
                statusLine.tell("Paste ignored: highlight a field to paste into it")
                return []
            }
            if shown == .draft, outline.isFlat, let cells = EditBuffer.tabSeparatedRow(text) {
                return fillNewForm(from: index, with: cells)
            }
            if pasted.text.isEmpty && pasted.leftOut == 0 { return [] }
            beginEditing(inserting: nil, selectingAnswer: true)
        default:
            statusLine.tell("Paste ignored: there is no text box here")
            return []
        }
        editActiveText { buffer in
            for character in pasted.text { buffer.insert(character) }
        }
        if pasted.leftOut > 0 {
            statusLine.warn("Left out \(counted(pasted.leftOut, "control character")) that a field cannot hold")
        }
        return []
    }

    /// A spreadsheet row pasted on the New form: each value goes into the next field, from
    /// the highlighted one on, and the New form is kept as after typing them one by one. A
    /// value its field refuses (an age of "abc") stops there: the values before it are kept,
    /// and that field is left being edited with the value and the reason, as if typed.
    mutating func fillNewForm(from first: EntryNumber, with cells: [String]) -> [Effect] {
        let fields = questionnaire.fields
        var record = draft
        var filled = 0
        // Only on a flat form (`paste` checks): its entries are its fields, one for one.
        for (offset, cell) in cells.enumerated() where first.index + offset < fields.count {
            let field = fields[first.index + offset]
            if let error = record.setText(cell, for: field) {
                let changed = record != draft
                form.setDraft(record)
                form.highlight(.field(first + offset))
                form.beginEditing(EditBuffer(entry: first + offset, text: cell, original: record.text(for: field)))
                statusLine.warn(error.message)
                return changed ? [.saveDraft] : []
            }
            filled += 1
        }
        let changed = record != draft
        form.setDraft(record)
        form.highlight(.field(first + filled - 1))
        let extra = cells.count - filled
        statusLine.tell("Pasted \(counted(filled, "value")) into the New form"
                       + (extra > 0 ? "; \(counted(extra, "value")) more did not fit" : ""))
        return changed ? [.saveDraft] : []
    }
}

/// What a one-line answer takes of typed and pasted text.
extension EditBuffer {
    /// The model's rule for answers (no XML-forbidden characters, DEL or C1 controls), and
    /// no tab or line break either: the form's fields are one line.
    static func isTypable(_ s: Unicode.Scalar) -> Bool {
        !s.isControlCharacter && !FieldSpec.isRefusedWhenTyped(s)
    }

    /// The cells of one tab-separated row (a line break at the very end allowed), each made
    /// pastable; nil for text without a tab or with several lines.
    static func tabSeparatedRow(_ text: String) -> [String]? {
        let row = String(text.reversed().drop(while: \.isNewline).reversed())
        guard row.contains("\t"), !row.contains(where: \.isNewline) else { return nil }
        return row.split(separator: "\t", omittingEmptySubsequences: false).map { pastableText(String($0)).text }
    }

    /// Pasted text made fit for a one-line field: each line break (CR LF counting as one) and
    /// tab becomes a space, line breaks at the very end (a copied line's own) are dropped,
    /// and characters a field refuses (other controls) are left out and counted.
    static func pastableText(_ text: String) -> (text: String, leftOut: Int) {
        var result = ""
        var leftOut = 0
        // `Character.isNewline` covers LF, CR, CR LF (one Character), VT, FF, NEL, U+2028/9.
        for character in text.reversed().drop(while: \.isNewline).reversed() {
            if character.isNewline || character == "\t" {
                result.append(" ")
            } else if character.unicodeScalars.allSatisfy(isTypable) {
                result.append(character)
            } else {
                leftOut += 1
            }
        }
        return (result, leftOut)
    }
}
