import Foundation
import XCTest
import SurveyDatabase
import SurveyValues
import SurveyForms
@testable import SurveyStorage
import SurveyTestSupport

/// A test against the process's throwaway PostgreSQL (`ThrowawayPostgres`): each test gets a
/// database of its own with survey's schema, and login roles of its own (roles are shared by
/// the whole server, so their names are unique per test).
class DatabaseTestCase: XCTestCase {
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
        database = try server.createDatabase()
        // Every commit of a few surveys goes through the ledger's journal here, as it does at
        // real size (from a 1 MB ledger): the team's tests run the journal, folded by every
        // reader, not only the whole file small folders write.
        // And the ledger is read on a second thread beside the document, as from 8 MB, and in
        // part by every sync that only pulls, as from 1 MB (`PartialLedger`).
        (journalFrom, besideFrom, inPartFrom) = (DocumentStore.ledgerJournaledFrom, DocumentStore.ledgerReadBesideFrom,
                                                 DocumentStore.ledgerReadInPartFrom)
        DocumentStore.ledgerJournaledFrom = 0
        DocumentStore.ledgerReadBesideFrom = 0
        DocumentStore.ledgerReadInPartFrom = 0
    }

    private var journalFrom = DocumentStore.ledgerJournaledFrom
    private var besideFrom = DocumentStore.ledgerReadBesideFrom
    private var inPartFrom = DocumentStore.ledgerReadInPartFrom

    override func tearDown() {
        DocumentStore.ledgerJournaledFrom = journalFrom
        DocumentStore.ledgerReadBesideFrom = besideFrom
        DocumentStore.ledgerReadInPartFrom = inPartFrom
        super.tearDown()
    }

    private var laptops: [URL] = []

    /// A laptop: a document folder of its own holding "Field" with `records`, removed after
    /// the test. Several stand for several laptops syncing through this test's database.
    func laptop(_ records: [Record] = []) throws -> DocumentStore {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("laptop-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        laptops.append(folder)
        let store = DocumentStore(folder: folder)
        _ = try store.save(SurveyDocument(records: records), as: "Field")
        return store
    }

    /// One sync of a laptop's "Field" as `role`, what `survey sync` runs.
    @discardableResult
    func sync(_ store: DocumentStore, as role: String, device: String) throws -> DocumentSync.Result {
        try DocumentSync.run(store: store, document: "Field", target: target(as: role), device: device, at: { Date() })
    }

    /// A survey as a laptop's document holds it: `values` and its id.
    func survey(_ id: String, _ values: [String: PropertyValue]) -> Record {
        var answers = values
        answers[Record.instanceIDKey] = .string(id)
        return Record(answers)
    }

    /// A change keyed into survey `id` of a laptop's "Field", written as the app saves it.
    func edit(_ store: DocumentStore, _ id: String, _ change: (inout Record) -> Void) throws {
        var document = try store.load("Field").get()
        let i = try XCTUnwrap(document.records.firstIndex { $0.instanceID == id })
        change(&document.records[i])
        _ = try store.save(document, as: "Field")
    }

    /// A sync as `role` whose push of `total` surveys is cut off as a closed lid cuts it: the
    /// server ends the connection once the first batch is stored, before the laptop hears.
    func syncCutAfterFirstPushBatch(_ store: DocumentStore, as role: String, total: Int,
                                    file: StaticString = #filePath, line: UInt = #line) {
        let postgres = server!
        let batch = SurveyServer.pushBatchSize
        XCTAssertThrowsError(try DocumentSync.run(store: store, document: "Field", target: target(as: role), device: "A", at: { Date() },
                                                  progress: { progress in
            if progress.contains("\(batch) of \(total) out") {
                _ = try? postgres.psql("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE usename = '\(role)'")
            }
        }), file: file, line: line)
    }

    override func tearDownWithError() throws {
        for folder in laptops { try? FileManager.default.removeItem(at: folder) }
        if let server, let database {
            _ = try? server.psql("DROP DATABASE IF EXISTS \(database) WITH (FORCE)")
            for role in roles { _ = try? server.psql("DROP ROLE IF EXISTS \(role)") }
        }
        try super.tearDownWithError()
    }

    /// The connection string for this test's database, as `user` (the superuser by default).
    func target(as user: String? = nil) -> ConnectionString {
        ConnectionString(server.connectionString(database: database, user: user))
    }

    /// Runs `survey db init`'s work as the superuser.
    @discardableResult
    func initialize() throws -> SurveyServer.Initialization {
        try SurveyServer.initialize(target())
    }

    /// A login role that is a member of `group` (survey_enumerator or survey_supervisor).
    func login(_ name: String, in group: String) throws -> SurveyServer {
        try SurveyServer(target(as: try loginRole(name, in: group)))
    }

    /// A new login role in `group` (nil: in none), by name (dropped at the end of the test).
    func loginRole(_ name: String, in group: String?) throws -> String {
        let role = "\(name)_\(UUID().uuidString.prefix(6).lowercased())"
        try server.psql("CREATE ROLE \(role) LOGIN" + (group.map { " IN ROLE \($0)" } ?? ""))
        roles.append(role)
        return role
    }

    func enumerator(_ name: String) throws -> SurveyServer { try login(name, in: "survey_enumerator") }
    func supervisor(_ name: String) throws -> SurveyServer { try login(name, in: "survey_supervisor") }

    /// A survey with nested answers (a roster) and a key no form knows.
    func survey(_ id: String, name: String = "Ana", dataset: String = "household") -> OutgoingRow {
        OutgoingRow(instanceID: id, dataset: dataset, answers: [
            "name": .string(name),
            "age": .integer(35),
            "weight": .real(61.5),
            "consent": .bool(true),
            "members": .array([
                .dictionary(["member_name": .string("Bea"), "member_age": .integer(7), "scores": .array([.integer(1), .real(2.0)])]),
                .dictionary(["member_name": .string("Ciro \"the elder\" \\ é 漢字"), "member_age": .integer(71)]),
            ]),
            "x_unknown_tool_key": .dictionary(["kept": .string("whole"), "big": .real(1e20)]),
        ], formID: "household", formVersion: "2024-05", device: "laptop-1")
    }

    /// Every row of `dataset` a role can pull, in batches of `limit`.
    func pullAll(_ server: SurveyServer, dataset: String? = "household", limit: Int = 1000) throws -> [IncomingRow] {
        var cursor: Int64 = 0
        var rows: [IncomingRow] = []
        while true {
            let batch = try server.pull(dataset: dataset, since: cursor, limit: limit)
            if batch.rows.isEmpty { return rows }
            rows += batch.rows
            cursor = batch.cursor
        }
    }
}
