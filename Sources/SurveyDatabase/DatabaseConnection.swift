import CPostgres
import FoundationEssentials
import SurveyValues
import SurveyForms
import SurveyStorage
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// One libpq connection, used from one thread at a time. Every statement goes through
/// `execute(_:_:)`, which sends its values separately from its text (`PQexecParams`), so no
/// answer, name or id is ever spliced into SQL.
public final class DatabaseConnection {
    public let target: ConnectionString
    private var handle: OpaquePointer?
    /// libpq's functions (`LibPQ.load`).
    private let pq: UnsafePointer<spq_table>
    /// What to tell the person about this connection: it crosses a network unencrypted
    /// (`UnencryptedConnection`). The shell prints it on stderr, the app on its status line.
    public let warning: String?
    /// Who this role is on the team, once `SurveyServer` asked: a refused privilege says so.
    var member: TeamMember?

    /// Called, on the statement's thread, when a statement has run past a second and again
    /// as it goes on (`waitReports`), with what it waits for: "waiting 2 s for the server:
    /// bruno's session (psql, pid 4121) holds a lock on a survey this needs" (`ServerWait`,
    /// looked at from a second connection, `ServerWaitWatcher`). Nil: nobody is told, and no
    /// second connection is made. The statement's own timeouts are untouched by it.
    public var waiting: ((String) -> Void)?

    /// Connects (loading libpq first). Errors are redacted and say what to check.
    public convenience init(_ target: ConnectionString) throws {
        try self.init(target, overriding: [])
    }

    /// Connects with `settings` (libpq keywords) over what `target` says: the watcher's
    /// `connect_timeout`, so looking at a wait never hangs on a server that does not answer.
    init(_ target: ConnectionString, overriding settings: [(String, String)]) throws {
        self.target = target
        let pq = try LibPQ.load()
        self.pq = pq
        let connecting: OpaquePointer?
        if settings.isEmpty {
            connecting = spq_connectdb(pq, target.text)
        } else {
            let keywords = (["dbname"] + settings.map(\.0)).map { strdup($0) } + [nil]
            let values = ([target.text] + settings.map(\.1)).map { strdup($0) } + [nil]
            defer { for copy in keywords + values { free(copy) } }
            connecting = keywords.map { $0.map { UnsafePointer($0) } }.withUnsafeBufferPointer { keys in
                values.map { $0.map { UnsafePointer($0) } }.withUnsafeBufferPointer { spq_connectdb_params(pq, keys.baseAddress, $0.baseAddress, 1) }
            }
        }
        guard let connection = connecting else {
            throw DatabaseError(.connection, "could not connect to \(target.shown): libpq is out of memory")
        }
        guard spq_status(pq, connection) == CONNECTION_OK else {
            let why = Self.text(spq_error_message(pq, connection))
            spq_finish(pq, connection)
            throw DatabaseError(.connection, target.redact("could not connect to \(target.shown): \(why)"))
        }
        spq_silence_notices(pq, connection)
        handle = connection
        warning = UnencryptedConnection.warning(host: Self.text(spq_host(pq, connection)), address: Self.text(spq_hostaddr(pq, connection)),
                                                encrypted: spq_ssl_in_use(pq, connection) == 1 || spq_gss_enc_in_use(pq, connection) == 1)
    }

    deinit { close() }

    public func close() {
        if let handle { spq_finish(pq, handle) }
        handle = nil
        ahead = nil
    }

    /// The server process serving this connection (`pg_backend_pid()`): tests end it to cut
    /// the connection as a network would.
    public var serverProcessID: Int32 { handle.map { spq_backend_pid(pq, $0) } ?? 0 }

    /// Runs one statement with its values as parameters `$1`, `$2`… (nil is SQL NULL).
    @discardableResult
    public func execute(_ sql: String, _ parameters: [String?] = []) throws -> QueryResult {
        let result = try run(sql, parameters)
        defer { if let result { spq_clear(pq, result) } }
        guard let result else { return QueryResult() }
        var rows: [[String?]] = []
        let (count, columns) = (spq_ntuples(pq, result), spq_nfields(pq, result))
        rows.reserveCapacity(Int(count))
        for row in 0..<count {
            var values: [String?] = []
            values.reserveCapacity(Int(columns))
            for column in 0..<columns {
                if spq_getisnull(pq, result, row, column) != 0 {
                    values.append(nil)
                } else {
                    let length = Int(spq_getlength(pq, result, row, column))
                    let bytes = UnsafeRawPointer(spq_getvalue(pq, result, row, column)!).assumingMemoryBound(to: UInt8.self)
                    values.append(String(decoding: UnsafeBufferPointer(start: bytes, count: length), as: UTF8.self))
                }
            }
            rows.append(values)
        }
        return QueryResult(rows: rows, changed: Int(Self.text(spq_cmd_tuples(pq, result))) ?? 0)
    }

