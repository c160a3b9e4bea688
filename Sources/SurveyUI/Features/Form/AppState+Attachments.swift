import SurveyValues
import SurveyForms

/// Image, audio, video and file questions: a path typed into one (`~/photos/tree.jpg`, a
/// file dragged onto the terminal) is copied into the document's media folder and the
/// answer is the copy's name there, as ODK stores an attachment. The core asks for the copy
/// (`Effect.attachFile`) and waits; the runtime copies and answers with the name
/// (`Outcome.form(.fileAttached)`), and the key that committed then goes on. A copy that fails
/// leaves the path typed, with the reason.
extension AppState {
    /// Enter, Tab or ↓ on an attachment question holding a path: the copy is asked for, and
    /// the action waits for it. nil for every other answer.
    mutating func attachTypedPath(then: Attaching.Then) -> [Effect]? {
        guard let edit = editing, edit.isChanged else { return nil }
        let field = outline.field(edit.entry)
        guard case .attachment = field.kind, Attaching.isPath(edit.text) else { return nil }
        form.awaitAttachment(Attaching(entry: edit.entry, then: then))
        statusLine.tell("Copying \(edit.text) into the document's media folder…")
        return [.attachFile(path: edit.text)]
    }

    /// The copy is in the media folder: its name is the answer, committed as if typed.
    mutating func fileAttached(_ name: String) -> [Effect] {
        guard let pending = form.attaching else { return [] }
        form.awaitAttachment(nil)
        guard var edit = editing, edit.entry == pending.entry else { return [] }
        edit.input = TextInput(text: name, original: edit.input.original)
        form.beginEditing(edit)
        switch pending.then {
        case .stay: return commitEditing() ?? []
        case .advance: return committingField(goingOn: true) { $0.follow($0.form.reduce(.commitAndAdvance, in: $0.formContext)) }
        case .move(let delta, let wrap): return committingField(goingOn: delta > 0) { $0.follow($0.form.reduce(.commitAndMove(delta, wrap: wrap), in: $0.formContext)) }
        }
    }

}

extension AppState {
    /// A file attached to an answer (`Outcome.form`).
    mutating func reduce(_ outcome: FormOutcome) -> [Effect] {
        switch outcome {
        case .fileAttached(let name): return fileAttached(name)
        }
    }
}

extension Attaching {
    /// A path rather than a name already in the media folder: it names a folder.
    static func isPath(_ text: String) -> Bool {
        text.contains("/") || text.hasPrefix("~")
    }
}
