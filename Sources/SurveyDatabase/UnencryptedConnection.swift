#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Whether a connection crosses a network unencrypted, which survey warns about (issue 28):
/// answers, names and the password exchange would be readable by anyone on the way, and a
/// server on the way could pose as the team's. libpq's default (`sslmode=prefer`) falls back
/// to plain text without a word when the server offers no TLS, and accepts any certificate
/// when it does; `sslmode=verify-full` with the server's certificate does neither
/// (docs/team.md, "A team on PostgreSQL").
///
/// Local is a Unix socket (libpq's host is a folder, `/…`, or an abstract name, `@…`, or
/// none: its default socket), the name `localhost`, or a loopback address (127.0.0.0/8,
/// `::1`, `::ffff:127.…`), by the name given or by the address libpq connected to: traffic
/// that never leaves the machine. Encrypted is TLS or GSSAPI's own encryption.
public enum UnencryptedConnection {
    /// What to tell the person (nil: nothing): `host` and `address` as libpq reports them
    /// for the open connection (`PQhost`, `PQhostaddr`).
    public static func warning(host: String, address: String, encrypted: Bool) -> String? {
        guard !encrypted, !isLocal(host: host), !isLoopback(address) else { return nil }
        return "the connection to \(host) is not encrypted: answers and the password cross the network readable by anyone on the way;"
            + " add sslmode=verify-full and the server's certificate to the connection string (docs/team.md, \"A team on PostgreSQL\")"
    }

    /// A Unix socket, libpq's default, `localhost`, or a loopback address.
    public static func isLocal(host: String) -> Bool {
        if host.isEmpty || host.hasPrefix("/") || host.hasPrefix("@") { return true }
        let name = host.lowercased()
        return name == "localhost" || name == "localhost." || isLoopback(host)
    }

    /// 127.0.0.0/8, `::1`, or an IPv4-mapped 127 address (a zone, `%lo`, aside).
    public static func isLoopback(_ address: String) -> Bool {
        let bare = String(address.split(separator: "%", maxSplits: 1, omittingEmptySubsequences: false).first ?? "")
        guard !bare.isEmpty else { return false }
        var v4 = in_addr()
        if inet_pton(AF_INET, bare, &v4) == 1 {
            return withUnsafeBytes(of: &v4) { $0[0] } == 127
        }
        var v6 = in6_addr()
        guard inet_pton(AF_INET6, bare, &v6) == 1 else { return false }
        let bytes = withUnsafeBytes(of: &v6) { Array($0) }
        if bytes[0..<15].allSatisfy({ $0 == 0 }) && bytes[15] == 1 { return true }
        return bytes[0..<10].allSatisfy { $0 == 0 } && bytes[10] == 0xFF && bytes[11] == 0xFF && bytes[12] == 127
    }
}
