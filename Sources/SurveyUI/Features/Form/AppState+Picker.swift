import SurveyValues
import SurveyForms

/// Answering a choice question through its picker. Choosing commits as a typed answer does,
/// through the same gate (the form's rules, the save, undo), and moves on heads-down.
extension AppState {
    mutating func openPicker(_ index: EntryNumber, typing character: Character?) {
        let outline = self.outline
        let field = outline.field(index)
        let multiple = if case .choice(_, _, true) = field.kind { true } else { false }
        let choices = outline.choices(index, in: formRecord, clock: ruleClock)
        guard !choices.isEmpty else {
            statusLine.warn("\(field.label) has no choices for the answers given so far")
            return
        }
        popovers.present(.picker(ChoicePicker(entry: index, title: field.label, choices: choices, labels: field.choiceLabels,
                                       multiple: multiple, current: outline.storedText(index, in: formRecord))))
        if let character { _ = reduce(PickerAction.type(character)) }
    }

    var picker: ChoicePicker? {
        if case .picker(let p) = popover { return p }
        return nil
    }

    /// A key or a click on the picker: the picker's own reducer decides (`ChoicePicker.reduce`), the
    /// picker is presented once as it left it, and what it asks of the form is done here.
    mutating func reduce(_ action: PickerAction) -> [Effect] {
        guard var p = picker else { return [] }
        return follow(p.reduce(action), picker: p)
    }

    private mutating func follow(_ outcome: ChoicePicker.Outcome, picker p: ChoicePicker) -> [Effect] {
        switch outcome {
        case .stay:
            popovers.present(.picker(p))
        case .tell(let message):
            popovers.present(.picker(p))
            statusLine.tell(message)
        case .warn(let message):
            popovers.present(.picker(p))
            statusLine.warn(message)
        case .commit(let delta, let heading):
            // On heads-down as Enter (a roster deciding first), else as Tab.
            return keep(p.answer, from: p, goingOn: delta > 0, then: heading ? .commitAndAdvance : .commitAndMove(delta, wrap: true))
        case .clear:
            return keep("", from: p, goingOn: false, then: nil)
        }
        return []
    }

    /// The picker's answer (`text`; "" for Del, the question unanswered) kept through the
    /// form's commit, as a typed answer is; refused (required, a constraint), the picker stays
    /// open with the reason. Then `move` goes on as the keys that keep a typed answer do.
    private mutating func keep(_ text: String, from p: ChoicePicker, goingOn: Bool, then move: FormAction?) -> [Effect] {
        popovers.dismiss()
        form.beginEditing(EditBuffer(entry: p.entry, text: text, original: outline.storedText(p.entry, in: formRecord)))
        guard let effects = commitEditing(goingOn: goingOn) else {
            form.stopEditing()
            popovers.present(.picker(p))
            return []
        }
        guard let move else { return effects }
        return effects + follow(form.reduce(move, in: formContext))
    }
}
