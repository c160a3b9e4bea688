import Foundation
import XCTest
import SurveyDatabase
import SurveyValues
import SurveyForms
import SurveyStorage
import SurveyTestSupport
@testable import SurveyUI
@testable import SurveyRuntime

/// F9's sync is dated by the app's clock (`Program(clock:)`), as every other thing the app
/// records is, not by the machine's: against the tests' throwaway PostgreSQL, a program whose
/// clock is pinned finds that moment in the ledger as its last sync.
final class SyncClockTests: XCTestCase {
    private var server: ThrowawayPostgres!
    private var database: String?
    private var role: String?
    private var folder: URL!
    private var environmentBefore: String?

    override func setUpWithError() throws {
        try super.setUpWithError()
        do {
            server = try ThrowawayPostgres.shared()
        } catch let unavailable as ThrowawayPostgres.Unavailable {
            throw XCTSkip(unavailable.description)
        }
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("sync-clock-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        environmentBefore = ProcessInfo.processInfo.environment["SURVEY_DB"]
    }

    override func tearDownWithError() throws {
        // F9 reads the database from SURVEY_DB, as the app does; the test's value goes.
        if let environmentBefore { setenv("SURVEY_DB", environmentBefore, 1) } else { unsetenv("SURVEY_DB") }
        if let folder { try? FileManager.default.removeItem(at: folder) }
        if let server, let database { _ = try? server.psql("DROP DATABASE IF EXISTS \(database) WITH (FORCE)") }
        if let server, let role { _ = try? server.psql("DROP ROLE IF EXISTS \(role)") }
        try super.tearDownWithError()
    }

    func testF9DatesTheLedgerWithTheAppsClock() throws {
        let database = try server.createDatabase("clock")
        self.database = database
        _ = try SurveyServer.initialize(ConnectionString(server.connectionString(database: database)))
        let role = "ana_\(UUID().uuidString.prefix(6).lowercased())"
        try server.psql("CREATE ROLE \(role) LOGIN IN ROLE survey_enumerator")
        self.role = role
        setenv("SURVEY_DB", server.connectionString(database: database, user: role), 1)

        let store = DocumentStore(folder: folder)
        try store.save(SurveyDocument(records: [Record(["firstName": .string("Ana"), "lastName": .string("Silva")])]), as: "Field")
        // Long before the machine's today, so the machine's clock cannot pass for it.
        let moment = Date(timeIntervalSince1970: 1_000_000_000)
        var program = Program(store: store, documentName: "Field", size: Size(width: 100, height: 30), clock: .pinned(moment))
        program.finishBackgroundWork()
        program.press(.function(9))
        program.finishBackgroundWork()
        XCTAssertEqual(program.state.status?.text, "Synced “Field”: 0 in, 1 out")
        XCTAssertEqual(try store.syncLedger(for: "Field").lastSync, moment, "the ledger's last sync is the app's moment")
        program.terminate()
    }
}
