import FoundationEssentials
import SurveyValues
import SurveyForms
import SurveyStorage

/// `survey resolve ID [FIELD] --mine|--theirs|--value TEXT`: settles a conflict `survey
/// conflicts` lists. Without FIELD, every conflict of the survey is settled the same way.
/// Once a survey has none left, what it now holds goes out at the next sync like any edit.
struct ResolveCommand: Equatable {
    static let shape = "survey resolve ID [FIELD] --mine|--theirs|--value TEXT [--doc NAME]"

    var id: String
    var field: String?
    var choice: Choice
    var doc: String?

    enum Choice: Equatable {
        case mine, theirs
        case value(String)
    }

    init(_ options: CommandLineOptions, _ words: ArraySlice<String>) throws {
        guard let id = words.first else {
            throw CommandLineOptions.UsageError(description: "missing id: \(Self.shape) (survey conflicts lists them)")
        }
        try ShellCommands.expectNoArguments(words.dropFirst(2), shape: Self.shape)
        self.id = id.trimmingWhitespace()
        field = words.dropFirst().first
        var choices: [Choice] = []
        if options.keepMine { choices.append(.mine) }
        if options.keepTheirs { choices.append(.theirs) }
        if let value = options.resolvedValue { choices.append(.value(value)) }
        guard choices.count == 1 else {
            throw CommandLineOptions.UsageError(description: (choices.isEmpty ? "say which value to keep" : "give one of")
                + " --mine, --theirs or --value TEXT: \(Self.shape)")
        }
        choice = choices[0]
        if case .value = choice, field == nil {
            throw CommandLineOptions.UsageError(description: "--value needs the FIELD it is for: \(Self.shape)")
        }
        doc = options.doc
    }

    func run(store: DocumentStore, remembered: String?, at date: Date) -> Int32 {
        do {
            let target = try store.commandTarget(requested: doc, remembered: remembered, creating: false)
            var path: SyncFieldPath?
            if let field {
                guard let parsed = SyncFieldPath(text: field) else {
                    throw DocumentError("“\(field)” is not a field as survey conflicts shows one (member[2]/age)")
                }
                path = parsed
            }
            let ledger = try store.syncLedger(for: target.name)
            let count = try store.resolveConflict(id: id, path: path, by: modelChoice(ledger.conflicts[id], path),
                                                  in: target.name, at: date)
            let left = (try? store.syncLedger(for: target.name).conflicts[id]?.fields.count) ?? nil
            ShellOutput.line("Resolved \(count == 1 ? "1 conflict" : "\(count) conflicts") of \(id) in “\(target.name)”"
                + (left.map { ": \($0) left" } ?? ": it goes out at the next sync"))
            return 0
        } catch {
            ShellOutput.failure(error)
            return 1
        }
    }

    /// `--value` text typed as the values it replaces: a whole number where they are
    /// whole numbers, and so on; text otherwise.
    private func modelChoice(_ conflict: SyncLedger.Conflict?, _ path: SyncFieldPath?) -> SyncPlan.Choice {
        switch choice {
        case .mine: return .mine
        case .theirs: return .theirs
        case .value(let text):
            let field = conflict?.fields.first { $0.path == path }
            let sides = [field?.mine, field?.theirs, field?.base].compactMap { $0 }
            for side in sides {
                switch side {
                case .integer: if let number = Int(text) { return .value(.integer(number)) }
                case .real: if let number = Double(text) { return .value(.real(number)) }
                case .bool: if text == "true" || text == "false" { return .value(.bool(text == "true")) }
                default: break
                }
            }
            return .value(.string(text))
        }
    }
}

extension ResolveCommand: ReadsItsWords {
    static let name = "resolve"

    static let forms: [CommandSpec] = [
        CommandSpec(words: ["resolve"], synopsis: "ID [FIELD] --mine|--theirs|--value TEXT [--doc NAME]", arguments: [.none, .none],
                    help: "settle a conflict survey conflicts lists (without FIELD, all of the survey's): keep mine, take theirs, or store TEXT; the result goes out at the next sync like any edit"),
    ]

    static let options: [OptionSpec] = [
        OptionSpec(names: ["--mine"], placeholder: nil, completion: .none,
                   help: "resolve: keep this laptop's value") { options, _ in options.keepMine = true },
        OptionSpec(names: ["--theirs"], placeholder: nil, completion: .none,
                   help: "resolve: take the other laptop's value") { options, _ in options.keepTheirs = true },
        OptionSpec(names: ["--value"], placeholder: "TEXT", completion: .none,
                   help: "resolve: store TEXT instead of either (a number where the values are numbers)") { $0.resolvedValue = $1 },
    ]

    func run(in context: CommandContext) -> Int32 { run(store: context.store, remembered: context.remembered, at: context.clock.now) }

    var changesDocuments: Bool { true }
}
