import XCTest
@testable import SurveyValues
@testable import SurveyForms
@testable import SurveyStorage

/// `regex()` runs in time bounded by the answer and the pattern (`FormRegex`), refuses what
/// it cannot run with a message, and means what Java's (Android's) syntax means.
final class FormRegexTests: XCTestCase {
    private func matches(_ pattern: String, _ text: String, file: StaticString = #filePath, line: UInt = #line) -> Bool {
        do { return try FormRegex(pattern).matches(in: text) } catch {
            XCTFail("\(pattern): \(error)", file: file, line: line)
            return false
        }
    }

    private func refusal(_ pattern: String) -> FormRegexError? {
        do { _ = try FormRegex(pattern); return nil } catch { return error }
    }

    /// The pattern of issue 27 on a 10,000-character name: a backtracking matcher tries every
    /// way of cutting the name into words before it says no (the app hung past a minute).
    /// The result is asserted, not a time: a hang is a test that never ends.
    func testTheCatastrophicPatternOnALongNameAnswers() {
        let name = String(repeating: "Abcdefghi ", count: 1_000)
        XCTAssertEqual(name.count, 10_000)
        let rule = "regex(${name}, '^([A-Za-z]+ ?)+$')"
        XCTAssertTrue(FormFunctionTestSupport.eval(rule, ["name": name]).boolean)
        XCTAssertFalse(FormFunctionTestSupport.eval(rule, ["name": name + "!"]).boolean)
        XCTAssertFalse(FormFunctionTestSupport.eval(rule, ["name": "!" + name]).boolean)
        // The other classic cases of exponential backtracking.
        let a = String(repeating: "a", count: 10_000)
        XCTAssertFalse(matches("(a*)*b", a))
        XCTAssertFalse(matches("^(a|aa)+$", a + "b"))
        XCTAssertFalse(matches("^(a|a?)+$", a + "b"))
        XCTAssertTrue(matches("(x+x+)+y", String(repeating: "x", count: 5_000) + "y"))
        XCTAssertFalse(matches("(x+x+)+y", String(repeating: "x", count: 5_000)))
        XCTAssertTrue(matches("^(.*a){20}$", a))
        XCTAssertFalse(matches("^(\\w+\\s?)*$", String(repeating: "word ", count: 2_000) + "#"))
    }

