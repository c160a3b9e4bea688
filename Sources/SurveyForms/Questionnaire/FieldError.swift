import SurveyValues
/// Why typed text was refused, worded for the person typing, so the UI can show it as is.
public struct FieldError: Error, Equatable, Sendable, CustomStringConvertible {
    public let message: String

    public init(_ message: String) {
        self.message = message
    }

    public var description: String { message }
}
