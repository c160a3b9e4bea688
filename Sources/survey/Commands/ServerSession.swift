import FoundationEssentials
import SurveyDatabase

/// A shell command's one session with the team's PostgreSQL (`review`, `history`): the
/// connection made from `--db` or the environment, a warning when it is not encrypted to
/// another host, closed at the end; a privilege refused said in words for the survey `id`
/// (`DatabaseError.refusal`), any other failure as a sync says it, each status 1. Written once
/// so that every command that talks to the server says the same things the same way.
enum ServerSession {
    static func run(db: String?, environment: [String: String], id: String,
                    _ body: (SurveyServer, ConnectionString) throws -> Int32) -> Int32 {
        let target = ConnectionString.resolve(option: db, environment: environment)
        do {
            let server = try SurveyServer(target)
            defer { server.connection.close() }
            if let warning = server.warning { ShellOutput.error("warning: \(warning)") }
            return try body(server, target)
        } catch let error as DatabaseError where error.isPermissionDenied {
            ShellOutput.error("\(id): \(target.redact(error.message))")
            return 1
        } catch {
            ShellOutput.error(DocumentSync.describe(error, target: target))
            return 1
        }
    }
}
