/// The rule a field's answers obey. Kept as data (not subclasses or closures) so a
/// questionnaire can later be defined by users and compared for equality.
public enum FieldKind: Equatable, Sendable {
    /// Free text of at most `maxLength` user-perceived characters.
    case text(maxLength: Int)
    /// A whole number within the range, or no answer at all.
    case wholeNumber(ClosedRange<Int>)
}
