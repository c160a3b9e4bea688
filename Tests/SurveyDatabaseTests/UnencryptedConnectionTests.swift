import XCTest
import SurveyDatabase

/// Issue 28: survey warns when a connection crosses a network without encryption, and says
/// nothing for a Unix socket, localhost or a loopback address, or for TLS. (That the tests'
/// own socket connection stays silent: `PrivilegeWordsTests.testTheLocalSocketIsNotWarnedAbout`.)
final class UnencryptedConnectionTests: XCTestCase {
    func testAHostOnTheNetworkWithoutTLSIsWarnedAbout() throws {
        for (host, address) in [("db.example.org", "203.0.113.5"), ("10.0.0.5", "10.0.0.5"), ("2001:db8::7", "2001:db8::7"),
                                ("fe80::1%eth0", "fe80::1%eth0"), ("localhost.example.org", "198.51.100.1"),
                                ("127.0.0.1.example.org", "198.51.100.1"), ("::2", "::2"), ("128.0.0.1", "128.0.0.1"),
                                ("db.example.org", "")] {
            let warning = try XCTUnwrap(UnencryptedConnection.warning(host: host, address: address, encrypted: false), host)
            XCTAssertEqual(warning, "the connection to \(host) is not encrypted: answers and the password cross the network readable by"
                           + " anyone on the way; add sslmode=verify-full and the server's certificate to the connection string"
                           + " (docs/team.md, \"A team on PostgreSQL\")")
            XCTAssertNil(UnencryptedConnection.warning(host: host, address: address, encrypted: true), "TLS: \(host)")
        }
    }

    func testASocketLocalhostOrLoopbackIsNot() {
        for (host, address) in [("", ""), ("/var/run/postgresql", ""), ("/tmp/survey-pg-1a2b", ""), ("@pg-abstract", ""),
                                ("localhost", "127.0.0.1"), ("localhost", "::1"), ("LocalHost", ""), ("localhost.", ""),
                                ("127.0.0.1", "127.0.0.1"), ("127.8.9.10", ""), ("::1", "::1"), ("0:0:0:0:0:0:0:1", ""),
                                ("::ffff:127.0.0.1", ""), ("::1%lo", ""),
                                // A name that resolved to the machine itself.
                                ("db", "127.0.1.1"), ("db.example.org", "::1")] {
            XCTAssertNil(UnencryptedConnection.warning(host: host, address: address, encrypted: false), "\(host) \(address)")
        }
    }

    func testOnlyLoopbackAddressesAreLoopback() {
        XCTAssertTrue(UnencryptedConnection.isLoopback("127.0.0.1"))
        XCTAssertTrue(UnencryptedConnection.isLoopback("::ffff:127.1.2.3"))
        for address in ["", "localhost", "126.255.255.255", "::", "::ffff:10.0.0.1", "1::1", "0.0.0.0", "127", "127.0.0.1x"] {
            XCTAssertFalse(UnencryptedConnection.isLoopback(address), address)
        }
    }
}
