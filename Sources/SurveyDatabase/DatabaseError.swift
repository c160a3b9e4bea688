/// Why a database call failed, in words a user can act on. Every message that could hold
/// the connection string or its password is passed through `ConnectionString.redact` before
/// it is stored here, so printing one never shows a credential.
public struct DatabaseError: Error, Equatable, Sendable, CustomStringConvertible {
    public enum Kind: Equatable, Sendable {
        /// libpq5 is not installed (or not loadable): nothing was sent.
        case libraryMissing
        /// The server could not be reached, or refused the login.
        case connection
        /// The connection broke during a call: the server stopped, the network was cut.
        case connectionLost
        /// The server refused a statement (the SQLSTATE, e.g. "42501" for a missing privilege).
        case statement(sqlState: String)
        /// The database has no survey schema yet, or an older one: run `survey db init`.
        case schema
        /// The server answered something survey cannot read.
        case protocolError
    }

    public let kind: Kind
    public let message: String

    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    public var description: String { message }

    /// A privilege or row-level-security refusal (SQLSTATE 42501).
    public var isPermissionDenied: Bool { kind == .statement(sqlState: "42501") }
}

/// Who a login role is on the team: its name and the group roles whose rights it has
/// (`pg_has_role(…, 'USAGE')`; a superuser has both). `SurveyServer` learns it when it
/// connects, so a refusal can say who may do what.
public struct TeamMember: Equatable, Sendable {
    public var role: String
    public var isEnumerator: Bool
    public var isSupervisor: Bool

    public init(role: String, isEnumerator: Bool, isSupervisor: Bool) {
        self.role = role
        self.isEnumerator = isEnumerator
        self.isSupervisor = isSupervisor
    }

    /// The columns that read it, in one statement with the session's settings; roles
    /// `db init` has not made yet count as not held (no error).
    static let columns = ["current_user"] + [Schema.enumeratorRole, Schema.supervisorRole].map {
        "EXISTS (SELECT FROM pg_roles WHERE rolname = '\($0)' AND pg_has_role(oid, 'USAGE'))"
    }

    init?(_ values: some Collection<String?>) {
        let values = Array(values)
        guard values.count == 3, let role = values[0] else { return nil }
        self.init(role: role, isEnumerator: values[1] == "t", isSupervisor: values[2] == "t")
    }
}

extension DatabaseError {
    /// What survey was doing when the server refused a privilege, told by the statement survey
    /// sent (its own SQL), never by the server's words, which each server may translate.
    enum Attempt: Equatable, Sendable {
        case push, review, publish, delete, editEntity, other

        init(statement sql: String) {
            let words = sql.lowercased().split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\t" }).joined(separator: " ")
            if words.contains("delete from survey.surveys") {
                self = .delete
            } else if words.contains("insert into survey.entity_edits") {
                self = .editEntity
            } else if words.contains("insert into survey.forms") || words.contains("insert into survey.form_media") {
                self = .publish
            } else if words.contains("update survey.surveys") && (words.contains("review_state =") || words.contains("review_comment =")) {
                self = .review
            } else if words.contains("insert into survey.surveys") || words.contains("update survey.surveys") || words.contains("copy survey.surveys") {
                self = .push
            } else {
                self = .other
            }
        }
    }

    /// A refused privilege (SQLSTATE 42501: a missing grant, or row-level security) in words
    /// that say who may do what, never the server's `permission denied for table surveys`
    /// or `new row violates row-level security policy` (issue 28). `member` is nil when the
    /// connection never learned its role (then "this role").
    static func refusal(of sql: String, by member: TeamMember?) -> String {
        let role = member?.role ?? "this role"
        let groups = "enumerators (survey_enumerator) add and change their own surveys; supervisors (survey_supervisor) review them and publish forms"
        if let member, !member.isEnumerator, !member.isSupervisor {
            return "\(role) is in neither survey_enumerator nor survey_supervisor, so the team's database lets it do nothing:"
                + " the database's owner adds it to one (GRANT survey_enumerator TO \(role), or survey_supervisor)"
        }
        let enumeratorOnly = member.map { $0.isEnumerator && !$0.isSupervisor } ?? false
        let supervisorOnly = member.map { $0.isSupervisor && !$0.isEnumerator } ?? false
        switch Attempt(statement: sql) {
        case .delete:
            return "nobody deletes a survey on the team's database: a deleted survey is a tombstone (survey delete, then sync), its answers kept"
        case .push where supervisorOnly:
            return "\(role) is a supervisor: surveys are pushed by enumerators (survey_enumerator); a supervisor reviews them and publishes forms"
        case .push where enumeratorOnly:
            return "\(role) may change only its own surveys: this one is another enumerator's"
        case .review where enumeratorOnly:
            return "\(role) is an enumerator: a supervisor (survey_supervisor) reviews; surveys are added and fixed by enumerators"
        case .publish where enumeratorOnly:
            return "\(role) is an enumerator: forms are published by a supervisor (survey_supervisor)"
        case .editEntity where enumeratorOnly:
            return "\(role) is an enumerator: a supervisor (survey_supervisor) edits and retires entities; an enumerator changes them by the surveys that visit them"
        default:
            return "\(role) may not do that on the team's database: \(groups)"
        }
    }
}
