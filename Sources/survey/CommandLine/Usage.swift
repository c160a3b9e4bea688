/// `survey --help` and the synopsis printed after a usage error, generated from the
/// declarations (`CommandSpec.all`, `OptionSpec.all`) and the prose in `HelpText`.
enum Usage {
    static let width = 92

    static var synopsis: String { synopsis(of: CommandSpec.all) }

    /// "usage: survey …", then one line a form, aligned under the first.
    static func synopsis(of forms: [CommandSpec]) -> String {
        forms.enumerated().map { index, spec in
            (index == 0 ? "usage: " : "       ") + (["survey"] + spec.words + [spec.synopsis]).filter { !$0.isEmpty }.joined(separator: " ")
        }.joined(separator: "\n")
    }

    /// What follows a usage error: the command's own forms when the command is known (as git
    /// does: the whole synopsis is 45 lines, and the one line that says what was wrong
    /// scrolled away above it), else the whole synopsis; then where to read more.
    static func afterError(in command: (any ShellCommand.Type)?) -> String {
        guard let command else { return synopsis + "\nsurvey --help tells more.\n" }
        return synopsis(of: command.forms) + "\nsurvey \(command.name) --help tells more.\n"
    }

    static var full: String {
        var sections = [synopsis, wrap(HelpText.description)]
        let docs = CommandSpec.all.filter { $0.words.first == "docs" }
        let records = CommandSpec.all.filter { !$0.words.isEmpty && $0.words.first != "docs" }
        sections.append("commands:\n" + table(docs.map { (commandLabel($0), $0.help) }, column: 21))
        sections.append(wrap(HelpText.recordCommands) + "\n" + table(records.map { (commandLabel($0), $0.help) }, column: 21))
        sections.append("Formats:\n" + table(HelpText.formats, column: 9))
        sections.append(wrap(HelpText.names))
        let options = OptionSpec.all.map { ($0.label, $0.help) }
        sections.append("options:\n" + table(options, column: 21))
        sections.append("Files (in the document folder):\n" + table(HelpText.files, column: 36))
        sections.append("Environment:\n" + table(HelpText.environment, column: 24))
        sections.append("Exit status:\n" + table(HelpText.exitStatus, column: 3) + "\n" + wrap(HelpText.earlyReader))
        return sections.joined(separator: "\n\n")
    }

    /// `docs rename OLD NEW`, `import FILE`, `list`: the words and the operands, not the options.
    static func commandLabel(_ spec: CommandSpec) -> String {
        let operands = spec.synopsis.split(separator: " ").prefix { !$0.hasPrefix("[-") && !$0.hasPrefix("-") }
        return (spec.words + operands.map(String.init)).joined(separator: " ")
    }

    /// Two columns, indented by two; the text wraps under itself, and a label too long for
    /// its column puts the text on the next line.
    static func table(_ rows: [(String, String)], column: Int) -> String {
        rows.map { label, text in
            let indent = String(repeating: " ", count: column + 2)
            let body = wrap(text, indent: indent)
            let head = "  " + label
            if head.count < column + 2 {
                return head + String(repeating: " ", count: column + 2 - head.count) + body.dropFirst(indent.count)
            }
            return head + "\n" + body
        }.joined(separator: "\n")
    }

    /// Words filled to `width`, each line starting with `indent`.
    static func wrap(_ text: String, indent: String = "") -> String {
        var lines: [String] = []
        var line = indent
        for word in text.split(separator: " ") {
            if line.count > indent.count, line.count + 1 + word.count > width {
                lines.append(line)
                line = indent
            }
            line += (line.count > indent.count ? " " : "") + word
        }
        lines.append(line)
        return lines.joined(separator: "\n")
    }
}

extension Usage {
    /// `survey COMMAND --help`: that command alone (each of its forms with what it does, then
    /// its own options and the ones every command takes), not the whole page: what git and
    /// swift-argument-parser print for a subcommand's `--help`.
    static func help(for command: any ShellCommand.Type) -> String {
        let forms = command.forms
        var sections = [synopsis(of: forms)]
        if forms.count == 1, let only = forms.first {
            sections.append(wrap(only.help, indent: "  "))
        } else {
            sections.append(table(forms.map { (commandLabel($0), $0.help) }, column: 21))
        }
        var seen: Set<String> = []
        let named = forms.map(\.synopsis).joined(separator: " ")
        let shared = OptionSpec.everywhere.filter { spec in
            spec.names.contains { ["--dir", "--help"].contains($0) || named.contains("[" + $0 + " ") || named.contains("[" + $0 + "]") }
        }
        let options = (command.options + shared)
            .filter { seen.insert($0.label).inserted }
        sections.append("options:\n" + table(options.map { ($0.label, $0.help) }, column: 21))
        sections.append("survey --help lists every command, the formats, the files and the exit status.")
        return sections.joined(separator: "\n\n")
    }
}
