import FoundationEssentials
import SurveyValues

/// The regular expressions of `regex(value, pattern)`, matched in time proportional to the
/// answer's length times the pattern's: a Thompson NFA run as a Pike VM (Russ Cox, "Regular
/// Expression Matching Can Be Simple And Fast"), which never backtracks. A backtracking
/// matcher (Swift's `Regex`, Java's, ICU's) takes exponential time on patterns real forms
/// write, such as `^([A-Za-z]+ ?)+$` on a long name, and the keyer's app stopped for good.
///
/// The syntax is what ODK forms are written in, Java's as Collect runs it on Android (ICU):
/// literals and escapes, `.`, classes `[…]` with ranges and negation, `\d \w \s \h \v` and
/// their negations (Unicode classes, as on Android), `\p{…}` general categories, anchors
/// `^ $ \A \z \Z \b \B`, groups `(…)`, `(?:…)`, `(?<name>…)`, alternation, the quantifiers
/// `* + ? {n} {n,} {n,m}` (lazy ones match the same: only whether it matches is asked), the
/// flags `(?i)`, `(?s)`, `(?m)`, `\Q…\E`. What needs backtracking (backreferences,
/// lookaround, atomic groups, possessive quantifiers) is refused with a message, as are
/// patterns too large to run in bounded time (`FormRegex+Parser.swift`, `+Program`).
///
/// Matching is a search, as survey has always done: the pattern may match anywhere in the
/// text, so a form anchors it (`^…$`) to mean the whole answer (DECISIONS.md).
struct FormRegex: Sendable {
    let program: RegexProgram

    /// Compiles `pattern`; throws `FormRegexError` saying what is wrong or not supported.
    init(_ pattern: String) throws(FormRegexError) {
        var parser = RegexParser(pattern)
        let tree = try parser.parseWhole()
        program = try RegexProgram(compiling: tree, sets: parser.sets)
    }

    /// Whether the pattern matches somewhere in `text`.
    func matches(in text: String) -> Bool {
        program.search(Array(text.unicodeScalars))
    }

    /// The pattern compiled, from a small cache: a rule is evaluated again at each key, and
    /// its pattern is nearly always the same constant.
    static func cached(_ pattern: String) -> Result<FormRegex, FormRegexError> {
        if let found = cache.lock.withLock({ cache.entries[pattern] }) { return found }
        let made: Result<FormRegex, FormRegexError>
        do { made = .success(try FormRegex(pattern)) } catch { made = .failure(error) }
        cache.lock.withLock {
            // A form has a handful of patterns; one computed from answers could make many.
            if cache.entries.count >= 256 { cache.entries.removeAll(keepingCapacity: true) }
            cache.entries[pattern] = made
        }
        return made
    }

    private final class Cache: @unchecked Sendable {
        let lock = Lock()
        var entries: [String: Result<FormRegex, FormRegexError>] = [:]
    }
    private static let cache = Cache()
}

/// Why a pattern cannot be used: `invalid` (not a regular expression in any dialect: a `[`
/// never closed, nothing before `*`), or `unsupported` (Java would run it, survey will not:
/// a backreference, lookaround, a pattern too large to match in bounded time).
struct FormRegexError: Error, Equatable, Sendable, CustomStringConvertible {
    enum Kind: Equatable, Sendable { case invalid, unsupported }
    let kind: Kind
    let message: String

    static func invalid(_ message: String) -> FormRegexError { FormRegexError(kind: .invalid, message: message) }
    static func unsupported(_ message: String) -> FormRegexError { FormRegexError(kind: .unsupported, message: message) }
    var description: String { message }
}