    /// What Java reads and survey will not run (it needs backtracking, or is too large to run
    /// in bounded time) is refused as unsupported; what is no regular expression is invalid.
    func testRefusalsSayWhy() {
        let unsupported: [(String, String)] = [
            ("(a)\\1", "backreferences (such as \\1) are not supported"),
            ("(?<n>a)\\k<n>", "backreferences (such as \\k<name>) are not supported"),
            ("a(?=b)", "lookahead (?= …) and (?! …) are not supported"),
            ("a(?!b)", "lookahead (?= …) and (?! …) are not supported"),
            ("(?<=a)b", "lookbehind (?<= …) and (?<! …) are not supported"),
            ("(?>a+)b", "atomic groups (?> …) are not supported"),
            ("a*+", "possessive quantifiers (such as “*+”) are not supported"),
            ("a{1001}", "a count over 1000 in {…} is not supported"),
            ("a{2,99999999999}", "a count over 1000 in {…} is not supported"),
            ("((a{1000}){1000}){1000}", "the pattern is too large to check (over 5000 steps once its counts are written out)"),
            ("[a-z]{1000}[0-9]{1000}[A-Z]{1000}[a-z]{1000}[0-9]{1000}x", "the pattern is too large to check (over 5000 steps once its counts are written out)"),
            ("[a[b]]", "a class inside a class (such as [a[b]] or [[:alpha:]]) is not supported; write \\[ for the bracket"),
            ("[[:alpha:]]", "a class inside a class (such as [a[b]] or [[:alpha:]]) is not supported; write \\[ for the bracket"),
            ("[a-z&&[^aeiou]]", "class intersection (&&) is not supported"),
            ("\\p{IsLatin}", "\\p{IsLatin} is not supported (general categories such as \\p{L} or \\p{Lu} are)"),
            ("(?x)a b", "the flag “x” is not supported (i, s and m are)"),
            ("\\G", "“\\G” is not supported"),
        ]
        for (pattern, message) in unsupported {
            XCTAssertEqual(refusal(pattern), .unsupported(message), pattern)
        }
        let invalid: [(String, String)] = [
            ("[a-", "a “[” is not closed"),
            ("(a", "a “(” is not closed"),
            ("a)", "a “)” has no “(” before it"),
            ("*a", "“*” has nothing before it to repeat"),
            ("a**", "“*” has nothing before it to repeat"),
            ("^*", "“*” has nothing before it to repeat"),
            ("a|+", "“+” has nothing before it to repeat"),
            ("a{2", "a “{” starts a count such as {3}, {2,} or {1,5} (write \\{ for the character)"),
            ("a{,2}", "a “{” starts a count such as {3}, {2,} or {1,5} (write \\{ for the character)"),
            ("a{3,1}", "{3,1} counts down: the larger count comes second"),
            ("[z-a]", "the range z-a runs backwards"),
            ("a\\", "the pattern ends with a lone “\\”"),
            ("\\q", "“\\q” is not an escape a regular expression knows"),
            ("[\\d-z]x[a-\\d]", "a range cannot end with a class such as \\d"),
            ("(?P<n>a)", "a “(?” starts (?:…), (?<name>…) or flags such as (?i)"),
            ("\\x4", "“\\x” is followed by two hexadecimal digits"),
        ]
        for (pattern, message) in invalid {
            XCTAssertEqual(refusal(pattern), .invalid(message), pattern)
        }
    }

    /// Nesting is bounded (the parser and compiler recurse once per group), so a hostile
    /// pattern is refused, never a crash; so is one that would compile to too many steps.
    func testHostilePatternsAreRefusedNotACrash() {
        XCTAssertNil(refusal(String(repeating: "(", count: 50) + "a" + String(repeating: ")", count: 50)))
        XCTAssertEqual(refusal(String(repeating: "(", count: 51) + "a" + String(repeating: ")", count: 51)),
                       .unsupported("groups nest more than 50 deep"))
        XCTAssertEqual(refusal(String(repeating: "(", count: 100_000))?.kind, .unsupported)
        XCTAssertEqual(refusal(String(repeating: "(?:", count: 100_000))?.kind, .unsupported)
        XCTAssertEqual(refusal(String(repeating: "x", count: 100_000))?.kind, .unsupported, "too many steps")
        XCTAssertEqual(refusal(String(repeating: "a|", count: 3_000))?.kind, .unsupported)
        XCTAssertNil(refusal("[A-Za-z]{1,1000}"), "a thousand is the limit, and fits")
        XCTAssertNil(refusal("[a-z]{1000}[0-9]{1000}[A-Z]{1000}[a-z]{1000}[0-9]{1000}"), "5,000 steps fit")
        XCTAssertTrue(matches("^[A-Za-z]{1,1000}$", String(repeating: "q", count: 1_000)))
        XCTAssertFalse(matches("^[A-Za-z]{1,1000}$", String(repeating: "q", count: 1_001)))
    }