    /// Runs one statement as `execute` does, and lends `body` its rows where libpq holds
    /// them (`ResultRows`), for a caller that reads many rows into values of its own.
    public func withRows<T>(_ sql: String, _ parameters: [String?] = [], _ body: (ResultRows) throws -> T) throws -> T {
        guard let result = try run(sql, parameters) else { throw DatabaseError(.protocolError, "\(target.shown) sent no rows") }
        defer { spq_clear(pq, result) }
        return try body(ResultRows(pq: pq, result: result))
    }

    /// Sends `sql` with `parameters` now, without waiting for its result: the next `execute` or
    /// `withRows` of this very statement and parameters reads it, so the server works on it
    /// meanwhile (a pull's next batch, while this one is read and applied). Any other statement
    /// first reads and drops it, so nothing is ever answered out of turn; so does `close`.
    public func sendAhead(_ sql: String, _ parameters: [String?]) {
        guard let handle else { return }
        dropAhead()
        if send(handle, sql, parameters) { ahead = (sql, parameters) }
    }

    /// Reads whatever has arrived of the statement sent ahead, never waiting: the server writes
    /// a batch of rows faster than a socket holds them, and stops when it is full.
    public func readAhead() {
        if ahead != nil, let handle { _ = spq_consume_input(pq, handle) }
    }

    /// The statement sent ahead and not yet read (`sendAhead`).
    private var ahead: (sql: String, parameters: [String?])?

    /// Reads and drops the statement sent ahead, if any.
    private func dropAhead() {
        guard ahead != nil, let handle else { return }
        ahead = nil
        if let result = answer(handle) { spq_clear(pq, result) }
    }

    private func send(_ handle: OpaquePointer, _ sql: String, _ parameters: [String?]) -> Bool {
        let copies: [UnsafeMutablePointer<CChar>?] = parameters.map { $0.flatMap { strdup($0) } }
        defer { for copy in copies { free(copy) } }
        let pointers: [UnsafePointer<CChar>?] = copies.map { $0.map { UnsafePointer($0) } }
        return pointers.withUnsafeBufferPointer { values in
            spq_send_query_params(pq, handle, sql, Int32(parameters.count), nil, values.baseAddress, nil, nil, 0)
        } == 1
    }

    /// Sends the statement (unless it was sent ahead) and waits for its result, which the
    /// caller clears; throws when it failed.
    private func run(_ sql: String, _ parameters: [String?]) throws -> OpaquePointer? {
        guard let handle else { throw DatabaseError(.connectionLost, "the connection to \(target.shown) is closed") }
        let sent: Bool
        if let ahead, ahead.sql == sql, ahead.parameters == parameters {
            self.ahead = nil
            sent = true
        } else {
            dropAhead()
            sent = send(handle, sql, parameters)
        }
        let result = sent ? answer(handle) : nil
        let status = result.map { spq_result_status(pq, $0) } ?? PGRES_FATAL_ERROR
        guard status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK else {
            defer { if let result { spq_clear(pq, result) } }
            throw failure(result, sql)
        }
        return result
    }

    /// The answer to the statement just sent, as `PQexecParams` gives it (the last result; a
    /// COPY's at once), once it is all in. While it is not, and someone listens (`waiting`),
    /// what it waits for is told past a second. A lost connection ends the wait as it did
    /// `PQexecParams`'s: libpq's result then says so.
    private func answer(_ handle: OpaquePointer) -> OpaquePointer? {
        if waiting != nil { watchWhileBusy(handle) }
        var last: OpaquePointer?
        while let result = spq_get_result(pq, handle) {
            if let last { spq_clear(pq, last) }
            last = result
            let status = spq_result_status(pq, result)
            if status == PGRES_COPY_IN || status == PGRES_COPY_OUT || status == PGRES_COPY_BOTH
                || spq_status(pq, handle) == CONNECTION_BAD { break }
        }
        return last
    }

    /// When to tell of a wait, in seconds since the statement was sent: every second up to
    /// five (a lock wait ends at `lock_timeout`, 5 s), then every five (a slow statement runs
    /// up to `statement_timeout`, a minute: a dozen lines, not sixty, on a script's stderr).
    static func nextReport(after seconds: Int) -> Int { seconds < 5 ? max(seconds, 0) + 1 : (seconds / 5 + 1) * 5 }

