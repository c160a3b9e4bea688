import FoundationEssentials

/// A team's PostgreSQL as survey uses it: the surveys and forms tables `survey db init`
/// created, reached through one connection. The API is plain values (`OutgoingRow`,
/// `IncomingRow`, `PushResult`): what to send and how to merge what comes is the sync
/// ledger's business (SurveyStorage/Sync), not this module's.
public final class SurveyServer {
    public let connection: DatabaseConnection

    /// Set when the connection crosses a network unencrypted: the shell prints it on stderr,
    /// the app shows it on the status line (`DatabaseConnection.warning`).
    public var warning: String? { connection.warning }

    /// Told what a statement past a second waits for (`DatabaseConnection.waiting`): the sync
    /// puts it on its progress line.
    public var waiting: ((String) -> Void)? {
        get { connection.waiting }
        set { connection.waiting = newValue }
    }

    /// Connects and checks the schema is there and not newer than this survey knows. Learns
    /// who the role is on the team in the same statement as the session's settings, so a
    /// refusal can say who may do what (`DatabaseError.refusal`).
    public init(_ target: ConnectionString) throws {
        connection = try DatabaseConnection(target)
        connection.member = TeamMember(try Self.setTimeouts(connection, alsoReading: TeamMember.columns))
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

    /// What every session survey opens sets (issue 28), so no other session can stall it
    /// without a word: a lock wait longer than 5 s fails with "the team's database is busy"
    /// (`DatabaseConnection`); a statement longer than 60 s (a push batch is 500 rows, a pull
    /// 1,000) fails rather than hangs; a transaction idle 30 s (a laptop paused mid-push) is
    /// ended by the server, which rolls it back, so whatever it held is let go.
    public static let sessionTimeouts = [
        ("lock_timeout", "5s"), ("statement_timeout", "60s"),
        ("idle_in_transaction_session_timeout", Schema.idleInTransactionTimeout),
    ]

    /// Sets the timeouts; returns the values of `columns`, read in the same statement. Names
    /// the session "survey" when the connection string gave it no `application_name`, so a
    /// teammate's wait says "bruno's session (survey, pid 4121)": a laptop's push.
    @discardableResult
    static func setTimeouts(_ connection: DatabaseConnection, alsoReading columns: [String] = []) throws -> ArraySlice<String?> {
        let settings = sessionTimeouts.indices.map { "set_config($\($0 * 2 + 1), $\($0 * 2 + 2), false)" }
            + ["CASE WHEN current_setting('application_name') = '' THEN set_config('application_name', 'survey', false) END"]
        let row = try connection.execute("SELECT " + (settings + columns).joined(separator: ", "),
                                         sessionTimeouts.flatMap { [$0.0, $0.1] }).rows.first ?? []
        return row.dropFirst(settings.count)
    }

    /// The login role this connection acts as (`current_user`): read when it connected, with
    /// the session's settings; asked again only if that did not say.
    public func role() throws -> String {
        if let known = connection.member?.role { return known }
        return try connection.execute("SELECT current_user").scalar ?? ""
    }

    /// What `survey db init` did: the migrations it applied (none when the schema was current).
    public struct Initialization: Equatable, Sendable {
        public var applied: [Int]
        public var version: Int
        /// The connection's `warning` (unencrypted over a network), for the shell.
        public var warning: String?
    }

    /// Creates or upgrades the schema: the migrations this database has not had, each in its
    /// own transaction, under an advisory lock so two `db init` at once cannot interleave.
    /// Needs a role that may create schemas and roles (the database's owner with CREATEROLE,
    /// or a superuser).
    public static func initialize(_ target: ConnectionString) throws -> Initialization {
        let connection = try DatabaseConnection(target)
        defer { connection.close() }
        let role = try setTimeouts(connection, alsoReading: ["current_user"]).first ?? nil
        do {
            return Initialization(applied: try migrate(connection), version: Schema.latest, warning: connection.warning)
        } catch let error as DatabaseError where error.isPermissionDenied {
            throw DatabaseError(error.kind, "\(role ?? "this role") may not create or upgrade survey's schema:"
                + " survey db init is run by the database's owner (a role with CREATEROLE) or a superuser (docs/team.md, \"A team on PostgreSQL\")")
        }
    }

    private static func migrate(_ connection: DatabaseConnection) throws -> [Int] {
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
        return applied
    }
}