    /// Java's syntax as Android runs it, beyond what Python's `re` shares (tested against it in
    /// `FormRegexOracleTests`): Unicode classes, `\p{…}`, `\h`, `\Q…\E`, Java's escapes, its
    /// line terminators for `.` and `$`, `\A \z \Z`, named groups, lazy quantifiers.
    func testJavaSyntax() {
        XCTAssertTrue(matches("^\\p{L}+$", "Zoë"))
        XCTAssertTrue(matches("^\\p{Lu}\\p{Ll}+$", "Élodie"))
        XCTAssertFalse(matches("^\\p{Lu}+$", "élodie"))
        XCTAssertTrue(matches("^\\P{L}+$", "123 -"))
        XCTAssertTrue(matches("^\\pL\\pN$", "a٣"))
        XCTAssertTrue(matches("^[\\p{L} '-]+$", "Anne-Marie O'Neil"))
        XCTAssertTrue(matches("^\\p{IsLu}\\p{gc=Ll}$", "Ab"))
        XCTAssertTrue(matches("^\\p{Alpha}+$", "ñandú"))
        XCTAssertTrue(matches("^\\d+$", "٠١٢"), "\\d is any decimal digit, as on Android (ICU)")
        XCTAssertTrue(matches("^\\w+$", "São_Tomé"), "\\w takes letters of any script")
        XCTAssertTrue(matches("^\\s$", "\u{00A0}"), "no-break space is white space")
        XCTAssertTrue(matches("^a\\hb$", "a\tb"))
        XCTAssertFalse(matches("^a\\hb$", "a\nb"))
        XCTAssertTrue(matches("^a\\vb$", "a\nb"))
        XCTAssertTrue(matches("^\\Q1+1=2?\\E$", "1+1=2?"))
        XCTAssertFalse(matches("^\\Q1+1\\E$", "11"))
        XCTAssertTrue(matches("^[\\Q.*\\E]+$", "*.*"))
        XCTAssertTrue(matches("^\\x41\\u00e9\\x{1F600}\\0101\\cJ\\t$", "Aé😀A\n\t"))
        XCTAssertTrue(matches("^a.c$", "abc"))
        XCTAssertFalse(matches("^a.c$", "a\rc"), "Java's . stops at every line terminator")
        XCTAssertFalse(matches("^a.c$", "a\u{2028}c"))
        XCTAssertTrue(matches("(?s)^a.c$", "a\nc"))
        XCTAssertTrue(matches("^ab$", "ab\r\n"), "$ stands before a line terminator that ends the text")
        XCTAssertTrue(matches("^ab$", "ab\u{2029}"))
        XCTAssertFalse(matches("^ab$", "ab\n\n"))
        XCTAssertFalse(matches("^ab\\z", "ab\n"))
        XCTAssertTrue(matches("^ab\\Z", "ab\n"))
        XCTAssertTrue(matches("\\Aab", "abc"))
        XCTAssertFalse(matches("x\\Aab", "xab"))
        XCTAssertTrue(matches("(?m)^b$", "a\nb\nc"))
        XCTAssertFalse(matches("^b$", "a\nb\nc"))
        XCTAssertTrue(matches("(?i)^ÉLODIE$", "élodie"), "case folds Unicode-wide, as on Android")
        XCTAssertTrue(matches("(?i)^[a-z]+$", "ABC"))
        XCTAssertTrue(matches("a(?i)b", "aB"))
        XCTAssertFalse(matches("a(?i)b", "AB"), "a flag applies from where it stands")
        XCTAssertTrue(matches("(?i:a)b", "Ab"))
        XCTAssertFalse(matches("(?i:a)b", "AB"))
        XCTAssertFalse(matches("(?i)a(?-i)b", "AB"))
        XCTAssertTrue(matches("^(?<area>\\d{3})-\\d{4}$", "555-1234"))
        XCTAssertTrue(matches("^a+?b*?c??d{1,2}?$", "aad"), "a lazy quantifier matches the same texts")
        XCTAssertTrue(matches("^[]a]+$", "]a]"), "a ] first in a class is a character")
        XCTAssertTrue(matches("^[^]]+$", "abc"))
        XCTAssertTrue(matches("\\bcat\\b", "a cat sat"))
        XCTAssertFalse(matches("\\bcat\\b", "concatenate"))
        XCTAssertTrue(matches("\\Bcat\\B", "concatenate"))
        XCTAssertTrue(matches("\\bnaïve\\b", "so naïve."), "word characters are Unicode letters")
        XCTAssertTrue(matches("^😀{2}$", "😀😀"), "characters are Unicode scalars")
        XCTAssertTrue(matches("", "anything"))
        XCTAssertTrue(matches("^$", ""))
        XCTAssertTrue(matches("()*", "a"))
        XCTAssertTrue(matches("^(|a)+$", "aaa"))
        XCTAssertTrue(matches("^(a*)*$", "aaa"))
    }

