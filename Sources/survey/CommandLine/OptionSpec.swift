/// One option of the command line, declared once. The parser, `--help`, the man page and
/// the shell completions all read them, so they cannot disagree (swift-argument-parser's
/// shape, without the package). The options every command takes are `everywhere`; each
/// command declares its own (`ShellCommand.options`), naming the shared ones here.
struct OptionSpec {
    /// What the shell may offer for an option's value or a command's argument.
    enum Completion: Equatable {
        case none, directory, file, document
        case words([String])
    }

    /// Every spelling, e.g. `["-h", "--help"]`; the last is the one shown first in help.
    let names: [String]
    /// The value's placeholder (`DIR`); nil for a flag.
    let placeholder: String?
    let completion: Completion
    let help: String
    /// May be given more than once, each time adding a value (`--set a=1 --set b=2`); every
    /// other option that takes a value is refused when given twice.
    var repeatable = false
    /// Stores the option; a flag gets "".
    let apply: @Sendable (inout CommandLineOptions, String) throws -> Void

    init(names: [String], placeholder: String?, completion: Completion, help: String, repeatable: Bool = false,
         apply: @escaping @Sendable (inout CommandLineOptions, String) throws -> Void) {
        self.names = names
        self.placeholder = placeholder
        self.completion = completion
        self.help = help
        self.repeatable = repeatable
        self.apply = apply
    }

    var takesValue: Bool { placeholder != nil }
    /// `--dir DIR`, `-h, --help`.
    var label: String { names.joined(separator: ", ") + (placeholder.map { " " + $0 } ?? "") }

    static let formats = DataFormat.allCases.map(\.rawValue)

    /// Taken by the app and by every command.
    static let everywhere: [OptionSpec] = [
        OptionSpec(names: ["--dir"], placeholder: "DIR", completion: .directory,
                   help: "document folder (created when missing); works with every command") { $0.dir = $1 },
        OptionSpec(names: ["--doc"], placeholder: "NAME", completion: .document,
                   help: "open (or create) the document NAME; the document of list, add, export, import, deleted, undelete, delete, merge, conflicts, resolve and form attach") { $0.doc = $1 },
        OptionSpec(names: ["--split-width"], placeholder: "N", completion: .none,
                   help: "columns at which the list and form sit side by side (default 80)") { options, text in
            guard let n = Int(text), n >= 1 else {
                throw CommandLineOptions.UsageError(description: "--split-width needs a whole number of columns, got “\(text)”")
            }
            options.splitWidth = n
        },
        OptionSpec(names: ["-h", "--help"], placeholder: nil, completion: .none,
                   help: "show this help") { options, _ in options.showHelp = true },
        OptionSpec(names: ["--version"], placeholder: nil, completion: .none,
                   help: "show the version and the commit it was built from") { options, _ in options.showVersion = true },
        OptionSpec(names: ["--man"], placeholder: nil, completion: .none,
                   help: "print the manual page survey(1), as roff") { options, _ in options.printManual = true },
        OptionSpec(names: ["--completion"], placeholder: "SHELL", completion: .words(CompletionScript.shells),
                   help: "print the completion script for SHELL (bash or zsh)") { options, shell in
            guard CompletionScript.shells.contains(shell) else {
                throw CommandLineOptions.UsageError(description: "--completion takes bash or zsh, got “\(shell)”")
            }
            options.completionShell = shell
        },
        endOfOptions,
    ]

    /// `--`: every later argument is a word.
    static let endOfOptions = OptionSpec(names: ["--"], placeholder: nil, completion: .none,
                                         help: "end of options: every later argument is a word") { _, _ in }

    /// Shared by the commands that read or write records in a format.
    static let format = OptionSpec(names: ["--format"], placeholder: "FORMAT", completion: .words(formats),
                                   help: "table, csv, json or plist (list, export, import, deleted, conflicts, diff, stats, entities, history)") { $0.format = $1 }

    /// Every option, each once, in the order help lists them: those taken everywhere, then
    /// each command's own as it declares them.
    static var all: [OptionSpec] {
        var seen: Set<String> = []
        var result: [OptionSpec] = []
        let (folder, rest) = (everywhere.prefix(2), everywhere.dropFirst(2))   // --dir and --doc first
        let declared = folder + ShellCommands.declaredOptions + rest
        for option in declared {
            // Names joined by hand: `joined(separator:)` here ran unspecialized at every start.
            var key = ""
            for name in option.names { key += name; key += " " }
            if seen.insert(key).inserted { result.append(option) }
        }
        return result
    }

    static func named(_ name: String) -> OptionSpec? {
        all.first { $0.names.contains(name) && $0.names != ["--"] }
    }

    /// Options offered after the command named `command` ("" for the app), in declaration order.
    static func offered(for command: String) -> [OptionSpec] {
        ShellCommands.offered(for: ShellCommands.named(command)).filter { $0.names != ["--"] }
    }
}

/// One command (or the app, with no words), declared once for usage, man page and completion.
struct CommandSpec {
    /// `["docs", "rename"]`; empty for the app itself.
    let words: [String]
    /// Everything after the words in the synopsis: `OLD NEW`, `[--doc NAME] [--format …]`.
    let synopsis: String
    /// What each positional argument completes to.
    let arguments: [OptionSpec.Completion]
    let help: String

    var name: String { words.joined(separator: " ") }
    /// The app itself (no words), then every form of every command.
    static var all: [CommandSpec] {
        [CommandSpec(words: [], synopsis: "[--dir DIR] [--doc NAME] [--split-width N]", arguments: [],
                     help: "start the full-screen app on the document last used in the folder (or --doc NAME)")]
            + ShellCommands.forms
    }

    /// The top-level command names, in order: docs, list, add, …
    static var topLevel: [String] {
        var names: [String] = []
        for spec in all { if let first = spec.words.first, !names.contains(first) { names.append(first) } }
        return names
    }

    /// The words that may follow `command` (the docs subcommands).
    static func subcommands(of command: String) -> [String] {
        all.filter { $0.words.count == 2 && $0.words[0] == command }.map { $0.words[1] }
    }
}
