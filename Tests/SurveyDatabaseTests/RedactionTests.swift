import XCTest
import SurveyDatabase
import SurveyTestSupport

/// Credentials never appear in what survey prints: the connection string is redacted in every
/// message, libpq's own included.
final class RedactionTests: XCTestCase {
    func testAURIsPasswordIsRedactedPercentDecodedToo() {
        let target = ConnectionString("postgresql://ana:s3cr%40t!@db.example.org:5432/survey?sslmode=require")
        XCTAssertEqual(target.redacted, "postgresql://ana:***@db.example.org:5432/survey?sslmode=require")
        XCTAssertEqual(target.redact("failed for s3cr@t! and s3cr%40t!"), "failed for *** and ***")
        XCTAssertEqual(ConnectionString("postgres://ana@h/db?password=abc123&user=x").redacted, "postgres://ana@h/db?password=***&user=x")
    }

    func testAKeywordStringsPasswordIsRedactedQuotedOrNot() {
        XCTAssertEqual(ConnectionString("host=h password=hunter22 user=ana").redacted, "host=h password=*** user=ana")
        let quoted = ConnectionString(#"host=h password = 'it\'s a secret' dbname=d"#)
        XCTAssertEqual(quoted.redacted, "host=h password = *** dbname=d")
        XCTAssertEqual(quoted.redact("echo: it's a secret"), "echo: ***")
    }

    func testPGPASSWORDIsRedactedToo() {
        let target = ConnectionString.resolve(option: nil, environment: ["SURVEY_DB": "host=h", "PGPASSWORD": "from-env-9"])
        XCTAssertEqual(target.text, "host=h")
        XCTAssertEqual(target.redact("x from-env-9 y"), "x *** y")
    }

    func testTheOptionComesBeforeSURVEY_DBWhichComesBeforeLibpqsDefaults() {
        XCTAssertEqual(ConnectionString.resolve(option: "host=a", environment: ["SURVEY_DB": "host=b"]).text, "host=a")
        XCTAssertEqual(ConnectionString.resolve(option: nil, environment: ["SURVEY_DB": "host=b"]).text, "host=b")
        XCTAssertEqual(ConnectionString.resolve(option: nil, environment: [:]).text, "")
    }

    /// libpq itself, refusing to connect and refusing a string it cannot read: its messages
    /// quote what they were given, and survey's error shows none of the password.
    func testLibpqsOwnErrorsComeBackRedacted() throws {
        for text in ["host=/nonexistent-survey-socket dbname=d user=ana password=hunter22",
                     "postgresql://ana:hunter22@/d?host=/nonexistent-survey-socket&sslmode=hunter22",
                     "host=/nonexistent-survey-socket password=hunter22 port=hunter22"] {
            XCTAssertThrowsError(try DatabaseConnection(ConnectionString(text))) { error in
                let message = "\(error)"
                XCTAssertEqual((error as? DatabaseError)?.kind, .connection, message)
                XCTAssertFalse(message.contains("hunter22"), message)
                XCTAssertTrue(message.contains("could not connect"), message)
            }
        }
    }
}
