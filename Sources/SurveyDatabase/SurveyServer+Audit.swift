import FoundationEssentials
import SurveyValues
import SurveyForms
import SurveyStorage

extension SurveyServer {
    /// A line of a laptop's audit log on its way to the team's store.
    public struct AuditLine: Equatable, Sendable {
        public var instanceID: String
        /// One `AuditLog` line: the CSV row of the event, without its line end.
        public var line: String

        public init(instanceID: String, line: String) {
            self.instanceID = instanceID
            self.line = line
        }
    }

    /// Sends `lines` of `dataset`, in batches, each one statement: a line of a survey this role
    /// does not own on the server (not yet pushed, or a teammate's) is left out rather than
    /// refused, and a line the server has already is kept once. Returns how many were new.
    @discardableResult
    public func sendAudit(_ lines: [AuditLine], dataset: String, device: String, batch: Int = 5_000) throws -> Int {
        var added = 0
        var start = 0
        while start < lines.count {
            let part = lines[start..<min(start + batch, lines.count)]
            let result = try connection.execute("""
                INSERT INTO survey.audit_events (instance_id, dataset, line, device)
                SELECT u.id, $2, u.line, $3 FROM unnest($1::text[], $4::text[]) AS u(id, line)
                WHERE EXISTS (SELECT FROM survey.surveys s WHERE s.instance_id = u.id AND s.owner = current_user AND s.dataset = $2)
                ON CONFLICT DO NOTHING
                RETURNING 1
                """, [SQLArray.literal(part.map { Optional($0.instanceID) }), dataset, device,
                      SQLArray.literal(part.map { Optional($0.line) })])
            added += result.rows.count
            start += part.count
        }
        return added
    }

    /// The audit lines of `dataset` after `cursor`, in the order the server numbered them,
    /// below the change horizon (a line being committed meanwhile comes next time), at most
    /// `limit`; and the cursor after them.
    public func auditLines(dataset: String, since cursor: Int64, limit: Int = 5_000) throws -> (lines: [AuditLine], next: Int64) {
        let result = try connection.execute("""
            SELECT change_seq, instance_id, line FROM survey.audit_events
            WHERE dataset = $1 AND change_seq > $2 AND change_seq < survey.change_horizon()
            ORDER BY change_seq LIMIT $3
            """, [dataset, String(cursor), String(max(limit, 1))])
        var next = cursor
        var lines: [AuditLine] = []
        for row in result.rows {
            guard let number = row[0].flatMap({ Int64($0) }), let id = row[1], let line = row[2] else { continue }
            next = max(next, number)
            lines.append(AuditLine(instanceID: id, line: line))
        }
        return (lines, next)
    }
}
