import FoundationEssentials
import SurveyValues
import SurveyForms
import SurveyStorage
import SurveyDatabase
import SurveyUI

/// `survey review ID VERDICT [--comment TEXT] [--db URL]`: a supervisor's verdict on a
/// survey, as ODK Central's review states, set on the team's PostgreSQL (only the supervisor
/// role may: the server's column privileges say so). VERDICT is `approved`, `has-issues`,
/// `rejected`, or `clear` (no review). The enumerator sees it after their next sync (the
/// sent-back list, `b`, and the comment beside the questions it names), fixes the survey, and
/// the fix comes back marked `edited`.
///
/// `survey review --filter TEXT VERDICT [--reviewed STATE] [--form-id ID]` gives one verdict to
/// every survey on the server whose answers hold every word of TEXT (the app's `/`: any case,
/// any accent; "" for every survey), narrowed to those whose review is STATE now (`none`,
/// `edited`, …) and to one form's surveys: approving every fix at once (`--filter ""
/// --reviewed edited approved`). Read a page at a time; set in one statement, all or none.
struct ReviewCommand: Equatable {
    static let shape = "survey review ID approved|has-issues|rejected|clear [--comment TEXT] [--db URL]"
    static let bulkShape = "survey review --filter TEXT approved|has-issues|rejected|clear [--reviewed STATE] [--form-id ID] [--comment TEXT] [--db URL]"
    static let states: [String: ReviewState?] = ["approved": .approved, "has-issues": .hasIssues, "rejected": .rejected, "clear": nil]
    static let currentStates: [String: ReviewState?] = states.merging(["edited": .edited, "none": nil]) { $1 }.filter { $0.key != "clear" }

    /// One survey, or every survey a filter finds.
    enum Target: Equatable {
        case survey(String)
        case filtered(RecordFilter, reviewed: ReviewState??, dataset: String?)
    }

    var target: Target
    var state: ReviewState?
    var comment: String?
    var db: String?

    init(_ options: CommandLineOptions, _ words: ArraySlice<String>) throws {
        let verdictAt: Int
        if let filter = options.reviewFilter {
            verdictAt = words.startIndex
            var reviewed: ReviewState??
            if let word = options.reviewed {
                guard let state = Self.currentStates[word] else {
                    throw CommandLineOptions.UsageError(description: "unknown review “\(word)”: none, approved, has-issues, rejected or edited")
                }
                reviewed = .some(state)
            }
            target = .filtered(RecordFilter(filter), reviewed: reviewed, dataset: options.formID)
        } else {
            guard let id = words.first else {
                throw CommandLineOptions.UsageError(description: "missing id or verdict: \(Self.shape)")
            }
            if options.reviewed != nil || options.formID != nil {
                throw CommandLineOptions.UsageError(description: "--reviewed and --form-id go with --filter: \(Self.bulkShape)")
            }
            verdictAt = words.startIndex + 1
            target = .survey(id.trimmingWhitespace())
        }
        guard words.indices.contains(verdictAt) else {
            throw CommandLineOptions.UsageError(description: "missing verdict: \(options.reviewFilter == nil ? Self.shape : Self.bulkShape)")
        }
        let word = words[verdictAt]
        guard let state = Self.states[word] else {
            throw CommandLineOptions.UsageError(description: "unknown verdict “\(word)”: approved, has-issues, rejected or clear")
        }
        try ShellCommands.expectNoArguments(words[(verdictAt + 1)...], shape: options.reviewFilter == nil ? Self.shape : Self.bulkShape)
        if state == nil, options.comment != nil {
            throw CommandLineOptions.UsageError(description: "clear takes no --comment: it leaves the survey with no review")
        }
        self.state = state
        comment = options.comment
        db = options.db
    }

    /// "has-issues", as typed.
    var verdict: String { state.map { $0 == .hasIssues ? "has-issues" : $0.rawValue } ?? "clear" }

    func run(environment: [String: String]) -> Int32 {
        switch target {
        case .survey(let id):
            return ServerSession.run(db: db, environment: environment, id: id) { server, target in
                guard try server.setReview(id, state: state, comment: comment) else {
                    ShellOutput.error("\(id): no such survey on \(target.shown)")
                    return 1
                }
                let what = state == nil ? "review cleared" : verdict + (comment.map { " (“\($0)”)" } ?? "")
                ShellOutput.line("\(id): \(what); the enumerator sees it after their next sync")
                return 0
            }
        case .filtered(let filter, let reviewed, let dataset):
            return ServerSession.run(db: db, environment: environment, id: "the surveys found") { server, _ in
                var chosen: [String] = []
                var after = ""
                while true {
                    let page = try server.reviewCandidates(dataset: dataset, after: after)
                    for candidate in page {
                        if let reviewed, candidate.review != reviewed { continue }
                        guard let answers = candidate.answers, filter.matches(Record(answers)) else { continue }
                        chosen.append(candidate.id)
                    }
                    guard page.count == 1_000, let last = page.last?.id else { break }
                    after = last
                }
                let changed = try server.setReviews(chosen, state: state, comment: comment, dataset: dataset, reviewed: reviewed)
                for id in changed.sorted() { ShellOutput.line("\(verdict)  \(id)") }
                ShellOutput.line(counted(changed.count, "survey") + (state == nil ? ": review cleared" : ": \(verdict)")
                    + (changed.isEmpty ? " (none matched)" : "; the enumerators see it after their next sync"))
                return 0
            }
        }
    }
}

extension ReviewCommand: ReadsItsWords {
    static let name = "review"

    static let forms: [CommandSpec] = [
        CommandSpec(words: ["review"], synopsis: "ID approved|has-issues|rejected|clear [--comment TEXT] [--db URL]", arguments: [.none],
                    help: "a supervisor's verdict on a survey on the team's PostgreSQL (ODK Central's review states; clear removes it); the enumerator sees it after a sync"),
        CommandSpec(words: ["review"], synopsis: "--filter TEXT approved|has-issues|rejected|clear [--reviewed STATE] [--form-id ID] [--comment TEXT] [--db URL]",
                    arguments: [.none],
                    help: "the same verdict for every survey whose answers hold every word of TEXT (as /; \"\" for all), whose review is STATE now (none, approved, has-issues, rejected, edited)"),
    ]

    static let options: [OptionSpec] = DatabaseCommand.options + [
        OptionSpec(names: ["--comment"], placeholder: "TEXT", completion: .none, help: "what the enumerator should look at (name the questions: the app shows it beside them)") { $0.comment = $1 },
        OptionSpec(names: ["--filter"], placeholder: "TEXT", completion: .none, help: "review every survey whose answers hold these words") { $0.reviewFilter = $1 },
        OptionSpec(names: ["--reviewed"], placeholder: "STATE", completion: .none, help: "with --filter: only surveys whose review is STATE now (none, approved, has-issues, rejected, edited)") { $0.reviewed = $1 },
        OptionSpec(names: ["--form-id"], placeholder: "ID", completion: .none, help: "with --filter: only this form's surveys") { $0.formID = $1 },
    ]

    func run(in context: CommandContext) -> Int32 { run(environment: ProcessInfo.processInfo.environment) }

    var changesDocuments: Bool { false }
}