    /// Reads the answer as it comes (`poll` on the socket, `PQconsumeInput`) until libpq has
    /// it whole; at each `nextReport` looks, from a second connection, at what the statement
    /// waits for and tells `waiting`. Returns when the answer is in or the connection broke.
    private func watchWhileBusy(_ handle: OpaquePointer) {
        let socket = spq_socket(pq, handle)
        guard socket >= 0 else { return }
        let clock = ContinuousClock()
        var wait = WaitClock()
        var last = clock.now
        /// Counts the time since the last step, which asked to take at most `asked`.
        func step(asked: Duration) {
            let now = clock.now
            wait.step(asked: asked, took: now - last)
            last = now
        }
        var due = Duration.seconds(Self.nextReport(after: 0))
        var watcher: ServerWaitWatcher?
        defer { watcher?.close() }
        while spq_is_busy(pq, handle) == 1 {
            let left = due - wait.waited
            if left > .zero {
                var descriptor = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
                let (seconds, attoseconds) = left.components
                let milliseconds = Int32(min(seconds * 1000 + attoseconds / 1_000_000_000_000_000 + 1, 60_000))
                let ready = poll(&descriptor, 1, milliseconds)
                step(asked: .milliseconds(Int(milliseconds)))
                if ready > 0 {
                    guard spq_consume_input(pq, handle) == 1 else { return }
                    continue
                }
                if ready < 0 {
                    if errno == EINTR { continue }
                    return
                }
                if wait.waited < due { continue }
            }
            let seconds = wait.seconds
            if watcher == nil { watcher = ServerWaitWatcher(target: target, pid: spq_backend_pid(pq, handle)) }
            let line = watcher?.look().map { $0.message(seconds: seconds) } ?? ServerWait.unknown(seconds: seconds)
            waiting?(line)
            // A look is held to a 2 s connect and 1 s statements.
            step(asked: .seconds(3))
            due = .seconds(Self.nextReport(after: wait.seconds))
        }
    }

    /// Runs `body` in one transaction: committed when it returns, rolled back when it throws
    /// (or when the connection breaks, which the server does by itself).
    public func transaction<T>(_ body: () throws -> T) throws -> T {
        try execute("BEGIN")
        let value: T
        do {
            value = try body()
        } catch {
            if let handle, spq_status(pq, handle) == CONNECTION_OK { _ = try? execute("ROLLBACK") }
            throw error
        }
        try execute("COMMIT")
        return value
    }

    /// The error a failed statement gives: a lost connection told apart from a refusal.
    private func failure(_ result: OpaquePointer?, _ sql: String) -> DatabaseError {
        let connectionMessage = handle.map { Self.text(spq_error_message(pq, $0)) } ?? ""
        let why = result.map { Self.text(spq_result_error_message(pq, $0)) }.flatMap { $0.isEmpty ? nil : $0 } ?? connectionMessage
        let state = result.flatMap { spq_result_error_field(pq, $0, spq_diag_sqlstate()) }.map { Self.text($0) } ?? ""
        // libpq's own errors (the socket closed) carry no SQLSTATE; class 08 is a connection
        // exception, 57P01–57P03 the server shutting down.
        let bad = handle.map { spq_status(pq, $0) != CONNECTION_OK } ?? true
        if bad || state.isEmpty || state.hasPrefix("08") || ["57P01", "57P02", "57P03"].contains(state) {
            return DatabaseError(.connectionLost, target.redact(
                "the connection to \(target.shown) was lost (the server stopped, or the network was cut): \(why)"))
        }
        switch state {
        case "42501":
            return DatabaseError(.statement(sqlState: state), target.redact(DatabaseError.refusal(of: sql, by: member)))
        case "55P03":
            // lock_timeout: another session holds a row or lock this statement needs.
            return DatabaseError(.statement(sqlState: state), target.redact(
                "the team's database is busy: another session holds a lock this needs (a teammate's unfinished push or review, or a session of their own); try again in a moment (the server said: \(why))"))
        case "57014":
            return DatabaseError(.statement(sqlState: state), target.redact(
                "the team's database took too long to answer (a statement may run at most a minute); try again in a moment (the server said: \(why))"))
        default:
            return DatabaseError(.statement(sqlState: state), target.redact("the database refused: \(why)"))
        }
    }

    /// libpq's text, without the newline it ends messages with.
    static func text(_ pointer: UnsafePointer<CChar>?) -> String {
        guard let pointer else { return "" }
        var text = String(decoding: UnsafeBufferPointer(start: UnsafeRawPointer(pointer).assumingMemoryBound(to: UInt8.self),
                                                        count: strlen(pointer)), as: UTF8.self)
        while text.last == "\n" || text.last == " " { text.removeLast() }
        // libpq breaks a message over lines ("…failed: …\n\tIs the server running…?"): one line.
        return text.replacingEvery("\n\t", with: " ").replacingEvery("\n", with: "; ")
    }

    static func text(_ pointer: UnsafeMutablePointer<CChar>?) -> String {
        text(pointer.map { UnsafePointer($0) })
    }
}
