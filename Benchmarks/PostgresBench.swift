import Foundation
import SurveyDatabase
import SurveyValues
import SurveyForms
import SurveyStorage
import SurveyTestSupport

/// A team's PostgreSQL (issue 19): push and pull of N surveys through SurveyDatabase, the first
/// sync and an incremental one of 100 changes, against `psql \copy` of the same rows in and out
/// as the floor (the fastest way PostgreSQL takes and gives rows). On the throwaway server the
/// tests use (a Unix socket, fsync off), as an enumerator role (row-level security on).
/// Printed, never asserted.
enum PostgresBench {
    static func run(sizes: [Int]) throws {
        print("")
        print("PostgreSQL push and pull (throwaway server, Unix socket, fsync off; batches of 500 in one transaction each):")
        let server: ThrowawayPostgres
        do {
            server = try ThrowawayPostgres.shared()
        } catch {
            print("  skipped: \(error)")
            return
        }
        print("  surveys      push first   pull first   push 100 edits   pull 100   \\copy in   \\copy out")
        for size in sizes { try row(size: size, server: server) }
    }

    /// A fresh database with survey's schema and an enumerator's login role, for one size.
    static func teamDatabase(on server: ThrowawayPostgres, _ prefix: String) throws -> (database: String, role: String) {
        let database = try server.createDatabase(prefix)
        _ = try SurveyServer.initialize(ConnectionString(server.connectionString(database: database)))
        let role = "\(prefix)_\(getpid())"
        try server.psql("DROP ROLE IF EXISTS \(role); CREATE ROLE \(role) LOGIN IN ROLE survey_enumerator")
        return (database, role)
    }

    static func dropTeamDatabase(_ database: String, _ role: String, on server: ThrowawayPostgres) {
        _ = try? server.psql("DROP DATABASE IF EXISTS \(database) WITH (FORCE)")
        _ = try? server.psql("DROP ROLE IF EXISTS \(role)")
    }

    static func survey(_ i: Int) -> OutgoingRow {
        OutgoingRow(instanceID: "uuid:bench-\(i)", dataset: "household", answers: [
            "firstName": .string("Person \(i)"), "lastName": .string("Família \(i % 97)"), "age": .integer(i % 90),
            "address": .string("\(i) Rua do Campo, Aldeia \(i % 13)"), "phone": .string("+258 84 \(100_000 + i)"),
            "members": .array([.dictionary(["member_name": .string("Kid \(i)"), "member_age": .integer(i % 17)])]),
        ], formID: "household", formVersion: "1", device: "bench")
    }

    static func row(size: Int, server: ThrowawayPostgres) throws {
        let (database, role) = try teamDatabase(on: server, "bench")
        defer { dropTeamDatabase(database, role, on: server) }
        let laptop = try SurveyServer(ConnectionString(server.connectionString(database: database, user: role)))
        let rows = (0..<size).map(survey)

        var results: [PushResult] = []
        let pushFirst = try seconds { results = try laptop.push(rows) }
        precondition(results.allSatisfy(\.isStored), "the first push stores every survey")
        var cursor: Int64 = 0
        var pulled = 0
        let pullFirst = try seconds {
            while true {
                let batch = try laptop.pull(dataset: "household", since: cursor, limit: 1000)
                if batch.rows.isEmpty { break }
                pulled += batch.rows.count
                cursor = batch.cursor
            }
        }
        precondition(pulled == size, "the first pull brings every survey")
        let edits = (0..<min(100, size)).map { i -> OutgoingRow in
            var row = rows[i * max(size / 100, 1)]
            row.answers["age"] = .integer(99)
            row.baseRevision = 1
            return row
        }
        let pushEdits = try seconds { results = try laptop.push(edits) }
        precondition(results.allSatisfy(\.isStored), "the edits are stored")
        var changed = 0
        let pullEdits = try seconds { changed = try laptop.pull(dataset: "household", since: cursor, limit: 1000).rows.count }
        precondition(changed == edits.count, "the incremental pull brings the edits alone")

        // The floor: the same rows through COPY into a plain table of the same columns, and out.
        let file = server.folder.appendingPathComponent("bench-\(size).csv")
        defer { try? FileManager.default.removeItem(at: file) }
        var csv = ""
        for row in rows {
            let fields = [row.instanceID, row.dataset, PropertyValue.jsonObjectText(row.answers), row.formID ?? "", row.formVersion ?? "", row.device ?? ""]
            csv += fields.map { "\"" + $0.replacingOccurrences(of: "\"", with: "\"\"") + "\"" }.joined(separator: ",") + "\n"
        }
        try csv.write(to: file, atomically: true, encoding: .utf8)
        try server.psql("""
            CREATE TABLE floor (instance_id text PRIMARY KEY, dataset text, answers jsonb, form_id text, form_version text, device text)
            """, database: database)
        let copyIn = try seconds { try server.psql("\\copy floor FROM '\(file.path)' WITH (FORMAT csv)", database: database) }
        let copyOut = try seconds { try server.psql("\\copy floor TO '\(file.path).out' WITH (FORMAT csv)", database: database) }
        try? FileManager.default.removeItem(atPath: file.path + ".out")
        func cell(_ s: Double, _ width: Int) -> String {
            let text = format(s)
            return String(repeating: " ", count: max(0, width - text.count)) + text
        }
        print(String(repeating: " ", count: max(0, 10 - String(size).count)) + String(size)
              + cell(pushFirst, 13) + cell(pullFirst, 13) + cell(pushEdits, 17) + cell(pullEdits, 11)
              + cell(copyIn, 12) + cell(copyOut, 12))
    }
}
