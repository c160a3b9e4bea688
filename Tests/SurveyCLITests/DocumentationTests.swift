import Foundation
import XCTest
import SurveyTestSupport
import SurveyUI

/// `--version`, `--man` and `--completion`: the man page and the completion scripts are
/// checked against `--help` and the app's key table, so none of them can drift.
final class DocumentationTests: CLITestCase {
    /// Option names from the "options:" section of `--help` ("-h, --help" gives both).
    func helpOptions() throws -> [String] {
        let help = try survey("--help").stdout
        let section = help.components(separatedBy: "\noptions:\n")[1].components(separatedBy: "\n\n")[0]
        return section.split(separator: "\n").filter { $0.hasPrefix("  -") }.flatMap { line in
            line.dropFirst(2).components(separatedBy: "  ")[0].split(separator: " ")
                .map { $0.trimmingCharacters(in: CharacterSet(charactersIn: ",")) }.filter { $0.hasPrefix("-") }
        }
    }

    /// The man page as `man -l` renders it, with every run of blanks made one space.
    func renderedManPage(locale: String = "C.UTF-8") throws -> (text: String, warnings: String) {
        let page = root.appendingPathComponent("survey.1")
        try Data(try survey("--man").stdout.utf8).write(to: page)
        let outcome = try ChildProcess.run(["man", "--warnings", "-l", page.path],
                                           environment: ["PATH": "/usr/bin:/bin", "LANG": locale, "MANWIDTH": "80",
                                                         "MANPAGER": "cat", "HOME": root.path])
        XCTAssertEqual(outcome.status, 0, outcome.errors)
        let text = outcome.output.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        return (text, outcome.errors)
    }

    func testVersionNamesTheCommitItWasBuiltFrom() throws {
        let outcome = try survey("--version")
        XCTAssertEqual(outcome.status, 0)
        XCTAssertTrue(outcome.stdout.hasPrefix("survey 0.2.0 (commit "), outcome.stdout)
        XCTAssertTrue(outcome.stdout.hasSuffix(")\n"), outcome.stdout)
        if let commit = ProcessInfo.processInfo.environment["SURVEY_COMMIT"], !commit.isEmpty,
           ProcessInfo.processInfo.environment["SURVEY_BIN"]?.contains("/dist/") == true {
            XCTAssertEqual(outcome.stdout, "survey 0.2.0 (commit \(commit))\n")
        }
    }

