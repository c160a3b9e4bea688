import Foundation
import XCTest
import SurveyTestSupport

/// The real binary against the tests' throwaway PostgreSQL: a fresh database made and
/// initialized (`survey db init`) for each test, and the login roles it made dropped after.
/// Skipped, with the reason, where no PostgreSQL can be started (CI allows no skip).
class TeamCLITestCase: CLITestCase {
    private(set) var server: ThrowawayPostgres!
    private(set) var database: String!
    private var roles: [String] = []

    override func setUpWithError() throws {
        try super.setUpWithError()
        do {
            server = try ThrowawayPostgres.shared()
        } catch let unavailable as ThrowawayPostgres.Unavailable {
            throw XCTSkip(unavailable.description)
        }
        database = try server.createDatabase("cli")
        XCTAssertEqual(try survey(["db", "init", "--db", server.connectionString(database: database)], dir: false).status, 0)
    }

    override func tearDownWithError() throws {
        if let server, let database {
            _ = try? server.psql("DROP DATABASE IF EXISTS \(database) WITH (FORCE)")
            for role in roles { _ = try? server.psql("DROP ROLE IF EXISTS \(role)") }
        }
        try super.tearDownWithError()
    }

    /// A login role named after `name`, in `group` (nil: in none), dropped after the test.
    func loginRole(_ name: String, in group: String?) throws -> String {
        let role = "\(name)_\(UUID().uuidString.prefix(6).lowercased())"
        try server.psql("CREATE ROLE \(role) LOGIN" + (group.map { " IN ROLE \($0)" } ?? ""))
        roles.append(role)
        return role
    }

    /// The connection string that logs in as `role`.
    func connection(as role: String) -> String { server.connectionString(database: database, user: role) }
}
