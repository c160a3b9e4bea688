import FoundationEssentials
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import SurveyValues
import SurveyForms
import SurveyStorage
import SurveyTerminal

/// Wiring only: parse the command line, find the documents, then either carry out a
/// shell command (`docs`, `list`, `add`, `export`, `import`) or start the terminal app on
/// the remembered (or requested) document.
func main() -> Int32 {
    // The device name a sync and a form's `deviceid` give carries this installation's id.
    SyncDevice.installationID = DeviceInstallation.id(environment:)
    let options: CommandLineOptions
    let command: (any ShellCommand)?
    var parsed: CommandLineOptions?
    do {
        try ArgumentBytes.checkArguments()
        options = try CommandLineOptions.parse(Array(CommandLine.arguments.dropFirst()))
        parsed = options
        ProcessTitle.hidePasswords()
        command = options.printsDocumentation ? nil : try options.command()
    } catch {
        ShellOutput.error("\(error)")
        // The command's own usage when the words name one (`survey delete`), also when an
        // option was refused after them (`survey docs new -x`).
        let word = parsed.map { $0.words.first } ?? (error as? CommandLineOptions.UsageError)?.wordsBefore.first
        StandardOutput.writeError(Usage.afterError(in: word.flatMap(ShellCommands.named)))
        return 2
    }
    let printsOnly = options.printsDocumentation || command != nil
    // Only the shell commands: the terminal app keeps the default SIGPIPE.
    StandardOutput.prepare(ignoringBrokenPipe: printsOnly)
    if options.showHelp {
        // `survey diff --help`: that command's help only; an unknown word, the whole page.
        let asked = options.words.first.flatMap(ShellCommands.named)
        StandardOutput.write((asked.map(Usage.help(for:)) ?? CommandLineOptions.usage) + "\n")
        return StandardOutput.finish(0)
    }
    if options.showVersion {
        ShellOutput.line(BuildInfo.versionLine)
        return StandardOutput.finish(0)
    }
    if options.printManual {
        StandardOutput.write(ManPage.page)
        return StandardOutput.finish(0)
    }
    if let shell = options.completionShell {
        StandardOutput.write(CompletionScript.script(for: shell))
        return StandardOutput.finish(0)
    }
    if let problem = ArgumentBytes.environmentProblem(dir: options.dir) {
        ShellOutput.error(problem)
        return 2
    }
    let environment = ProcessInfo.processInfo.environment
    let store = DocumentStore(folder: DocumentStore.resolveFolder(dir: options.dir, environment: environment))
    let stateURL = SessionMemory.defaultURL(environment: environment)
    if let command {
        return StandardOutput.finish(command.run(in: CommandContext(store: store, stateURL: stateURL)), done: command.changesDocuments,
                                     failure: type(of: command).outputFailureStatus)
    }
    // A terminal survey cannot draw on is refused before any document is opened or created;
    // a refused --doc name (checked without touching the folder) is reported first.
    if let requested = options.doc, case .failure(let error) = DocumentStore.validateName(requested) {
        ShellOutput.error("\(error)")
        return 1
    }
    let terminal: Terminal
    do {
        terminal = try Terminal(environment: environment)
    } catch {
        ShellOutput.error("\(error)")
        return 2
    }
    let memory = SessionMemory(url: stateURL)
    let name: String
    do {
        name = try store.prepare(requested: options.doc, remembered: memory.lastDocument(in: store.folder))
    } catch {
        ShellOutput.error("\(error)")
        return 1
    }
    // The app records every switch, and the record showing on quit, in `memory`.
    return TerminalApp.run(on: terminal, store: store, documentName: name, splitWidth: options.splitWidth, memory: memory)
}

exit(main())
