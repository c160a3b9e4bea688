import FoundationEssentials

/// A team's PostgreSQL as survey uses it: the surveys and forms tables `survey db init`
/// created, reached through one connection. The API is plain values (`OutgoingRow`,
/// `IncomingRow`, `PushResult`): what to send and how to merge what comes is the sync
/// ledger's business (SurveyModel/Sync), not this module's.
public final class SurveyServer {
    public let connection: DatabaseConnection

    /// Connects and checks the schema is there and not newer than this survey knows.
    public init(_ target: ConnectionString) throws {
        connection = try DatabaseConnection(target)
        let version: Int
        do {
            version = Int(try connection.execute("SELECT coalesce(max(version), 0) FROM survey.schema_migrations").scalar ?? "") ?? 0
        } catch let error as DatabaseError where error.kind == .statement(sqlState: "42P01") || error.kind == .statement(sqlState: "3F000") {
            throw DatabaseError(.schema, "\(target.shown) has no survey tables yet: its owner runs survey db init --db …")
        }
        if version < Schema.latest {
            throw DatabaseError(.schema, "\(target.shown) has survey's schema version \(version), this survey needs \(Schema.latest): its owner runs survey db init --db …")
        }
        if version > Schema.latest {
            throw DatabaseError(.schema, "\(target.shown) has survey's schema version \(version), newer than this survey knows (\(Schema.latest)): update survey")
        }
    }

    /// The login role this connection acts as (`current_user`).
    public func role() throws -> String {
        try connection.execute("SELECT current_user").scalar ?? ""
    }

    /// What `survey db init` did: the migrations it applied (none when the schema was current).
    public struct Initialization: Equatable, Sendable {
        public var applied: [Int]
        public var version: Int
    }

    /// Creates or upgrades the schema: the migrations this database has not had, each in its
    /// own transaction, under an advisory lock so two `db init` at once cannot interleave.
    /// Needs a role that may create schemas and roles (the database's owner with CREATEROLE,
    /// or a superuser).
    public static func initialize(_ target: ConnectionString) throws -> Initialization {
        let connection = try DatabaseConnection(target)
        defer { connection.close() }
        var applied: [Int] = []
        try connection.transaction {
            try connection.execute("SELECT pg_advisory_xact_lock(\(Schema.lockKey))")
            for statement in Schema.bookkeeping { try connection.execute(statement) }
        }
        for migration in Schema.migrations {
            try connection.transaction {
                try connection.execute("SELECT pg_advisory_xact_lock(\(Schema.lockKey))")
                let done = try connection.execute("SELECT 1 FROM survey.schema_migrations WHERE version = $1", [String(migration.version)])
                guard done.rows.isEmpty else { return }
                for statement in migration.statements { try connection.execute(statement) }
                try connection.execute("INSERT INTO survey.schema_migrations (version, summary) VALUES ($1, $2)",
                                       [String(migration.version), migration.summary])
                applied.append(migration.version)
            }
        }
        return Initialization(applied: applied, version: Schema.latest)
    }
}