    /// A pattern is a search in the answer (survey's rule since its first version, which forms
    /// written for survey rely on; JavaRosa wants the whole answer): anchors make it whole.
    func testRegexIsASearchUnlessAnchored() {
        XCTAssertTrue(FormFunctionTestSupport.eval("regex('a1b', '[0-9]')").boolean)
        XCTAssertFalse(FormFunctionTestSupport.eval("regex('a1b', '^[0-9]$')").boolean)
        XCTAssertTrue(FormFunctionTestSupport.eval("regex('1', '^[0-9]$')").boolean)
    }

    /// A pattern computed from the answers that cannot be run makes `regex()` true, so the
    /// constraint it is in takes the answer, as a constraint that cannot be read does (it
    /// was false, and such a constraint refused every answer for good).
    func testAComputedPatternThatCannotRunLetsTheAnswerThrough() {
        let answers = ["pattern": "(a)\\1", "broken": "[a-", "good": "^a+$"]
        XCTAssertTrue(FormFunctionTestSupport.eval("regex('b', ${pattern})", answers).boolean)
        XCTAssertTrue(FormFunctionTestSupport.eval("regex('b', ${broken})", answers).boolean)
        XCTAssertTrue(FormFunctionTestSupport.eval("regex('b', concat('[', 'a-'))", answers).boolean)
        XCTAssertFalse(FormFunctionTestSupport.eval("regex('b', ${good})", answers).boolean)
        XCTAssertTrue(FormFunctionTestSupport.eval("regex('aaa', ${good})", answers).boolean)
    }

    /// In a form: a constant pattern that is no regular expression keeps the form from opening
    /// (as before); one survey does not run opens with a warning at its row and column, and
    /// the rule unread (any answer taken), as text that is not XPath.
    func testAFormsPatternIsCheckedWhenTheFormIsRead() throws {
        let result = XLSForm.read(try XLSFormSheets.csv(#"""
            survey,,,,
            ,type,name,label,constraint
            ,text,twice,Twice,"regex(., '^(\w)\1$')"
            ,text,big,Big,"regex(., '^\d{5000}$')"
            ,text,phone,Phone,"regex(., '^[0-9]{10}$')"
            """#))
        XCTAssertEqual(result.errors.map(\.description), [])
        XCTAssertEqual(result.warnings.map(\.description), [
            #"survey row 3, constraint: “regex(., '^(\w)\1$')” cannot be read (regex(): “^(\w)\1$” is a regular expression "#
                + #"survey does not run: backreferences (such as \1) are not supported): any answer is taken"#,
            #"survey row 4, constraint: “regex(., '^\d{5000}$')” cannot be read (regex(): “^\d{5000}$” is a regular expression "#
                + "survey does not run: a count over 1000 in {…} is not supported): any answer is taken",
        ])
        let q = Questionnaire(form: try XCTUnwrap(result.form))
        XCTAssertNil(q.ruleProblem(q.index("twice"), value: .string("xy"), in: Record(), clock: FormTestSupport.clock))
        XCTAssertNil(q.ruleProblem(q.index("big"), value: .string("1"), in: Record(), clock: FormTestSupport.clock))
        XCTAssertNotNil(q.ruleProblem(q.index("phone"), value: .string("12345"), in: Record(), clock: FormTestSupport.clock))
        XCTAssertNil(q.ruleProblem(q.index("phone"), value: .string("0712345678"), in: Record(), clock: FormTestSupport.clock))
    }
}
