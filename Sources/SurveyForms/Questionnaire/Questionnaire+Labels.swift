import FoundationEssentials
import SurveyValues

/// Labels and notes that show answers (`Thank you: ${people} people listed.`), as ODK
/// writes them (pyxform turns each `${name}` into an `<output>`): the answer's text, a
/// choice by its label, nothing for an unanswered question.
extension Questionnaire {
    /// `text` with each `${name}` replaced by that answer in `record` (the scope's answers
    /// first, as `Questionnaire.scoped` gives them). Text without `${` is returned as it is.
    public func filledIn(_ text: String, from record: Record) -> String {
        guard text.namesAnAnswer else { return text }
        var result = ""
        var rest = Substring(text)
        while let open = rest.firstRange(of: "${") {
            result += rest[..<open.lowerBound]
            guard let close = rest[open.upperBound...].firstIndex(of: "}") else {
                result += rest[open.lowerBound...]
                return result
            }
            let name = String(rest[open.upperBound..<close])
            if let saved = FormExpression.lastSavedName(name) {
                // `${last-saved#name}`: the last saved survey's answer (top level).
                if let value = lastSaved[saved] { result += field(forKey: saved)?.displayText(value) ?? XLSForm.text(of: value) }
            } else if let field = field(forKey: name), let value = record[name] {
                result += field.displayText(value)
            } else if let value = record[name] {
                result += XLSForm.text(of: value)
            }
            rest = rest[rest.index(after: close)...]
        }
        return result + rest
    }

    /// The answers a label inside a member reads: the member's own over those around it.
    public static func scoped(_ record: Record, _ steps: [AnswerPath.Step]) -> Record {
        scope(record, steps)
    }
}

extension StringProtocol {
    /// Whether the text names an answer (`${…}`): asked of every label of every frame, so a
    /// byte scan for the dollar first (the standard library's substring search is slow).
    public var namesAnAnswer: Bool {
        // The stored bytes when the text has them (a `String` does): a loop over a buffer,
        // not the generic view's iterator, which took 8% of → to a survey on a long form.
        if let found = utf8.withContiguousStorageIfAvailable({ bytes -> Bool in
            var afterDollar = false
            for byte in bytes {
                if afterDollar, byte == UInt8(ascii: "{") { return true }
                afterDollar = byte == UInt8(ascii: "$")
            }
            return false
        }) {
            return found
        }
        var afterDollar = false
        for byte in utf8 {
            if afterDollar, byte == UInt8(ascii: "{") { return true }
            afterDollar = byte == UInt8(ascii: "$")
        }
        return false
    }
}
