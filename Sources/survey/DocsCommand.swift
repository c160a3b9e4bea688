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
