import Foundation
import SurveyModel
import SurveyTerminal

/// Wiring only: parse the command line, find the documents, start the terminal app.
func main() -> Int32 {
    let options: CommandLineOptions
    do {
        options = try CommandLineOptions.parse(Array(CommandLine.arguments.dropFirst()))
    } catch {
        FileHandle.standardError.write(Data("survey: \(error)\n\n\(CommandLineOptions.usage)\n".utf8))
        return 2
    }
    if options.showHelp {
        print(CommandLineOptions.usage)
        return 0
    }
    if options.showVersion {
        print("survey 0.1.0")
        return 0
    }
    let store = DocumentStore(folder: DocumentStore.resolveFolder(dir: options.dir,
                                                                   environment: ProcessInfo.processInfo.environment))
    let name: String
    do {
        name = try store.prepare(requested: options.doc)
    } catch {
        FileHandle.standardError.write(Data("survey: \(error)\n".utf8))
        return 1
    }
    return TerminalApp.run(store: store, documentName: name, splitWidth: options.splitWidth)
}

exit(main())
