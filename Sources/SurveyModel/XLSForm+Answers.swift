import Foundation

/// The one gate for answers to a designer's questionnaire, as ODK applies it: each type's
/// own rule (an integer is a whole number, a date is YYYY-MM-DD, a choice is one of its
/// list), then `required` and `constraint` with the form's own messages, for the questions
/// `relevant` leaves on. The form, `survey add` and imports are meant to share it.
extension XLSForm {
    /// A problem with one answer: which question, and the message to show.
    public struct AnswerProblem: Error, Equatable, Sendable, CustomStringConvertible {
        public let name: String
        public let message: String
        public var description: String { "\(name): \(message)" }
    }

    /// Typed text → the value stored under the question's name (nil: no answer), as ODK
    /// submissions hold them: integer as integer, decimal as real, the rest as text (dates
    /// `YYYY-MM-DD`, several choices separated by spaces).
    public func storedValue(_ text: String, for question: Question) -> Result<PropertyValue?, AnswerProblem> {
        let questionnaire = Questionnaire(form: self)
        guard let index = questions.firstIndex(where: { $0.row == question.row && $0.name == question.name }) else {
            return .success(nil)
        }
        switch questionnaire.fields[index].parse(text) {
        case .success(let value): return .success(value)
        case .failure(let error): return .failure(AnswerProblem(name: question.name, message: error.message))
        }
    }

    /// Every problem of a record: answers of the wrong type, required questions left empty,
    /// constraints broken (with the form's messages), for the questions that are relevant.
    /// The questionnaire's own gate (`Questionnaire.problems`), so both say the same.
    public func check(_ record: Record, now: Date = Date(), timeZone: TimeZone = .current) -> [AnswerProblem] {
        Questionnaire(form: self).problems(in: record, clock: Questionnaire.Clock(now: now, timeZone: timeZone)).map {
            AnswerProblem(name: questions[$0.index].name, message: $0.message)
        }
    }

    /// Whether the question (and every group around it) is relevant for this record.
    public func isRelevant(_ question: Question, in record: Record, now: Date = Date(), timeZone: TimeZone = .current) -> Bool {
        guard let index = questions.firstIndex(where: { $0.row == question.row && $0.name == question.name }) else { return true }
        return Questionnaire(form: self).isRelevant(index, in: record, clock: Questionnaire.Clock(now: now, timeZone: timeZone))
    }

    /// Questions that take an answer from the person (not notes, groups, metadata or rows a
    /// terminal cannot collect).
    public func isAsked(_ question: Question) -> Bool {
        switch question.kind {
        case .text, .integer, .decimal, .date, .time, .dateTime, .selectOne, .selectMultiple, .acknowledge: return true
        default: return false
        }
    }

    public func label(of question: Question) -> String {
        question.labels[defaultLanguage ?? ""] ?? question.labels[""] ?? question.labels.values.sorted().first ?? question.name
    }

    /// A stored answer as expressions see it: text, numbers written plainly.
    static func text(of value: PropertyValue?) -> String {
        switch value {
        case .string(let s)?: return s
        case .integer(let n)?: return String(n)
        case .real(let d)?: return FormValue.number(d).string
        case .bool(let b)?: return b ? "true" : "false"
        default: return ""
        }
    }
}
