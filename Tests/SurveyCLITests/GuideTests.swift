import Foundation
import XCTest
import SurveyTestSupport

/// The guides in docs/ against the program: the command list in docs/commands.md is the one
/// `survey --help` prints, every `survey …` a guide runs names a command that exists, every
/// message that sends a person to a guide names a section it has, and every link between the
/// README and the guides reaches a file and a heading. So the docs cannot drift from the code.
final class GuideTests: CLITestCase {
    static let repository = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    private func text(_ path: String) throws -> String {
        try String(contentsOf: Self.repository.appendingPathComponent(path), encoding: .utf8)
    }

    /// README.md and every docs/*.md, by their path in the repository.
    private func guides() throws -> [String] {
        let names = try FileManager.default.contentsOfDirectory(atPath: Self.repository.appendingPathComponent("docs").path)
        return ["README.md"] + names.filter { $0.hasSuffix(".md") }.sorted().map { "docs/" + $0 }
    }

    /// A line with every run of blanks made one space, as `--help` aligns nothing in its usage.
    private func squeezed(_ line: some StringProtocol) -> String {
        line.split(whereSeparator: { $0 == " " || $0 == "\t" }).joined(separator: " ")
    }

    /// The usage lines of `survey --help` ("usage: survey …", then "       survey …").
    private func usageLines() throws -> [String] {
        let help = try survey("--help")
        XCTAssertEqual(help.status, 0, help.stderr)
        return help.stdout.components(separatedBy: "\n\n")[0].split(separator: "\n").map {
            squeezed($0.hasPrefix("usage: ") ? $0.dropFirst("usage: ".count) : $0[...])
        }
    }

    /// The lines of every fenced code block, with the block's first line number.
    private func codeBlocks(_ markdown: String) -> [(line: Int, lines: [String])] {
        var blocks: [(line: Int, lines: [String])] = []
        var open: (line: Int, lines: [String])?
        for (number, line) in markdown.components(separatedBy: "\n").enumerated() {
            if line.hasPrefix("```") {
                if let block = open { blocks.append(block); open = nil } else { open = (number + 1, []) }
            } else {
                open?.lines.append(line)
            }
        }
        return blocks
    }

    /// The command list: the first code block under "## Every command" in docs/commands.md.
    private func documentedCommands() throws -> [String] {
        let guide = try text("docs/commands.md")
        guard let heading = guide.range(of: "\n## Every command\n") else {
            XCTFail("docs/commands.md has no \"## Every command\" section")
            return []
        }
        guard let block = codeBlocks(String(guide[heading.upperBound...])).first else {
            XCTFail("docs/commands.md: no code block under \"## Every command\"")
            return []
        }
        return block.lines.filter { !$0.trimmingCharacters(in: .whitespaces).isEmpty }.map { squeezed($0) }
    }

    func testTheCommandListIsTheOneHelpPrints() throws {
        let usage = try usageLines()
        XCTAssertGreaterThan(usage.count, 20, "\(usage)")
        XCTAssertTrue(usage.allSatisfy { $0.hasPrefix("survey ") }, "\(usage)")
        let documented = try documentedCommands()
        for line in usage where !documented.contains(line) {
            XCTFail("docs/commands.md, \"Every command\", lacks the usage line of survey --help: \(line)")
        }
        for line in documented where !usage.contains(line) {
            XCTFail("docs/commands.md, \"Every command\", lists what survey --help does not: \(line)")
        }
        XCTAssertEqual(documented, usage, "docs/commands.md lists the commands in another order than survey --help")
    }

    /// Each command of `--help` as its words before the first placeholder or option:
    /// `docs new`, `docs`, `form check`, `review`.
    private func commandWords() throws -> [[String]] {
        try usageLines().map { line in
            Array(line.split(separator: " ").dropFirst().prefix { word in
                word.allSatisfy { $0.isLowercase || $0 == "-" } && !word.hasPrefix("-")
            }.map(String.init))
        }
    }

