/// Why a database call failed, in words a user can act on. Every message that could hold
/// the connection string or its password is passed through `ConnectionString.redact` before
/// it is stored here, so printing one never shows a credential.
public struct DatabaseError: Error, Equatable, Sendable, CustomStringConvertible {
    public enum Kind: Equatable, Sendable {
        /// libpq5 is not installed (or not loadable): nothing was sent.
        case libraryMissing
        /// The server could not be reached, or refused the login.
        case connection
        /// The connection broke during a call: the server stopped, the network was cut.
        case connectionLost
        /// The server refused a statement (the SQLSTATE, e.g. "42501" for a missing privilege).
        case statement(sqlState: String)
        /// The database has no survey schema yet, or an older one: run `survey db init`.
        case schema
        /// The server answered something survey cannot read.
        case protocolError
    }

    public let kind: Kind
    public let message: String

    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    public var description: String { message }

    /// A privilege or row-level-security refusal (SQLSTATE 42501).
    public var isPermissionDenied: Bool { kind == .statement(sqlState: "42501") }
}
