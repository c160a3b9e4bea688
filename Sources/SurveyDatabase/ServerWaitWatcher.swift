import FoundationEssentials

/// Looks at what a statement waits for from a second connection to the same database as the
/// same role (the first is busy with the statement): `pg_blocking_pids` of its server
/// process, those sessions' role, program name and, where visible, state
/// (`pg_stat_activity`; never their statement), and the lock it asked for (`pg_locks`).
///
/// Made when a statement passes a second, closed when it ends. The connection is held to
/// a 2 s connect and 1 s statements, so looking never hangs on a server that does not
/// answer; once it fails (the server is full, or gone) it is not tried again for that
/// statement, and the line says only how long the wait has been.
final class ServerWaitWatcher {
    private let target: ConnectionString
    private let pid: Int32
    private var connection: DatabaseConnection?
    private var failed = false

    init(target: ConnectionString, pid: Int32) {
        self.target = target
        self.pid = pid
    }

    func close() {
        connection?.close()
        connection = nil
    }

    /// What the statement waits for now; nil when it could not be looked at.
    func look() -> ServerWait? {
        guard !failed else { return nil }
        do {
            let connection = try self.connection ?? open()
            self.connection = connection
            return try Self.read(connection, pid: pid)
        } catch {
            failed = true
            close()
            return nil
        }
    }

    private func open() throws -> DatabaseConnection {
        let connection = try DatabaseConnection(target, overriding: [("connect_timeout", "2")])
        try connection.execute("SELECT set_config('statement_timeout', '1s', false), set_config('lock_timeout', '1s', false)")
        return connection
    }

    /// Reads the wait of server process `pid` through `connection`.
    static func read(_ connection: DatabaseConnection, pid: Int32) throws -> ServerWait {
        let holders = try connection.execute("""
            SELECT b.pid, a.usename, a.application_name, a.usename = current_user, a.state,
                   extract(epoch FROM a.state_change)::float8
            FROM (SELECT DISTINCT unnest(pg_blocking_pids($1::int)) AS pid) AS b
            LEFT JOIN pg_stat_activity AS a ON a.pid = b.pid
            ORDER BY b.pid
            """, [String(pid)]).rows.map { row in
            ServerWait.Holder(pid: row[0].flatMap { Int32($0) } ?? 0, role: row[1], application: row[2], isOwnRole: row[3] == "t",
                              state: row[4], since: row[5].flatMap { Double($0) }.map { Date(timeIntervalSince1970: $0) })
        }
        let wanted = try connection.execute("""
            SELECT (SELECT wait_event_type FROM pg_stat_activity WHERE pid = $1::int), w.locktype, w.relation::regclass::text,
                   EXISTS (SELECT 1 FROM pg_locks WHERE pid = $1::int AND relation = to_regclass('survey.surveys'))
            FROM (SELECT 1) AS one
            LEFT JOIN LATERAL (SELECT locktype, relation FROM pg_locks WHERE pid = $1::int AND NOT granted LIMIT 1) AS w ON true
            """, [String(pid)]).rows.first ?? []
        func column(_ index: Int) -> String? { index < wanted.count ? wanted[index] : nil }
        let lock: ServerWait.Lock?
        switch column(1) {
        case nil: lock = nil
        case "transactionid", "tuple": lock = .row(survey: column(3) == "t")
        case "relation": lock = column(2).map { .table($0) } ?? .other
        case "advisory": lock = .advisory
        default: lock = .other
        }
        return ServerWait(holders: holders, lock: lock, waitEvent: column(0))
    }
}
