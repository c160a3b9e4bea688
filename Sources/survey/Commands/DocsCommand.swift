/// `survey docs ...`: managing documents from a shell, with the same rules and messages as
/// the app's document manager (F3), because both call the same model functions.
enum DocsCommand: Equatable {
    case list
    case new(String, form: String?)
    case rename(String, to: String)
    case remove(String)
    case restore(String?)

    /// `words` follow "docs": empty, or a subcommand and its names.
    static func parse(_ options: CommandLineOptions, _ words: ArraySlice<String>) throws -> DocsCommand {
        var rest = words
        if options.form != nil, rest.first != "new" {
            throw CommandLineOptions.UsageError(description: "--form only works with survey docs new")
        }
        guard let sub = rest.popFirst() else { return .list }
        let names = Array(rest)
        func expect(_ count: ClosedRange<Int>, _ shape: String) throws {
            if names.count < count.lowerBound {
                throw CommandLineOptions.UsageError(description: "missing name: survey docs \(sub) \(shape)")
            }
            if names.count > count.upperBound {
                throw CommandLineOptions.UsageError(
                    description: "unexpected argument “\(names[count.upperBound])”: survey docs \(sub) \(shape)")
            }
        }
        switch sub {
        case "new":
            try expect(1...1, "NAME [--form FILE]")
            return .new(names[0], form: options.form)
        case "rename":
            try expect(2...2, "OLD NEW")
            return .rename(names[0], to: names[1])
        case "rm":
            try expect(1...1, "NAME")
            return .remove(names[0])
        case "restore":
            try expect(0...1, "[NAME]")
            return .restore(names.first)
        default:
            throw CommandLineOptions.UsageError(
                description: "unknown docs command “\(sub)” (use new, rename, rm or restore)")
        }
    }
}

extension DocsCommand: ShellCommand {
    static let name = "docs"

    static let forms: [CommandSpec] = [
        CommandSpec(words: ["docs"], synopsis: "[--dir DIR]", arguments: [],
                    help: "list the documents: name, records (\"?\" when the file cannot be read) and when it was last modified"),
        CommandSpec(words: ["docs", "new"], synopsis: "NAME [--form FILE]", arguments: [.none],
                    help: "create an empty document, with FILE (an XLSForm, checked first) as its questionnaire"),
        CommandSpec(words: ["docs", "rename"], synopsis: "OLD NEW", arguments: [.document, .none],
                    help: "rename a document; its unsent New form follows it"),
        CommandSpec(words: ["docs", "rm"], synopsis: "NAME", arguments: [.document],
                    help: "move a document to the trash (.trash/ in the document folder)"),
        CommandSpec(words: ["docs", "restore"], synopsis: "[NAME]", arguments: [.document],
                    help: "bring back the most recent deletion (of NAME) under its old name, or \"NAME 2\" when that name is taken again"),
    ]

    static let options: [OptionSpec] = [
        OptionSpec(names: ["--form"], placeholder: "FILE", completion: .file,
                   help: "with docs new: the new document's questionnaire (an XLSForm, checked first)") { $0.form = $1 },
    ]

    func run(in context: CommandContext) -> Int32 { run(store: context.store, stateURL: context.stateURL, at: context.clock.now) }

    var changesDocuments: Bool { if case .list = self { false } else { true } }
}