    func testEveryCommandTheGuidesRunExists() throws {
        let commands = try commandWords()
        let known = Set(commands.compactMap(\.first))
        var checked = 0
        for path in try guides() {
            for block in codeBlocks(try text(path)) {
                for (offset, line) in block.lines.enumerated() {
                    let words = line.split(separator: " ").map(String.init)
                    guard words.first == "survey", words.count > 1,
                          let first = words[1].first, first.isLowercase else { continue }
                    let place = "\(path):\(block.line + offset + 1)"
                    checked += 1
                    guard known.contains(words[1]) else {
                        XCTFail("\(place) runs survey \(words[1]), which survey --help does not list: \(line)")
                        continue
                    }
                    let subcommands = Set(commands.filter { $0.count > 1 && $0[0] == words[1] }.map { $0[1] })
                    if words.count > 2, !subcommands.isEmpty,
                       words[2].allSatisfy({ $0.isLowercase || $0 == "-" }), !words[2].hasPrefix("-") {
                        XCTAssertTrue(subcommands.contains(words[2]),
                                      "\(place) runs survey \(words[1]) \(words[2]), which survey --help does not list: \(line)")
                    }
                }
            }
        }
        XCTAssertGreaterThan(checked, 30, "the guides' examples were not found")
    }

    /// Headings of a Markdown file, as GitHub makes their anchors: lower case, punctuation
    /// other than hyphens dropped, spaces made hyphens.
    private func headings(_ markdown: String) -> (titles: Set<String>, anchors: Set<String>) {
        var titles: Set<String> = [], anchors: Set<String> = []
        var fenced = false
        for line in markdown.components(separatedBy: "\n") {
            if line.hasPrefix("```") { fenced.toggle() }
            guard !fenced, line.hasPrefix("#"), let space = line.firstIndex(of: " ") else { continue }
            let title = String(line[line.index(after: space)...])
            titles.insert(title)
            anchors.insert(String(title.lowercased().compactMap { character -> Character? in
                if character == " " { return "-" }
                return character.isLetter || character.isNumber || character == "-" || character == "_" ? character : nil
            }))
        }
        return (titles, anchors)
    }

    /// A message sends a person to `(docs/team.md, "A team on PostgreSQL")`: after a .deb
    /// install that is /usr/share/doc/survey/docs/team.md, and the section must be there.
    func testEveryGuideAMessageNamesHasThatSection() throws {
        let sources = Self.repository.appendingPathComponent("Sources")
        let files = FileManager.default.enumerator(atPath: sources.path)?.compactMap { $0 as? String }
            .filter { $0.hasSuffix(".swift") } ?? []
        let pointer = try NSRegularExpression(pattern: #"\((README\.md|README|docs/[a-z-]+\.md), \\?"([^"\\]+)\\?"\)"#)
        var found = 0
        for file in files {
            let source = try String(contentsOf: sources.appendingPathComponent(file), encoding: .utf8)
            for match in pointer.matches(in: source, range: NSRange(source.startIndex..., in: source)) {
                let guide = String(source[Range(match.range(at: 1), in: source)!])
                let section = String(source[Range(match.range(at: 2), in: source)!])
                found += 1
                let path = guide == "README" ? "README.md" : guide
                guard let markdown = try? text(path) else {
                    XCTFail("Sources/\(file) points at \(guide), which does not exist")
                    continue
                }
                XCTAssertTrue(headings(markdown).titles.contains(section),
                              "Sources/\(file) points at \(guide), \"\(section)\", which has no such section")
            }
        }
        XCTAssertGreaterThanOrEqual(found, 4, "the messages that name a guide were not found")
    }

    /// A relative link's path from the repository's top, `..` and `.` taken out.
    private func resolved(_ link: String, in folder: [String]) -> String {
        var steps = folder
        for step in link.split(separator: "/").map(String.init) {
            if step == ".." { _ = steps.popLast() } else if step != "." { steps.append(step) }
        }
        return steps.joined(separator: "/")
    }

    func testEveryLinkBetweenTheGuidesReachesAFileAndAHeading() throws {
        let link = try NSRegularExpression(pattern: #"\]\(([^)\s]+)\)"#)
        var checked = 0
        for path in try guides() {
            let markdown = try text(path)
            let folder = path.split(separator: "/").dropLast().map(String.init)
            for match in link.matches(in: markdown, range: NSRange(markdown.startIndex..., in: markdown)) {
                let target = String(markdown[Range(match.range(at: 1), in: markdown)!])
                guard !target.contains("://") else { continue }
                checked += 1
                let parts = target.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
                let file = parts[0].isEmpty ? path : resolved(parts[0], in: folder)
                let url = Self.repository.appendingPathComponent(file)
                guard FileManager.default.fileExists(atPath: url.path) else {
                    XCTFail("\(path) links to \(target): no file \(file)")
                    continue
                }
                if parts.count == 2 {
                    XCTAssertTrue(headings(try text(file)).anchors.contains(parts[1]),
                                  "\(path) links to \(target): \(file) has no heading with that anchor")
                }
            }
        }
        XCTAssertGreaterThan(checked, 10)
    }
}