    func testManPageRendersWithoutWarningsInAnyLocale() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/man") else {
            throw XCTSkip("man is not installed (make deps installs man-db)")
        }
        for locale in ["C.UTF-8", "C"] {
            let (text, warnings) = try renderedManPage(locale: locale)
            XCTAssertEqual(warnings, "", locale)
            for heading in ["NAME", "SYNOPSIS", "COMMANDS", "OPTIONS", "KEYS", "FILES", "ENVIRONMENT", "EXIT STATUS"] {
                XCTAssertTrue(text.contains(" \(heading) "), "\(locale): no \(heading)")
            }
        }
    }

    func testManPageHasEveryCommandOptionAndKeyOfTheProgram() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/man") else {
            throw XCTSkip("man is not installed (make deps installs man-db)")
        }
        let text = try renderedManPage().text
        let help = try survey("--help").stdout
        let options = try helpOptions()
        XCTAssertTrue(options.contains("--dir") && options.contains("--completion") && options.contains("-h"), "\(options)")
        for option in options {
            XCTAssertTrue(text.contains(option), "man page lacks \(option)")
        }
        let synopsis = help.components(separatedBy: "\n\n")[0].split(separator: "\n")
            .map { $0.replacingOccurrences(of: "usage: ", with: "").trimmingCharacters(in: .whitespaces) }
        XCTAssertEqual(synopsis.count, 40)
        for line in synopsis {
            XCTAssertTrue(text.contains(line), "man page lacks the synopsis \(line)")
        }
        for binding in KeyMap.bindings {
            guard let help = binding.help else { continue }
            XCTAssertTrue(text.contains(binding.keyLabel.replacingOccurrences(of: "–", with: "-") + " ")
                          || text.contains(binding.keyLabel + " "), "man page lacks the key \(binding.keyLabel)")
            // The page writes "…" as "..." and "–" as "-" where the terminal has no such glyph.
            let ascii = help.replacingOccurrences(of: "…", with: "...").replacingOccurrences(of: "–", with: "-")
            XCTAssertTrue(text.contains(ascii) || text.contains(help), "man page lacks \(help)")
        }
        for variable in ["SURVEY_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME", "NO_COLOR", "TERM"] {
            XCTAssertTrue(text.contains(variable), "man page lacks \(variable)")
        }
        XCTAssertTrue(text.contains("EXIT STATUS 0 done 1 refused"), "exit codes")
    }

    /// Runs the bash completion function as bash would for the words typed (the last one is
    /// being completed) and returns what it offers.
    func bashCompletions(_ script: URL, _ words: [String], environment: [String: String] = [:]) throws -> [String] {
        let line = words.map { "'" + $0 + "'" }.joined(separator: " ")
        let program = """
        source "$1" || exit 9
        COMP_WORDS=(\(line)); COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); COMPREPLY=()
        _survey; printf '%s\\n' "${COMPREPLY[@]}"
        """
        var env = ["PATH": "/usr/bin:/bin", "HOME": root.appendingPathComponent("home").path]
        env.merge(environment) { _, new in new }
        let outcome = try ChildProcess.run(["/bin/bash", "-c", program, "bash", script.path], environment: env)
        XCTAssertEqual(outcome.status, 0, outcome.errors)
        XCTAssertEqual(outcome.errors, "")
        return outcome.output.split(separator: "\n").map(String.init).sorted()
    }

    func testBashCompletionOffersCommandsOptionsAndDocumentNames() throws {
        let script = root.appendingPathComponent("survey.bash")
        try Data(try survey("--completion", "bash").stdout.utf8).write(to: script)
        XCTAssertEqual(try ChildProcess.run(["/bin/bash", "-n", script.path]).status, 0)
        let loaded = try ChildProcess.run(["/bin/bash", "-c", "source \"$1\" && complete -p survey", "bash", script.path])
        XCTAssertEqual(loaded.output, "complete -F _survey survey\n")

        for name in ["Market Street", "Farm"] { _ = try store.create(named: name) }
        try Data().write(to: documents.appendingPathComponent(".hidden.plist"))
        XCTAssertEqual(try bashCompletions(script, ["survey", ""]),
                       ["add", "conflicts", "db", "decrypt", "delete", "deleted", "diff", "docs", "entities", "export", "form", "history", "import", "keys", "list", "merge", "pull", "push", "resolve", "review", "stats", "sync", "undelete", "verify"])
        XCTAssertEqual(try bashCompletions(script, ["survey", "docs", "r"]), ["rename", "restore", "rm"])
        XCTAssertEqual(try bashCompletions(script, ["survey", "--dir", documents.path, "docs", "rm", ""]),
                       ["Farm", "Market Street"])
        XCTAssertEqual(try bashCompletions(script, ["survey", "list", "--doc", "M"], environment: ["SURVEY_HOME": documents.path]),
                       ["Market Street"])
        XCTAssertEqual(try bashCompletions(script, ["survey", "export", "--format", ""]), ["csv", "json", "odk-csv", "odk-xml", "plist", "table"])
        XCTAssertEqual(try bashCompletions(script, ["survey", "add", "--a"]), ["--address", "--age"])
        XCTAssertEqual(try bashCompletions(script, ["survey", "list", "--f"]), ["--format"])
        XCTAssertEqual(try bashCompletions(script, ["survey", "docs", "--f"]), ["--form"], "--format does not work with docs; --form (docs new) does")
        // Every option of --help is offered after some command.
        var offered: Set<String> = []
        for command in ["", "docs", "list", "add", "export", "import", "deleted", "undelete", "merge", "diff", "resolve", "db", "review", "history", "keys", "decrypt", "verify", "stats", "entities"] {
            offered.formUnion(try bashCompletions(script, ["survey"] + (command.isEmpty ? [] : [command]) + ["-"]))
        }
        XCTAssertEqual(offered, Set(try helpOptions()).subtracting(["--"]))
    }

    func testZshCompletionParses() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/zsh") else {
            throw XCTSkip("zsh is not installed (make deps installs it)")
        }
        let folder = root.appendingPathComponent("zfunc", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let script = folder.appendingPathComponent("_survey")
        let text = try survey("--completion", "zsh").stdout
        XCTAssertTrue(text.hasPrefix("#compdef survey\n"))
        try Data(text.utf8).write(to: script)
        XCTAssertEqual(try ChildProcess.run(["/usr/bin/zsh", "-n", script.path]).status, 0)
        // compinit finds it on fpath by its #compdef line, as an installed copy is found.
        let found = try ChildProcess.run(["/usr/bin/zsh", "-fc",
                                          "fpath=(\"$1\" $fpath); autoload -U compinit; compinit -u -D; print -r -- ${_comps[survey]}",
                                          "zsh", folder.path],
                                         environment: ["PATH": "/usr/bin:/bin", "HOME": root.path])
        XCTAssertEqual(found.output, "_survey\n", found.errors)
    }

    func testCompletionForAnUnknownShellIsAUsageError() throws {
        let outcome = try survey("--completion", "fish")
        XCTAssertEqual(outcome.status, 2)
        XCTAssertEqual(outcome.stdout, "")
        XCTAssertTrue(outcome.stderr.hasPrefix("survey: --completion takes bash or zsh, got “fish”\n"), outcome.stderr)
    }
}
