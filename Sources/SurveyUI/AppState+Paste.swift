import SurveyModel

/// Pasting is not typing. A paste arrives as one piece of text (the terminal's bracketed
/// paste), and goes into the text box of the moment as text: its line breaks and tabs never
/// act as Enter or Tab, and nothing in it can press a key.
extension AppState {
    /// A paste into the field being typed, the rename box or the save-as name; on a
    /// highlighted field it starts editing that field. Elsewhere (lists, help, dialogs
    /// without a text box) it is ignored, and the status line says so.
    mutating func paste(_ text: String) {
        let pasted = Self.pastableText(text)
        switch inputMode {
        case .formEditing, .renamingDocument, .namingDocument:
            break
        case .formBrowsing:
            guard case .field = formItem else {
                status = .init("Paste ignored: highlight a field to paste into it")
                return
            }
            if pasted.text.isEmpty && pasted.leftOut == 0 { return }
            beginEditing(inserting: nil)
        default:
            status = .init("Paste ignored: there is no text box here")
            return
        }
        editActiveText { buffer in
            for character in pasted.text { buffer.insert(character) }
        }
        if pasted.leftOut > 0 {
            status = .init("Left out \(counted(pasted.leftOut, "control character")) that a field cannot hold",
                           kind: .error)
        }
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
