import Foundation
import SurveyModel

/// Every shell command `survey` knows, parsed from the words and options of the command line,
/// so `main` only dispatches. Options that belong to one command are refused elsewhere
/// rather than ignored, so a misplaced `--output` cannot silently send data to stdout.
enum Command: Equatable {
    case docs(DocsCommand)
    case list(ListCommand)
    case add(AddCommand)
    case export(ExportCommand)
    case `import`(ImportCommand)
    case deleted(DeletedCommand)
    case undelete(UndeleteCommand)
    case form(FormCommand)

    /// nil when there are no words: the app starts.
    static func parse(_ options: CommandLineOptions) throws -> Command? {
        let name = options.words.first
        try checkOptions(options, for: name)
        guard let name else { return nil }
        let rest = options.words.dropFirst()
        switch name {
        case "docs":
            let docs = try DocsCommand.parse(options, rest)
            if options.form != nil, case .new = docs {} else if options.form != nil {
                throw CommandLineOptions.UsageError(description: "--form only works with survey docs new")
            }
            return .docs(docs)
        case "list": return .list(try ListCommand(options, rest))
        case "add": return .add(try AddCommand(options, rest))
        case "export": return .export(try ExportCommand(options, rest))
        case "import": return .import(try ImportCommand(options, rest))
        case "deleted": return .deleted(try DeletedCommand(options, rest))
        case "undelete": return .undelete(try UndeleteCommand(options, rest))
        case "form": return .form(try FormCommand.parse(options, rest))
        default:
            throw CommandLineOptions.UsageError(
                description: "unknown command “\(name)” (use docs, list, add, export, import, deleted, undelete or form)")
        }
    }

    /// 0 done, 1 refused (the reason on stderr).
    func run(store: DocumentStore, stateURL: URL) -> Int32 {
        // The document the app would open next; reading commands never change it.
        let remembered = SessionMemory(url: stateURL).lastDocument(in: store.folder)
        switch self {
        case .docs(let command): return command.run(store: store, stateURL: stateURL)
        case .list(let command): return command.run(store: store, remembered: remembered)
        case .add(let command): return command.run(store: store, remembered: remembered)
        case .export(let command): return command.run(store: store, remembered: remembered)
        case .import(let command): return command.run(store: store, remembered: remembered)
        case .deleted(let command): return command.run(store: store, remembered: remembered)
        case .undelete(let command): return command.run(store: store, remembered: remembered)
        case .form(let command): return command.run(store: store, remembered: remembered)
        }
    }

    /// Whether the command changes documents: when its stdout then fails, the change is
    /// still made, and the error says so, so a script does not run it again.
    var changesDocuments: Bool {
        switch self {
        case .list, .export, .deleted, .docs(.list), .form(.check), .form(.show), .form(.printDefault): return false
        case .add, .import, .undelete, .docs, .form(.attach): return true
        }
    }

    /// Which commands each command-specific option belongs to: `OptionSpec.commands`.
    private static func checkOptions(_ options: CommandLineOptions, for command: String?) throws {
        for spec in OptionSpec.all {
            guard let flag = spec.names.last, options.given.contains(flag), let commands = spec.commands,
                  !commands.contains(command ?? "") else { continue }
            let names = commands.count == 1 ? commands[0]
                : commands.dropLast().joined(separator: ", ") + " and " + (commands.last ?? "")
            throw CommandLineOptions.UsageError(description: "\(flag) only works with survey \(names)")
        }
    }

    /// Words after the command name that a command without arguments does not expect.
    static func expectNoArguments(_ words: ArraySlice<String>, shape: String) throws {
        if let extra = words.first {
            throw CommandLineOptions.UsageError(description: "unexpected argument “\(extra)”: \(shape)")
        }
    }
}

extension DocumentStore {
    /// The document a record command works on (see `target(requested:remembered:)`). Only a
    /// command that adds records (`creating`) may name a document that does not exist yet.
    func commandTarget(requested: String?, remembered: String?, creating: Bool) throws -> DocumentTarget {
        let target: DocumentTarget
        do {
            target = try self.target(requested: requested, remembered: remembered)
        } catch let error as DocumentError where requested == nil && creating {
            throw DocumentError("\(error.message): name one with --doc NAME to create it")
        }
        if case .new(let name) = target, !creating {
            throw DocumentError("“\(name)” does not exist")
        }
        return target
    }
}

/// A document's questionnaire that cannot be used: every line of its errors, printed one per
/// line (`ShellOutput.failure`), as `survey form check` prints them.
struct UnusableQuestionnaire: Error, CustomStringConvertible {
    let lines: [String]
    var description: String { lines.joined(separator: "\n") }
}

extension DocumentStore {
    /// The questionnaire of the document a record command works on: its attached form, or
    /// the original five (a document about to be created has no form yet). A form with
    /// errors stops the command before anything is read or written: answers are never
    /// judged, listed or stored under a form the designer did not mean. A form that is
    /// missing (the surveys carry a `formID`, no form is beside them) stops a command that
    /// would change the document, with the app's words; one that only reads names and
    /// lists the surveys by their answers as stored, and says on stderr why.
    func commandQuestionnaire(for target: DocumentTarget, changing: Bool) throws -> Questionnaire {
        guard case .existing(let name) = target else { return .standard }
        let form = documentForm(for: name)
        switch form.trouble {
        case nil:
            return form.questionnaire
        case .errors(let file, let errors)?:
            throw UnusableQuestionnaire(lines: ["The questionnaire \(file) cannot be used (\(counted(errors.count, "error"))):"]
                + errors + ["nothing was done: fix the form (survey form check FILE) and attach it again (survey form attach FILE)"])
        case let trouble?:
            if changing { throw UnusableQuestionnaire(lines: [trouble.remark(document: name) + "; nothing was done"]) }
            ShellOutput.error(trouble.remark(document: name) + "; surveys are shown as stored")
            return form.questionnaire
        }
    }
}

extension DocumentTarget {
    var name: String {
        switch self {
        case .existing(let name), .new(let name): return name
        }
    }
}
