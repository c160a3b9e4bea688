import SurveyValues
import SurveyForms

/// Answering a choice question through its picker. Choosing commits as a typed answer does,
/// through the same gate (the form's rules, the save, undo), and moves on heads-down.
extension AppState {
    mutating func openPicker(_ index: Int, typing character: Character?) {
        let outline = self.outline
        let field = outline.field(index)
        let multiple = if case .choice(_, _, true) = field.kind { true } else { false }
        let choices = outline.choices(index, in: formRecord, clock: ruleClock)
        guard !choices.isEmpty else {
            warn("\(field.label) has no choices for the answers given so far")
            return
        }
        popovers.present(.picker(ChoicePicker(fieldIndex: index, title: field.label, choices: choices, labels: field.choiceLabels,
                                       multiple: multiple, current: outline.storedText(index, in: formRecord))))
        if let character { _ = pickerType(character) }
    }

    var picker: ChoicePicker? {
        if case .picker(let p) = popover { return p }
        return nil
    }

    mutating func updatePicker(_ change: (inout ChoicePicker) -> Void) {
        guard var p = picker else { return }
        change(&p)
        popovers.present(.picker(p))
    }

    /// A typed character: a digit chooses by number (when nothing narrows the list), Space
    /// toggles on a multiple-choice question, anything else narrows the list.
    mutating func pickerType(_ c: Character) -> [Effect] {
        guard var p = picker else { return [] }
        if c.isASCII, c.isNumber, p.filter.isEmpty {
            switch p.typeDigit(c) {
            case .chose:
                popovers.present(.picker(p))
                if p.multiple {
                    updatePicker { $0.toggleHighlighted() }
                    return []
                }
                return pickerChoose()
            case .waiting:
                popovers.present(.picker(p))
                tell(p.codes == nil ? "Choice \(p.digits)…: another digit, or Enter" : "Code \(p.digits)…: another digit, or Enter")
                return []
            case .noSuchCode(let typed):
                popovers.present(.picker(p))
                warn("No choice has the code \(typed): nothing was chosen")
                return []
            case .outOfRange:
                popovers.present(.picker(p))
                warn("There is no choice \(c): \(counted(p.visible.count, "choice")) shown")
                return []
            }
        }
        if c == " ", p.multiple {
            p.toggleHighlighted()
        } else if c == " ", p.filter.isEmpty {
            return []
        } else {
            p.type(c)
        }
        popovers.present(.picker(p))
        return []
    }

    /// Enter: a single choice takes the highlighted one; a multiple choice keeps what is
    /// toggled. Either way the answer is committed and the form moves on.
    mutating func pickerChoose() -> [Effect] {
        guard var p = picker else { return [] }
        // Enter completes a number being typed (`1` of 12 could have been 10, 11 or 12): it
        // chooses that choice, and on a multiple choice ticks it, as the digit alone would.
        if p.isTypingNumber {
            let typed = p.digits
            guard p.takePendingDigits() else {
                popovers.present(.picker(p))
                warn(p.codes == nil ? "There is no choice \(typed)" : "No choice has the code \(typed): nothing was chosen")
                return []
            }
            if p.multiple { p.toggleHighlighted() }
        }
        if !p.multiple {
            guard p.highlightedName != nil else {
                warn("No choice matches “\(p.filter)”")
                return []
            }
            p.chooseHighlighted()
        }
        return pickerCommit(p, moving: 1, heading: true)
    }

    /// Tab / Shift-Tab: keep what is chosen (nothing new for a single choice) and move.
    mutating func pickerAccept(moving delta: Int) -> [Effect] {
        guard let p = picker else { return [] }
        return pickerCommit(p, moving: delta, heading: false)
    }

    /// Del: the question unanswered.
    mutating func pickerClear() -> [Effect] {
        guard let p = picker else { return [] }
        popovers.dismiss()
        form.beginEditing(EditBuffer(fieldIndex: p.fieldIndex, text: "", original: outline.storedText(p.fieldIndex, in: formRecord)))
        guard let effects = commitEditing() else {
            form.stopEditing()
            popovers.present(.picker(p))
            return []
        }
        return effects
    }

    private mutating func pickerCommit(_ p: ChoicePicker, moving delta: Int, heading: Bool) -> [Effect] {
        let from = formItem
        popovers.dismiss()
        form.beginEditing(EditBuffer(fieldIndex: p.fieldIndex, text: p.answer, original: outline.storedText(p.fieldIndex, in: formRecord)))
        guard let effects = commitEditing(goingOn: delta > 0) else {
            // Refused (required, a constraint): the picker stays open with the reason.
            form.stopEditing()
            popovers.present(.picker(p))
            return []
        }
        if heading, advanceThroughRoster(from: from) { return effects }
        moveHighlight(by: delta, wrap: !heading)
        if heading, formItem == .clear { form.highlight(.add) }
        if case .field = formItem { beginEditing(inserting: nil, selectingAnswer: true) }
        return effects
    }
}
