/// Why a document could not be read, written or named, worded for the person using the app
/// (one line, no stack of Foundation error domains).
public struct DocumentError: Error, Equatable, Sendable, CustomStringConvertible {
    public let message: String

    public init(_ message: String) {
        self.message = message
    }

    public var description: String { message }
}
