import SurveyValues
/// Judging a value that did not come from the keyboard (an imported file, a command-line
/// flag) by the same rules as typed text, so nothing enters a document by a side door that
/// the form would have refused.
extension FieldSpec {
    /// The value to store for `value`, or why it breaks the field's rule.
    ///
    /// A string is read as if typed into the form (so an age "35" becomes the integer 35 and
    /// an empty age is no answer). Any other type must already be what the field stores: an
    /// integer within range for a whole number, text for a text field (a phone number given
    /// as a number is refused rather than turned into text, since digits may have been lost).
    /// A real with nothing after the point (`42.0`, as many JSON writers put every number)
    /// is that whole number; `42.5` is refused.
    public func imported(_ value: PropertyValue) -> Result<PropertyValue?, FieldError> {
        if case .string(let text) = value { return parse(text) }
        switch kind {
        case .text:
            return .failure(FieldError("\(label) must be text, not \(value.kindDescription)"))
        case .wholeNumber:
            if case .real(let number) = value, let whole = Int(exactly: number) {
                return imported(.integer(whole))
            }
            if accepts(value) { return .success(value) }
            // The form's own message: what it says for any text that is not a number in range.
            if case .failure(let error) = parse(displayText(value)) { return .failure(error) }
            return .failure(FieldError("\(label) cannot hold \(value.kindDescription)"))
        case .decimal:
            if case .integer(let whole) = value { return .success(.real(Double(whole))) }
            if case .real(let number) = value, number.isFinite { return .success(value) }
            return .failure(FieldError("\(label) must be a number, not \(value.kindDescription)"))
        case .range:
            // A number on the range's steps, whatever type a JSON writer gave it.
            if case .real(let number) = value, number.isFinite { return parse(FormValue.number(number).string) }
            if case .integer = value { return parse(displayText(value)) }
            return .failure(FieldError("\(label) must be a number, not \(value.kindDescription)"))
        default:
            // Dates, times, choices: what the form would store for the text shown.
            if case .integer = value { return parse(displayText(value)) }
            return .failure(FieldError("\(label) must be text, not \(value.kindDescription)"))
        }
    }
}
