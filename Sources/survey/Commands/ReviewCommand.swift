import FoundationEssentials
import SurveyValues
import SurveyForms
import SurveyStorage
import SurveyDatabase

/// `survey review ID approved|has-issues|rejected [--comment TEXT] [--db URL]`: a
/// supervisor's verdict on a survey, as ODK Central's review states, set on the team's
/// PostgreSQL (only the supervisor role may: the server's column privileges say so). The
/// enumerator sees it after their next sync (F4, and a mark in the list), fixes the survey,
/// and the fix comes back marked `edited`.
struct ReviewCommand: Equatable {
    static let shape = "survey review ID approved|has-issues|rejected [--comment TEXT] [--db URL]"
    static let states: [String: ReviewState] = ["approved": .approved, "has-issues": .hasIssues, "rejected": .rejected]

    var id: String
    var state: ReviewState
    var comment: String?
    var db: String?

    init(_ options: CommandLineOptions, _ words: ArraySlice<String>) throws {
        guard let id = words.first, let word = words.dropFirst().first else {
            throw CommandLineOptions.UsageError(description: "missing id or verdict: \(Self.shape)")
        }
        guard let state = Self.states[word] else {
            throw CommandLineOptions.UsageError(description: "unknown verdict “\(word)”: approved, has-issues or rejected")
        }
        try ShellCommands.expectNoArguments(words.dropFirst(2), shape: Self.shape)
        self.id = id.trimmingWhitespace()
        self.state = state
        comment = options.comment
        db = options.db
    }

    func run(environment: [String: String]) -> Int32 {
        ServerSession.run(db: db, environment: environment, id: id) { server, target in
            guard try server.setReview(id, state: state, comment: comment) else {
                ShellOutput.error("\(id): no such survey on \(target.shown)")
                return 1
            }
            ShellOutput.line("\(id): \(state.rawValue)" + (comment.map { " (“\($0)”)" } ?? "") + "; the enumerator sees it after their next sync")
            return 0
        }
    }
}

extension ReviewCommand: ReadsItsWords {
    static let name = "review"

    static let forms: [CommandSpec] = [
        CommandSpec(words: ["review"], synopsis: "ID approved|has-issues|rejected [--comment TEXT] [--db URL]", arguments: [.none],
                    help: "a supervisor's verdict on a survey on the team's PostgreSQL (ODK Central's review states); the enumerator sees it after a sync"),
    ]

    static let options: [OptionSpec] = DatabaseCommand.options + [
        OptionSpec(names: ["--comment"], placeholder: "TEXT", completion: .none, help: "what the enumerator should look at") { $0.comment = $1 },
    ]

    func run(in context: CommandContext) -> Int32 { run(environment: ProcessInfo.processInfo.environment) }

    var changesDocuments: Bool { false }
}
