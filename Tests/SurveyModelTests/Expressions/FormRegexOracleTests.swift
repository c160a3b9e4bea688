import Foundation
import XCTest
import SurveyTestSupport
@testable import SurveyValues
@testable import SurveyForms
@testable import SurveyStorage

/// `FormRegex` against Python's `re` as the oracle, on the syntax the two share: `re.search`,
/// since `regex()` is a search (DECISIONS.md). Python's `\d \w \s \b`, `.`, `$` and `(?i)` mean
/// what Java's do on Android on the characters used here (ASCII, `é É`, the Arabic-Indic `٣`,
/// a line feed); where the two differ (`\B` on an empty text, Java's other line terminators,
/// `\p{…}`), `FormRegexTests` checks Java's meaning.
final class FormRegexOracleTests: XCTestCase {
    /// Python's verdict on each (pattern, text): true or false, nil where it refuses the pattern.
    private func python(_ cases: [(pattern: String, text: String)]) throws -> [Bool?] {
        let input = FileManager.default.temporaryDirectory.appendingPathComponent("regex-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: input) }
        try JSONEncoder().encode(cases.map { [$0.pattern, $0.text] }).write(to: input)
        let script = #"""
        import json, re, sys
        out = []
        for pattern, text in json.load(sys.stdin):
            try:
                out.append(1 if re.search(pattern, text) else 0)
            except re.error:
                out.append(-1)
        print(json.dumps(out))
        """#
        let run = try ChildProcess.run(["python3", "-c", script], stdin: input)
        XCTAssertEqual(run.status, 0, run.errors)
        let verdicts = try JSONDecoder().decode([Int].self, from: Data(run.output.utf8))
        return verdicts.map { $0 < 0 ? nil : $0 == 1 }
    }

    private func compare(_ cases: [(pattern: String, text: String)], file: StaticString = #filePath, line: UInt = #line) throws {
        let oracle = try python(cases)
        XCTAssertEqual(oracle.count, cases.count, file: file, line: line)
        var disagreements: [String] = []
        for (c, expected) in zip(cases, oracle) {
            guard let expected else {
                disagreements.append("Python refuses \(c.pattern.debugDescription)")
                continue
            }
            let ours: Bool
            do { ours = try FormRegex(c.pattern).matches(in: c.text) } catch {
                disagreements.append("survey refuses \(c.pattern.debugDescription): \(error)")
                continue
            }
            if ours != expected {
                disagreements.append("\(c.pattern.debugDescription) on \(c.text.debugDescription): survey \(ours), Python \(expected)")
            }
        }
        XCTAssertEqual(disagreements.prefix(20), [], "\(disagreements.count) of \(cases.count) disagree", file: file, line: line)
    }

    /// Patterns real forms use, each on every text of the list.
    func testFormPatternsAgreeWithPython() throws {
        let patterns = [
            #"^[0-9]{10}$"#, #"^\d{3}-\d{4}$"#, #"^[A-Za-z ]+$"#, #"^([A-Za-z]+ ?)+$"#,
            #"^[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}$"#, #"^(07|01)\d{8}$"#, #"(?i)^(yes|no)$"#,
            #"^[A-Z]{2}\d{6}$"#, #"^\s*$"#, #"\bcat\b"#, "colou?r", #"^.{3,5}$"#, #"^[^0-9]*$"#,
            #"^(a|ab)(c|bcd)(d*)$"#, #"^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$"#, #"^-?\d+(\.\d{1,2})?$"#,
            #"^[A-Z][a-z]+(-[A-Z][a-z]+)*$"#, #"^\+?[0-9 ]{7,15}$"#, #"^[^@\s]+@[^@\s]+$"#, "a{2,3}", "^(ab)*$",
            "x*", #"^\W+$"#, #"[\w-]+"#, #"\d\D\s\S"#, #"^\.$"#, "[.]", #"[a\-z]"#, "[-a]", "[a-]", #"^[\^]$"#,
            #"^\w+$"#, "(?i)é", #"^(\w+\s?)*$"#, "^a*?b+?$", "(?:ab|a)c", #"\Aa"#, "ab$", #"^[a-c]{2,}?$"#,
        ]
        let texts = [
            "", "0712345678", "071234567", "555-1234", "Ana Lima", "Ana  Lima", "ana@example.org", "a@b", "yes", "YES",
            "No", "AB123456", "   ", "the cat sat", "concatenate", "color", "colour", "abcd", "ab", "abcdef",
            "2026-12-04", "2026-13-04", "-12.5", "12.345", "Anne-Marie", "+254 712 345 678", "aa", "aaaa", "abab", "aba",
            "x", "!!", "word-word", "1a b", ".", "a", "-", "z", "^", "São Tomé", "٣٤", "ab\n", "a\nb", "É", "abc", "ac",
        ]
        try compare(patterns.flatMap { p in texts.map { (p, $0) } })
    }

    /// A few hundred patterns drawn from a small grammar (literals, `.`, classes with ranges
    /// and negation, shorthands, groups, alternation, anchors, every quantifier and its lazy
    /// form, `(?i)`), each on random texts, all judged by Python in one run.
    func testRandomPatternsAgreeWithPython() throws {
        let seed = UInt64(ProcessInfo.processInfo.environment["SURVEY_REGEX_SEED"] ?? "") ?? 20261204
        var random = SplitMix64(seed: seed)
        var cases: [(pattern: String, text: String)] = []
        for _ in 0..<400 {
            let pattern = (random.chance(0.15) ? "(?i)" : "") + Self.alternatives(depth: 0, &random)
            for _ in 0..<6 { cases.append((pattern, Self.text(&random))) }
        }
        try compare(cases)
    }

    // MARK: The grammar

    private static let textAlphabet = ["a", "b", "c", "A", "B", "é", "É", "1", "٣", "_", " ", "-", ".", "\n"]

    private static func text(_ random: inout SplitMix64) -> String {
        (0..<random.below(9)).map { _ in textAlphabet[random.below(textAlphabet.count)] }.joined()
    }

    private static func alternatives(depth: Int, _ random: inout SplitMix64) -> String {
        let count = random.chance(0.25) ? 2 + random.below(2) : 1
        return (0..<count).map { _ in sequence(depth: depth, &random) }.joined(separator: "|")
    }

    private static func sequence(depth: Int, _ random: inout SplitMix64) -> String {
        (0..<random.below(5)).map { _ in item(depth: depth, &random) }.joined()
    }

    private static func item(depth: Int, _ random: inout SplitMix64) -> String {
        let atom: String
        switch random.below(depth < 3 ? 10 : 8) {
        case 0, 1, 2: atom = ["a", "b", "A", "é", "1", "_", " ", "-", #"\."#, #"\-"#][random.below(10)]
        case 3: atom = "."
        case 4: atom = characterClass(&random)
        case 5: atom = [#"\d"#, #"\w"#, #"\s"#, #"\D"#, #"\W"#, #"\S"#][random.below(6)]
        case 6: return ["^", "$", #"\b"#, #"\A"#][random.below(4)]   // anchors take no quantifier
        case 7: atom = "a"
        default: atom = (random.chance(0.5) ? "(" : "(?:") + alternatives(depth: depth + 1, &random) + ")"
        }
        guard random.chance(0.35) else { return atom }
        let quantifier = ["*", "+", "?", "{2}", "{1,}", "{0,2}", "{1,3}"][random.below(7)]
        return atom + quantifier + (random.chance(0.2) ? "?" : "")
    }

    private static func characterClass(_ random: inout SplitMix64) -> String {
        let items = ["a", "b", "a-c", "A-Z", "0-9", #"\d"#, #"\w"#, #"\s"#, "é", "_", " ", #"\."#]
        let body = (0..<1 + random.below(3)).map { _ in items[random.below(items.count)] }.joined()
        return "[" + (random.chance(0.3) ? "^" : "") + body + (random.chance(0.15) ? "-" : "") + "]"
    }
}

/// A small seeded generator (Vigna's SplitMix64), so a failing draw can be run again.
struct SplitMix64 {
    private var state: UInt64
    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    mutating func below(_ n: Int) -> Int { Int(next() % UInt64(n)) }
    mutating func chance(_ p: Double) -> Bool { Double(next() >> 11) / Double(1 << 53) < p }
}
