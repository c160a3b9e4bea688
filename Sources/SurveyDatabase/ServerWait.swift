import FoundationEssentials
import SurveyValues
import SurveyForms
import SurveyStorage

/// What one of survey's statements waits for once it has run past a second (issue 28: "a
/// wait longer than a second says what it waits for"), as a second connection saw it in
/// `pg_stat_activity`, `pg_locks` and `pg_blocking_pids` (`ServerWaitWatcher`), and the line
/// that tells the person: "waiting 2 s for the server: bruno's session (psql, pid 4121)
/// holds a lock on a survey this needs".
///
/// What a role sees of another role's session is its role, its program's name
/// (`application_name`, which that program chose) and its process id; its state, since when,
/// and its statement are PostgreSQL's "insufficient privilege" (only a superuser or a member
/// of `pg_read_all_stats` sees them). So the state is said only for a session of one's own
/// role, and no session's statement is ever read: it could hold anything, a password too.
public struct ServerWait: Equatable, Sendable {
    /// A session holding what the statement waits for.
    public struct Holder: Equatable, Sendable {
        /// Its server process; 0 for a prepared transaction (which has none).
        public var pid: Int32
        /// Its login role; nil for a server process of no role.
        public var role: String?
        /// The name its program gave (`psql`, `survey`), nil or empty when none.
        public var application: String?
        /// The same role as the waiting statement's: its state is visible.
        public var isOwnRole: Bool
        /// `pg_stat_activity.state` ("idle in transaction"…), nil where it is not visible.
        public var state: String?
        /// When it entered that state.
        public var since: Date?

        public init(pid: Int32, role: String?, application: String?, isOwnRole: Bool = false,
                    state: String? = nil, since: Date? = nil) {
            (self.pid, self.role, self.application, self.isOwnRole, self.state, self.since)
                = (pid, role, application, isOwnRole, state, since)
        }
    }

    /// The lock the statement waits for (`pg_locks`, not granted).
    public enum Lock: Equatable, Sendable {
        /// A row another transaction changed or locked (`transactionid`, `tuple`): a survey
        /// when the statement works on `survey.surveys`.
        case row(survey: Bool)
        /// A whole table.
        case table(String)
        /// `pg_advisory_lock`: survey takes one only in `db init`.
        case advisory
        case other
    }

    /// Who holds what it waits for (`pg_blocking_pids`), in process order.
    public var holders: [Holder]
    /// What it waits for; nil when it waits for no lock.
    public var lock: Lock?
    /// What the statement's own server process waits on, when no session holds it up
    /// (`wait_event_type`: "IO", "LWLock"…; nil while it computes).
    public var waitEvent: String?

    public init(holders: [Holder], lock: Lock?, waitEvent: String? = nil) {
        (self.holders, self.lock, self.waitEvent) = (holders, lock, waitEvent)
    }

    /// Holders named one by one; the rest are counted.
    static let namedHolders = 2

    /// "waiting 2 s for the server: bruno's session (psql, pid 4121) holds a lock on a survey
    /// this needs"; "waiting 3 s for the server (it is busy: no other session holds a lock
    /// this needs)". Times of day are local (`zone`).
    public func message(seconds: Int, zone: TimeZoneRule = .current) -> String {
        let waited = Self.unknown(seconds: seconds)
        guard !holders.isEmpty else {
            if lock != nil { return waited + " (it waits for a lock another session has just let go)" }
            let busy = waitEvent == "IO" ? "it is reading or writing its disk" : "it is busy"
            return waited + " (\(busy): no other session holds a lock this needs)"
        }
        var named = holders.prefix(Self.namedHolders).map { $0.described(zone: zone) }
        let rest = holders.count - named.count
        if rest > 0 { named.append(rest == 1 ? "1 other session" : "\(rest) other sessions") }
        let who = named.count == 1 ? named[0] : named.dropLast().joined(separator: ", ") + " and " + named.last!
        return waited + ": " + who + (holders.count == 1 ? " holds " : " hold ") + what
    }

    /// The line when what the statement waits for could not be looked at (no second
    /// connection to be had: the server is full, or gone).
    public static func unknown(seconds: Int) -> String { "waiting \(seconds) s for the server" }

    private var what: String {
        switch lock {
        case .row(let survey): return "a lock on \(survey ? "a survey" : "a row") this needs"
        case .table(let name): return "a lock on the table \(Self.printable(name)) this needs"
        case .advisory: return "an advisory lock this needs (survey db init takes one while it upgrades the schema)"
        case .other, nil: return "a lock this needs"
        }
    }

    /// Names and program names come from other sessions (a program names itself what it
    /// likes): never a control character on a screen or in a terminal.
    static func printable(_ text: String) -> String {
        String(String.UnicodeScalarView(text.unicodeScalars.prefix(64).map { $0.properties.generalCategory == .control ? "\u{FFFD}" : $0 }))
    }
}

extension ServerWait.Holder {
    /// "bruno's session (psql, pid 4121)", "another session of yours (psql, pid 4121, idle in
    /// a transaction since 10:02)", "a prepared transaction".
    func described(zone: TimeZoneRule) -> String {
        guard pid != 0 else { return "a prepared transaction" }
        var facts: [String] = []
        if let application, !application.isEmpty { facts.append(ServerWait.printable(application)) }
        facts.append("pid \(pid)")
        if let doing = doing(zone: zone) { facts.append(doing) }
        let said = " (" + facts.joined(separator: ", ") + ")"
        if isOwnRole { return "another session of yours" + said }
        guard let role, !role.isEmpty else { return "a server process" + said }
        return "\(ServerWait.printable(role))'s session" + said
    }

    /// What the session does, where its state is visible: "idle in a transaction since 10:02".
    private func doing(zone: TimeZoneRule) -> String? {
        let what: String
        switch state {
        case "idle in transaction": what = "idle in a transaction"
        case "idle in transaction (aborted)": what = "idle in a failed transaction"
        case "active": what = "running a statement"
        default: return nil
        }
        guard let since else { return what }
        let time = CivilTime(since, in: zone)
        return what + " since " + (time.hour < 10 ? "0" : "") + "\(time.hour):" + (time.minute < 10 ? "0" : "") + "\(time.minute)"
    }
}
