/// Why one incoming record cannot be added: its row (counted from 1 among the records being
/// imported, a CSV header not counted), the key of the field at fault (nil when the record
/// as a whole is refused) and the reason, worded like the form's own refusals.
public struct ImportProblem: Equatable, Sendable, CustomStringConvertible {
    public let row: Int
    public let field: String?
    public let reason: String

    public init(row: Int, field: String?, reason: String) {
        self.row = row
        self.field = field
        self.reason = reason
    }

    /// "row 3: age: Age must be a whole number from 0 to 150, or empty"
    public var description: String {
        guard let field else { return "row \(row): \(reason)" }
        return "row \(row): \(field): \(reason)"
    }
}
