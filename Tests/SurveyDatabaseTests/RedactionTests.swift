import XCTest
import SurveyDatabase
import SurveyTestSupport

/// Credentials never appear in what survey prints: the connection string is redacted in every
/// message, libpq's own included. A message is cut only where libpq quotes what it was given
/// (between double quotes, or the whole string); its prose is never touched, so a short
/// password's letters never show through the gaps (issue 28).
final class RedactionTests: XCTestCase {
    func testAURIsPasswordIsRedactedPercentDecodedToo() {
        let target = ConnectionString("postgresql://ana:s3cr%40t!@db.example.org:5432/survey?sslmode=require")
        XCTAssertEqual(target.redacted, "postgresql://ana:***@db.example.org:5432/survey?sslmode=require")
        XCTAssertEqual(target.redact(#"invalid value "s3cr@t!" or "s3cr%40t!""#), #"invalid value "***" or "***""#)
        XCTAssertEqual(ConnectionString("postgres://ana@h/db?password=abc123&user=x").redacted, "postgres://ana@h/db?password=***&user=x")
    }

    func testAKeywordStringsPasswordIsRedactedQuotedOrNot() {
        XCTAssertEqual(ConnectionString("host=h password=hunter22 user=ana").redacted, "host=h password=*** user=ana")
        let quoted = ConnectionString(#"host=h password = 'it\'s a secret' dbname=d"#)
        XCTAssertEqual(quoted.redacted, "host=h password = *** dbname=d")
        XCTAssertEqual(quoted.redact(#"echo: "it's a secret""#), #"echo: "***""#)
    }

    func testPGPASSWORDIsRedactedToo() {
        let target = ConnectionString.resolve(option: nil, environment: ["SURVEY_DB": "host=h", "PGPASSWORD": "from-env-9"])
        XCTAssertEqual(target.text, "host=h")
        XCTAssertEqual(target.redact(#"x "from-env-9" y"#), #"x "***" y"#)
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

    /// Issue 28: a password of one to three letters is cut where it is written, not wherever
    /// its letters occur (`postgresql://***n***:***@db.ex***mple.org` showed it by the gaps).
    func testAShortPasswordIsCutWhereItIsWrittenNotWhereItsLettersAre() {
        for password in ["a", "e", "db", "org", "le"] {
            let target = ConnectionString("postgresql://ana:\(password)@db.example.org:5432/fieldwork?sslmode=verify-full")
            XCTAssertEqual(target.redacted, "postgresql://ana:***@db.example.org:5432/fieldwork?sslmode=verify-full", password)
            let keywords = ConnectionString("host=db.example.org user=ana password=\(password) dbname=fieldwork")
            XCTAssertEqual(keywords.redacted, "host=db.example.org user=ana password=*** dbname=fieldwork", password)
            for message in [#"FATAL:  password authentication failed for user "ana""#,
                            #"could not translate host name "db.example.org" to address: Name or service not known"#,
                            "the database refused: permission denied for table surveys"] {
                XCTAssertEqual(target.redact(message), message, password)
                XCTAssertEqual(keywords.redact(message), message, password)
            }
        }
        // Even "password", in libpq's own "password authentication failed".
        let common = ConnectionString("postgresql://ana:password@db.example.org/fieldwork")
        XCTAssertEqual(common.redact(#"password authentication failed for user "ana""#), #"password authentication failed for user "ana""#)
    }

    /// A password inside another value (the host's name) is left there: cutting it would say
    /// which letters it is. A value that equals the password is cut, the user's too.
    func testAPasswordInsideOtherWordsIsLeftAndAValueEqualToItIsCut() {
        let inside = ConnectionString("postgresql://ana:example@db.example.org/example_db")
        XCTAssertEqual(inside.redacted, "postgresql://ana:***@db.example.org/example_db")
        XCTAssertEqual(inside.redact(#"could not translate host name "db.example.org" to address"#),
                       #"could not translate host name "db.example.org" to address"#)
        let same = ConnectionString("postgresql://ana:ana@db.example.org/fieldwork")
        XCTAssertEqual(same.redacted, "postgresql://***:***@db.example.org/fieldwork")
        XCTAssertEqual(same.redact(#"password authentication failed for user "ana""#), #"password authentication failed for user "***""#)
        let keywords = ConnectionString("host=/s password=hunter22 sslmode=hunter22")
        XCTAssertEqual(keywords.redacted, "host=/s password=*** sslmode=***")
        // libpq's own quoted wording is never a value it echoes: "=" stays, even as a password.
        XCTAssertEqual(ConnectionString("host=/s password==").redact(#"missing "=" after "x""#), #"missing "=" after "x""#)
    }

    /// URL-encoded passwords: cut as written and as libpq decodes them; an unencoded `@` keeps
    /// the password whole (libpq would take what follows it as the host and quote that).
    func testURLEncodedPasswordsAndAnAtInsideOne() {
        let encoded = ConnectionString("postgresql://ana:p%40s%20s@h/d?password=%61b")
        XCTAssertEqual(encoded.redacted, "postgresql://ana:***@h/d?password=***")
        XCTAssertEqual(encoded.redact(#"a "p@s s" b "p%40s%20s" c "ab" d "%61b""#), #"a "***" b "***" c "***" d "***""#)
        let at = ConnectionString("postgresql://ana:p@ss@h/d")
        XCTAssertEqual(at.redacted, "postgresql://ana:***@h/d")
        XCTAssertEqual(at.redact(#"could not translate host name "ss@h" to address"#), #"could not translate host name "***@h" to address"#)
        XCTAssertEqual(ConnectionString("postgresql://ana:a%zz@h/d").redact(#"invalid percent-encoded token: "a%zz""#),
                       #"invalid percent-encoded token: "***""#)
    }

    /// libpq's own messages for short, encoded and malformed passwords: the password's letters
    /// are nowhere in what survey says, and the rest of the message is whole.
    func testLibpqsMessagesAboutShortOrMalformedPasswords() throws {
        let socket = "/nonexistent-survey-socket"
        let cases: [(text: String, shown: String, hidden: [String])] = [
            // A one-letter password, and a message full of that letter.
            ("postgresql://ana:e@/d?host=\(socket)", "could not connect to postgresql://ana:***@/d?host=\(socket): ", []),
            // libpq quotes the token it cannot decode.
            ("postgresql://ana:a%zz@/d?host=\(socket)", "could not connect to postgresql://ana:***@/d?host=\(socket): ", ["a%zz"]),
            // libpq quotes the whole URI.
            ("postgresql://ana:ab@[::1/d", "could not connect to postgresql://ana:***@[::1/d: ", ["ana:ab@"]),
            // An unquoted password with a space: libpq takes "my" and quotes "secret".
            ("host=\(socket) password=my secret", "could not connect to host=\(socket) password=***: ", ["secret"]),
            // The password written again as another option's value, which libpq quotes.
            ("host=\(socket) password=ab sslmode=ab", "could not connect to host=\(socket) password=*** sslmode=***: ", ["\"ab\""]),
        ]
        for (text, shown, hidden) in cases {
            XCTAssertThrowsError(try DatabaseConnection(ConnectionString(text))) { error in
                let message = "\(error)"
                XCTAssertTrue(message.hasPrefix(shown), message)
                for letters in hidden { XCTAssertFalse(message.contains(letters), "\(letters): \(message)") }
                if text.contains("ana:e@") {
                    XCTAssertTrue(message.contains("Is the server running locally and accepting connections on that socket?"), message)
                    XCTAssertTrue(message.contains("\"\(socket)/.s.PGSQL.5432\""), message)
                }
            }
        }
    }
}
