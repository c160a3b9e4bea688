import FoundationEssentials
import SurveyDatabase

/// `survey db init [--db URL]`: creates or upgrades survey's schema in a team's PostgreSQL
/// (tables, the enumerator and supervisor roles, row-level security). Run once by whoever
/// owns the database; running it again applies only what is new. The connection string comes
/// from --db, else $SURVEY_DB, else libpq's PG* variables and ~/.pgpass, and is never printed
/// with its password.
struct DatabaseCommand: Equatable {
    static let shape = "survey db init [--db URL]"

    var db: String?

    init(_ options: CommandLineOptions, _ words: ArraySlice<String>) throws {
        guard let action = words.first else {
            throw CommandLineOptions.UsageError(description: "missing action: \(Self.shape)")
        }
        guard action == "init" else {
            throw CommandLineOptions.UsageError(description: "unknown action “\(action)”: \(Self.shape)")
        }
        try ShellCommands.expectNoArguments(words.dropFirst(), shape: Self.shape)
        db = options.db
    }

    func run(environment: [String: String]) -> Int32 {
        let target = ConnectionString.resolve(option: db, environment: environment)
        do {
            let done = try SurveyServer.initialize(target)
            if let warning = done.warning { ShellOutput.error("warning: \(warning)") }
            if done.applied.isEmpty {
                ShellOutput.line("\(target.shown): survey's schema is already at version \(done.version); nothing to do")
            } else {
                ShellOutput.line("\(target.shown): survey's schema is at version \(done.version) (applied \(done.applied.map(String.init).joined(separator: ", ")))")
                ShellOutput.line("Roles: survey_enumerator and survey_supervisor; give each team member a login role in one of them (docs/team.md, \"A team on PostgreSQL\")")
            }
            return 0
        } catch {
            ShellOutput.error(target.redact("\(error)"))
            return 1
        }
    }
}

extension DatabaseCommand: ReadsItsWords {
    static let name = "db"

    static let forms: [CommandSpec] = [
        CommandSpec(words: ["db", "init"], synopsis: "[--db URL]", arguments: [],
                    help: "create or upgrade survey's tables and roles in a team's PostgreSQL (run by its owner; running it again changes nothing)"),
    ]

    static let options: [OptionSpec] = [
        OptionSpec(names: ["--db"], placeholder: "URL", completion: .none,
                   help: "the team's PostgreSQL: a libpq connection string or URI (else $SURVEY_DB, else libpq's PG* variables and ~/.pgpass); its password is never printed") { $0.db = $1 },
    ]

    func run(in context: CommandContext) -> Int32 { run(environment: ProcessInfo.processInfo.environment) }

    var changesDocuments: Bool { false }
}
