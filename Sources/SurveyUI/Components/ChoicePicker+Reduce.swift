import FoundationEssentials
import SurveyValues

/// The picker's own reducer (issue 29: a child reducer, TCA's `Scope` on optional state):
/// what a key does to the picker alone, decided here from the picker alone, and what it asks
/// of the form, as a value. `AppState` then presents the picker once and does what the
/// outcome asks (commit, clear, say), where the form's gate, the save and undo live.
extension ChoicePicker {
    /// What a key on the picker asks of the form around it.
    enum Outcome: Equatable {
        /// The picker changed (or not); nothing else happens.
        case stay
        /// The picker stays, and the status line says this (a code half typed).
        case tell(String)
        /// The picker stays; the key was refused, and this says why.
        case warn(String)
        /// The answer goes in: moving `delta` questions on, heads-down when `heading` (Enter
        /// and a digit go on into a roster; Tab only moves).
        case commit(moving: Int, heading: Bool)
        /// The question is left unanswered (Del).
        case clear
    }

    mutating func reduce(_ action: PickerAction) -> Outcome {
        switch action {
        case .move(let delta):
            move(by: delta)
            return .stay
        case .type(let c):
            return type(key: c)
        case .backspace:
            deleteBackward()
            return .stay
        case .choose:
            return choose()
        case .click(let row):
            return click(row)
        case .accept(let delta):
            return .commit(moving: delta, heading: false)
        case .clear:
            return .clear
        }
    }

    /// A click on the row at `position` of those shown: highlights it, then as Enter, but a
    /// multiple choice's click ticks it.
    mutating func click(_ position: Int) -> Outcome {
        highlighted = position
        guard !multiple else {
            toggleHighlighted()
            return .stay
        }
        return choose()
    }

    /// A typed character: a digit chooses by number (when nothing narrows the list), Space
    /// toggles on a multiple-choice question, anything else narrows the list.
    private mutating func type(key c: Character) -> Outcome {
        if c.isASCII, c.isNumber, filter.isEmpty {
            switch typeDigit(c) {
            case .chose:
                guard multiple else { return choose() }
                toggleHighlighted()
                return .stay
            case .waiting:
                return .tell(codes == nil ? "Choice \(digits)…: another digit, or Enter" : "Code \(digits)…: another digit, or Enter")
            case .noSuchCode(let typed):
                return .warn("No choice has the code \(typed): nothing was chosen")
            case .outOfRange:
                return .warn("There is no choice \(c): \(counted(visible.count, "choice")) shown")
            }
        }
        if c == " ", multiple {
            toggleHighlighted()
        } else if c != " " || !filter.isEmpty {
            type(c)
        }
        return .stay
    }

    /// Enter: a single choice takes the highlighted one; a multiple choice keeps what is
    /// toggled. Enter also completes a number being typed (`1` of 12 could have been 10, 11
    /// or 12): it chooses that choice, and on a multiple choice ticks it.
    private mutating func choose() -> Outcome {
        if isTypingNumber {
            let typed = digits
            guard takePendingDigits() else {
                return .warn(codes == nil ? "There is no choice \(typed)" : "No choice has the code \(typed): nothing was chosen")
            }
            if multiple { toggleHighlighted() }
        }
        if !multiple {
            guard highlightedName != nil else { return .warn("No choice matches “\(filter)”") }
            chooseHighlighted()
        }
        return .commit(moving: 1, heading: true)
    }
}
