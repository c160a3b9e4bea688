/// One option of the command line, declared once. The parser, `--help`, the man page and
/// the shell completions all read `OptionSpec.all`, so they cannot disagree
/// (swift-argument-parser's shape, without the package).
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
    /// The commands it works with ("" is the app); nil when it is accepted everywhere.
    let commands: [String]?
    /// May be given more than once, each time adding a value (`--set a=1 --set b=2`); every
    /// other option that takes a value is refused when given twice.
    var repeatable = false
    /// Stores the option; a flag gets "".
    let apply: @Sendable (inout CommandLineOptions, String) throws -> Void

    var takesValue: Bool { placeholder != nil }
    /// `--dir DIR`, `-h, --help`.
    var label: String { names.joined(separator: ", ") + (placeholder.map { " " + $0 } ?? "") }

    static let formats = DataFormat.allCases.map(\.rawValue)

    static let all: [OptionSpec] = [
        OptionSpec(names: ["--dir"], placeholder: "DIR", completion: .directory,
                   help: "document folder (created when missing); works with every command",
                   commands: nil) { $0.dir = $1 },
        OptionSpec(names: ["--doc"], placeholder: "NAME", completion: .document,
                   help: "open (or create) the document NAME; the document of list, add, export, import, deleted, undelete and form attach",
                   commands: nil) { $0.doc = $1 },
        OptionSpec(names: ["--format"], placeholder: "FORMAT", completion: .words(formats),
                   help: "table, csv, json or plist (list, export, import, deleted)",
                   commands: ["list", "export", "import", "deleted"]) { $0.format = $1 },
        OptionSpec(names: ["--output"], placeholder: "FILE", completion: .file,
                   help: "where export writes (default stdout)", commands: ["export"]) { $0.output = $1 },
        OptionSpec(names: ["--form"], placeholder: "FILE", completion: .file,
                   help: "with docs new: the new document's questionnaire (an XLSForm, checked first)",
                   commands: ["docs"]) { $0.form = $1 },
        OptionSpec(names: ["--force"], placeholder: nil, completion: .none,
                   help: "let export replace an existing --output FILE", commands: ["export"]) { options, _ in
            options.force = true
        },
        OptionSpec(names: ["--set"], placeholder: "NAME=VALUE", completion: .none,
                   help: "with add: the answer VALUE to the question NAME of the document's questionnaire (survey form show lists them; firstName, lastName, address, phone and age without a form); repeat it for each answer",
                   commands: ["add"], repeatable: true) { $0.sets.append($1) },
        answer("--first", "X", "the first name"),
        answer("--last", "Y", "the last name"),
        answer("--address", "A", "the address"),
        answer("--phone", "P", "the phone number"),
        answer("--age", "N", "the age: a whole number from 0 to 150"),
        OptionSpec(names: ["--split-width"], placeholder: "N", completion: .none,
                   help: "columns at which the list and form sit side by side (default 80)",
                   commands: nil) { options, text in
            guard let n = Int(text), n >= 1 else {
                throw CommandLineOptions.UsageError(description: "--split-width needs a whole number of columns, got “\(text)”")
            }
            options.splitWidth = n
        },
        OptionSpec(names: ["-h", "--help"], placeholder: nil, completion: .none,
                   help: "show this help", commands: nil) { options, _ in options.showHelp = true },
        OptionSpec(names: ["--version"], placeholder: nil, completion: .none,
                   help: "show the version and the commit it was built from", commands: nil) { options, _ in
            options.showVersion = true
        },
        OptionSpec(names: ["--man"], placeholder: nil, completion: .none,
                   help: "print the manual page survey(1), as roff", commands: nil) { options, _ in
            options.printManual = true
        },
        OptionSpec(names: ["--completion"], placeholder: "SHELL", completion: .words(CompletionScript.shells),
                   help: "print the completion script for SHELL (bash or zsh)", commands: nil) { options, shell in
            guard CompletionScript.shells.contains(shell) else {
                throw CommandLineOptions.UsageError(description: "--completion takes bash or zsh, got “\(shell)”")
            }
            options.completionShell = shell
        },
        OptionSpec(names: ["--"], placeholder: nil, completion: .none,
                   help: "end of options: every later argument is a word", commands: nil) { _, _ in },
    ]

    /// A `survey add` answer: stored by flag, mapped to its field by `AddCommand.fieldFlags`.
    private static func answer(_ flag: String, _ placeholder: String, _ help: String) -> OptionSpec {
        OptionSpec(names: [flag], placeholder: placeholder, completion: .none, help: help + " (add)",
                   commands: ["add"]) { $0.answers[flag] = $1 }
    }

    static func named(_ name: String) -> OptionSpec? {
        all.first { $0.names.contains(name) && $0.names != ["--"] }
    }

    /// Options offered after `command` ("" for the app), in declaration order.
    static func offered(for command: String) -> [OptionSpec] {
        all.filter { $0.names != ["--"] && ($0.commands?.contains(command) ?? true) }
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
    /// The command name options are checked against ("docs" for every docs subcommand).
    var optionScope: String { words.first ?? "" }

    static let all: [CommandSpec] = [
        CommandSpec(words: [], synopsis: "[--dir DIR] [--doc NAME] [--split-width N]", arguments: [],
                    help: "start the full-screen app on the document last used in the folder (or --doc NAME)"),
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
        CommandSpec(words: ["list"], synopsis: "[--doc NAME] [--format table|csv|json]", arguments: [],
                    help: "the records: an aligned table (#, name, phone, age; the name is the questionnaire's instance_name when it has one), or the CSV or JSON that export writes (with each survey's instanceID)"),
        CommandSpec(words: ["add"], synopsis: AddCommand.synopsis, arguments: [],
                    help: "append one survey: --set NAME=VALUE for each answer (NAME a question of the document's questionnaire: survey form show lists them; firstName, lastName, address, phone and age without one), or --first and --last with the other answer options. Every answer is checked as the form checks it (its type; a questionnaire's required, constraint, relevant and choice_filter, in the designer's words; without one, age a whole number from 0 to 150 or empty, text within its length, no control characters but tab and line breaks, which the form cannot type but XML keeps; blanks around text are dropped, and a survey with no answer is refused); all refusals are printed and nothing is saved. A NAME the questionnaire does not ask is a usage error. Each option but --set may be given once"),
        CommandSpec(words: ["export"], synopsis: "[--doc NAME] [--format csv|json|plist] [--output FILE [--force]]", arguments: [],
                    help: "the records to stdout, or atomically to --output FILE (an existing FILE is replaced only with --force). The format is --format, else the extension of FILE, else csv"),
        CommandSpec(words: ["import"], synopsis: "FILE [--doc NAME] [--format csv|json|plist]", arguments: [.file],
                    help: "append the records of FILE (\"-\" for stdin; format from --format or the extension .csv, .json, .plist or .xml). Every record is checked first, as the form checks it (with a questionnaire: types, required, constraint, relevant and choice_filter; an answer to a question the form skips is refused): one bad record and nothing is imported (row 3: age \"abc\": reason). Records without formID and formVersion get the questionnaire's. CSV rows are numbered as a spreadsheet shows them (the header is row 1); JSON and plist records count from 1 (record 2). A survey whose instanceID the document already has is refused"),
        CommandSpec(words: ["deleted"], synopsis: "[--doc NAME] [--format table|csv|json]", arguments: [],
                    help: "the surveys deleted from the document, kept in .NAME.deleted.plist beside it: when (local time), id and name; or CSV or JSON with the date (UTC) and the whole survey"),
        CommandSpec(words: ["undelete"], synopsis: "ID [--doc NAME]", arguments: [.none],
                    help: "put the deleted survey with that id back at the end of the document (refused when the document already has a survey with it)"),
        CommandSpec(words: ["form", "check"], synopsis: "FILE", arguments: [.file],
                    help: "check an XLSForm (pyxform's CSV or Markdown layout): exit 0 when it can be used (warnings on stderr), 1 with every error listed as \"survey row 12, constraint: unknown field ${agee}\""),
        CommandSpec(words: ["form", "show"], synopsis: "FILE", arguments: [.file],
                    help: "the questions of an XLSForm as survey understands them: row, type, name, label and rules"),
        CommandSpec(words: ["form", "attach"], synopsis: "FILE [--doc NAME]", arguments: [.file],
                    help: "copy an XLSForm (.xlsx, .csv or .md) beside the document as NAME.form.xlsx (or .csv, .md) after checking it; a questionnaire already there goes to the trash"),
        CommandSpec(words: ["form", "default"], synopsis: "", arguments: [],
                    help: "print the five original questions as an XLSForm in pyxform's CSV layout: a starting point for designers"),
    ]

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
