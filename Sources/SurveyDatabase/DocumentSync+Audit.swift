import FoundationEssentials
import SurveyValues
import SurveyForms
import SurveyStorage

/// The audit log travels with the surveys (issue 31): after the surveys, every sync sends the
/// events its log gained, and the whole log of each survey this sync stored on the server for
/// the first time (its lines may have gone before it, when the server could not yet take
/// them), and takes the team's lines of the dataset it has not got into its own log, so an
/// export on any laptop writes each survey's whole `audit.csv`. The server keeps a line only
/// for the survey's owner, once. A document whose form keeps no log, and that never had one,
/// asks nothing. Its trouble is said, never a failed sync: the surveys are what a sync is for.
extension DocumentSync {
    /// The most lines one question to the server brings.
    static let auditBatch = 5_000

    /// Returns why the audit log could not be synced, or nil. `formKeepsLog`: whether the form
    /// has an `audit` row, nil when the form was not read (a sync with nothing to do): then
    /// only a log whose sync a full sync began (the state file is there) goes on.
    /// `newlyStored`: the surveys this sync's push stored for the first time.
    static func syncAudit(_ server: SurveyServer, _ store: DocumentStore, _ name: String, dataset: String, device: String,
                          formKeepsLog: Bool?, newlyStored surveysStored: () -> Set<String> = { [] },
                          target: ConnectionString) -> String? {
        let size = store.auditLogSize(for: name)
        var state = store.auditSyncState(for: name)
        guard state != nil || formKeepsLog == true || (formKeepsLog != nil && size != nil) else { return nil }
        if state?.dataset != dataset { state = AuditSyncState(dataset: dataset) }
        var now = state!
        do {
            var log: AuditLog?
            // Out: what the log gained since it was last read whole, and the surveys stored now.
            let newlyStored = size == nil ? [] : surveysStored()
            if let size, size != now.size || !newlyStored.isEmpty {
                let read = try store.auditLog(for: name)
                log = read
                // A shorter file put in its place: all again (the server keeps each line once).
                if now.sent > read.events.count || size < now.size { now.sent = 0 }
                var waiting = Array(read.events[now.sent...])
                if !newlyStored.isEmpty { waiting = read.events[..<now.sent].filter { newlyStored.contains($0.survey) } + waiting }
                if !waiting.isEmpty {
                    let lines = waiting.map { SurveyServer.AuditLine(instanceID: $0.survey, line: auditLine($0)) }
                    do {
                        _ = try server.sendAudit(lines, dataset: dataset, device: device)
                    } catch let error as DatabaseError where error.isPermissionDenied {
                        // A supervisor's login adds no lines (it keys no survey of its own here):
                        // what its log holds is the team's, taken below.
                    }
                }
                now.sent = read.events.count
                now.size = size
            }
            // In: the team's lines, each kept once.
            var known: Set<String>?
            var taken: [AuditEvent] = []
            while true {
                let (lines, next) = try server.auditLines(dataset: dataset, since: now.cursor, limit: auditBatch)
                now.cursor = next
                for line in lines {
                    guard let event = auditEvent(line) else { continue }
                    if known == nil { known = Set((try log ?? store.auditLog(for: name)).events.map(auditLine)) }
                    if known!.insert(auditLine(event)).inserted { taken.append(event) }
                }
                if lines.count < auditBatch { break }
            }
            if !taken.isEmpty {
                let before = try store.appendAudit(taken, for: name)
                // The lines taken are on the server already: nothing of them to send, when they
                // follow the lines sent. Lines this laptop added meanwhile (the app, while F9
                // ran) lie between: the log is read again next time, and they go then.
                if before == now.sent, let grown = store.auditLogSize(for: name) {
                    now.sent += taken.count
                    now.size = grown
                } else {
                    now.size = -1
                }
            }
            if now != state { try store.writeAuditSyncState(now, for: name) }
            return nil
        } catch {
            return describe(error, target: target)
        }
    }

    /// An event's line as the log keeps it, without its line end.
    static func auditLine(_ event: AuditEvent) -> String {
        var text = AuditLog.lines([event])
        while text.hasSuffix("\r\n") || text.hasSuffix("\n") { text.removeLast() }
        return text
    }

    /// A line from the server read as the log's reader reads a file's: one event, of the
    /// survey the row names, at most 64 KB; nil otherwise (passed over: a line no laptop
    /// wrote, put in by hand).
    static func auditEvent(_ line: SurveyServer.AuditLine) -> AuditEvent? {
        guard line.line.utf8.count <= 65_536, !line.line.isEmpty,
              let log = try? AuditLog(text: CSV.text([AuditLog.header]) + line.line + "\r\n"),
              log.events.count == 1, log.events[0].survey == line.instanceID else { return nil }
        return log.events[0]
    }
}
