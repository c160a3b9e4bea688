import FoundationEssentials
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import SurveyValues

extension Record {
    public func text(for field: FieldSpec) -> String {
        field.displayText(self[field.key])
    }

    /// Applies the field's rule; on failure leaves the record unchanged and returns the error.
    ///
    /// Text identical to what is already shown for a stored value keeps that value exactly,
    /// so submitting a form does not convert (or refuse) an untouched wrong-typed or
    /// out-of-range value loaded from a file.
    public mutating func setText(_ text: String, for field: FieldSpec) -> FieldError? {
        if let current = self[field.key], field.displayText(current) == text {
            return nil
        }
        switch field.parse(text) {
        case .success(let value):
            self[field.key] = value
            return nil
        case .failure(let error):
            return error
        }
    }

    /// True when every questionnaire field shows no text but blanks (unknown keys ignored),
    /// roster members' answers included (`Questionnaire.holdsAnswers`). Blanks count as
    /// nothing here, as `FieldSpec.parse` trims them, so a record of spaces loaded from an
    /// older file is as empty as one typed today.
    public func isBlank(in questionnaire: Questionnaire) -> Bool {
        !questionnaire.holdsAnswers(self)
    }
}
