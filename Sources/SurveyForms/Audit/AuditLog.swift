import SurveyValues

/// A document's audit log as kept beside it (`.NAME.audit.csv`): one RFC 4180 CSV file for
/// all its surveys, each line an `AuditEvent` with the survey's instanceID first and every
/// optional column present, so a line written under one form version reads under the next.
/// Only added to; `survey export --format odk-xml` splits it into each survey's `audit.csv`
/// in Collect's shape (`collectFile(for:settings:)`).
public struct AuditLog: Equatable, Sendable {
    public static let header = ["instanceID", "event", "node", "start", "end", "old-value", "new-value", "user", "change-reason"]

    public var events: [AuditEvent]

    public init(_ events: [AuditEvent] = []) { self.events = events }

    /// The lines for `events`, without the header (`CSV`'s quoting, CRLF).
    public static func lines(_ events: [AuditEvent]) -> String {
        CSV.text(events.map { e in
            [e.survey, e.kind.rawValue, e.node, String(e.start), e.end.map(String.init) ?? "", e.oldValue, e.newValue,
             e.user ?? "", e.changeReason ?? ""]
        })
    }

    /// The file's text: the header, then the lines.
    public static func text(_ events: [AuditEvent]) -> String {
        CSV.text([header]) + lines(events)
    }

    /// Reads the file. A line this code did not write (an unknown event, a time that is no
    /// number) is skipped; a file whose header is not ours is refused.
    public init(text: String) throws {
        let rows = try CSV.rows(text)
        guard let first = rows.first, first == Self.header else {
            throw DocumentError("its first line is not \(Self.header.joined(separator: ","))")
        }
        events = rows.dropFirst().compactMap { row in
            guard row.count == Self.header.count, let kind = AuditEvent.Kind(rawValue: row[1]), let start = Int64(row[3]) else { return nil }
            return AuditEvent(survey: row[0], kind: kind, node: row[2], start: start, end: Int64(row[4]),
                              oldValue: row[5], newValue: row[6], user: row[7].isEmpty ? nil : row[7],
                              changeReason: row[8].isEmpty ? nil : row[8])
        }
    }

    /// One survey's `audit.csv` as Collect writes it (header, then a line per event, each
    /// ending in a line feed); nil when the log has nothing for it.
    public func collectFile(for survey: String, settings: AuditSettings) -> String? {
        let mine = events.filter { $0.survey == survey }
        guard !mine.isEmpty else { return nil }
        return ([settings.header] + mine.map { $0.collectLine(settings) }).map { $0 + "\n" }.joined()
    }
}
