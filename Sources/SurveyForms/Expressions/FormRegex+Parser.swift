import FoundationEssentials
import SurveyValues

/// A pattern as parsed: what `RegexProgram` compiles. A group is its content (nothing is
/// captured: `regex()` asks only whether the pattern matches).
indirect enum RegexNode: Sendable {
    case empty
    case scalar(Unicode.Scalar)
    /// An index into the parser's `sets`: a class, `.`, `\d`, a letter under `(?i)`.
    case set(Int)
    case assertion(RegexAssertion)
    case sequence([RegexNode])
    case alternatives([RegexNode])
    /// `max` nil: no upper bound.
    case repetition(RegexNode, min: Int, max: Int?)
}

/// The zero-width tests, as Java defines them without and with `(?m)`.
enum RegexAssertion: Equatable, Sendable {
    /// `^` and `\A`.
    case inputStart
    /// `^` under `(?m)`: the start, or after a line terminator that does not end the text.
    case lineStart
    /// `$` and `\Z`: the end, or just before a line terminator that ends the text.
    case inputEnd
    /// `$` under `(?m)`: the end, or before any line terminator.
    case lineEnd
    /// `\z`.
    case absoluteEnd
    case wordBoundary, notWordBoundary
}

/// Recursive descent over the pattern, bounded: groups nest at most `maximumDepth` deep
/// (each level is a few stack frames here and in the compiler), and no count in `{n,m}` may
/// pass `maximumCount`, so a hostile pattern is refused with a message, never a crash.
struct RegexParser {
    private let scalars: [Unicode.Scalar]
    private var position = 0
    private var depth = 0
    private var flags = Flags()
    /// The classes the nodes name by index.
    private(set) var sets: [ScalarSet] = []

    static let maximumDepth = 50
    static let maximumCount = 1_000

    private struct Flags {
        var caseless = false
        var dotAll = false
        var multiline = false
    }

    init(_ pattern: String) { scalars = Array(pattern.unicodeScalars) }

    mutating func parseWhole() throws(FormRegexError) -> RegexNode {
        let node = try parseAlternatives()
        guard position >= scalars.count else { throw .invalid("a “)” has no “(” before it") }
        return node
    }

    private mutating func parseAlternatives() throws(FormRegexError) -> RegexNode {
        var branches = [try parseSequence()]
        while peek() == "|" {
            position += 1
            branches.append(try parseSequence())
        }
        return branches.count == 1 ? branches[0] : .alternatives(branches)
    }

    private mutating func parseSequence() throws(FormRegexError) -> RegexNode {
        var items: [RegexNode] = []
        // Whether the last item may take a quantifier (not an anchor, not another quantifier).
        var repeatable = false
        while let c = peek(), c != "|", c != ")" {
            if c == "*" || c == "+" || c == "?" || c == "{" {
                guard repeatable, let last = items.popLast() else {
                    throw .invalid("“\(Character(c))” has nothing before it to repeat")
                }
                let (low, high) = try parseQuantifier()
                items.append(.repetition(last, min: low, max: high))
                repeatable = false
                continue
            }
            if c == "\\", peek(1) == "Q" {
                // \Q…\E: everything between is literal.
                position += 2
                while position < scalars.count, !(scalars[position] == "\\" && peek(1) == "E") {
                    items.append(literal(scalars[position]))
                    position += 1
                    repeatable = true
                }
                if position < scalars.count { position += 2 }
                continue
            }
            position += 1
            switch c {
            case "(":
                guard let group = try parseGroup() else { repeatable = false; continue }
                items.append(group)
                repeatable = true
            case "[":
                items.append(.set(add(try parseClass())))
                repeatable = true
            case ".":
                var any = ScalarSet()
                if !flags.dotAll { any.tests = [(.lineTerminator, true)] } else { any.negated = true }
                items.append(.set(add(any)))
                repeatable = true
            case "^":
                items.append(.assertion(flags.multiline ? .lineStart : .inputStart))
                repeatable = false
            case "$":
                items.append(.assertion(flags.multiline ? .lineEnd : .inputEnd))
                repeatable = false
            case "\\":
                let escaped = try parseEscape()
                items.append(escaped)
                if case .assertion = escaped { repeatable = false } else { repeatable = true }
            default:
                items.append(literal(c))
                repeatable = true
            }
        }
        switch items.count {
        case 0: return .empty
        case 1: return items[0]
        default: return .sequence(items)
        }
    }

    /// `*`, `+`, `?`, `{n}`, `{n,}`, `{n,m}`, and a lazy `?` after it (which matches the
    /// same texts); a possessive `+` after it is refused, since it can make a match fail.
    private mutating func parseQuantifier() throws(FormRegexError) -> (Int, Int?) {
        let c = scalars[position]
        position += 1
        var bounds: (Int, Int?)
        switch c {
        case "*": bounds = (0, nil)
        case "+": bounds = (1, nil)
        case "?": bounds = (0, 1)
        default:
            let shape = "a “{” starts a count such as {3}, {2,} or {1,5} (write \\{ for the character)"
            guard let low = readCount() else { throw .invalid(shape) }
            var high: Int? = low
            if peek() == "," {
                position += 1
                high = readCount()
            }
            guard peek() == "}" else { throw .invalid(shape) }
            position += 1
            if let high, high < low { throw .invalid("{\(low),\(high)} counts down: the larger count comes second") }
            guard max(low, high ?? 0) <= Self.maximumCount else {
                throw .unsupported("a count over \(Self.maximumCount) in {…} is not supported")
            }
            bounds = (low, high)
        }
        if peek() == "?" { position += 1 }
        else if peek() == "+" { throw .unsupported("possessive quantifiers (such as “*+”) are not supported") }
        return bounds
    }

    /// Digits at the position, or nil when there are none; a huge count stops growing
    /// (it is refused above anyway) rather than overflow.
    private mutating func readCount() -> Int? {
        var value: Int? = nil
        while let d = peek(), ("0"..."9").contains(d) {
            value = min((value ?? 0) * 10 + Int(d.value - 48), 1_000_000)
            position += 1
        }
        return value
    }

    /// After `(`: the group's content, or nil for a flag setting `(?i)`, which applies to the
    /// rest of the enclosing group (Java's rule).
    private mutating func parseGroup() throws(FormRegexError) -> RegexNode? {
        depth += 1
        defer { depth -= 1 }
        guard depth <= Self.maximumDepth else { throw .unsupported("groups nest more than \(Self.maximumDepth) deep") }
        let outer = flags
        if peek() == "?" {
            position += 1
            switch peek() {
            case ":": position += 1
            case "=", "!": throw .unsupported("lookahead (?= …) and (?! …) are not supported")
            case ">": throw .unsupported("atomic groups (?> …) are not supported")
            case "<":
                if peek(1) == "=" || peek(1) == "!" { throw .unsupported("lookbehind (?<= …) and (?<! …) are not supported") }
                position += 1
                let start = position
                while let d = peek(), d.properties.isAlphabetic || ("0"..."9").contains(d) { position += 1 }
                guard position > start, peek() == ">" else { throw .invalid("a named group is written (?<name>…)") }
                position += 1
            default:
                try parseFlags()
                if peek() == ")" {
                    position += 1
                    return nil
                }
                guard peek() == ":" else { throw .invalid("a “(?” starts (?:…), (?<name>…) or flags such as (?i)") }
                position += 1
            }
        }
        let inner = try parseAlternatives()
        guard peek() == ")" else { throw .invalid("a “(” is not closed") }
        position += 1
        flags = outer
        return inner
    }

    /// `i`, `s`, `m` (and `u`, which Android ignores), each turned off after a `-`.
    private mutating func parseFlags() throws(FormRegexError) {
        var on = true
        while let c = peek(), c != ")", c != ":" {
            position += 1
            switch c {
            case "-": on = false
            case "i": flags.caseless = on
            case "s": flags.dotAll = on
            case "m": flags.multiline = on
            case "u": break
            case "x", "d", "U": throw .unsupported("the flag “\(Character(c))” is not supported (i, s and m are)")
            default: throw .invalid("a “(?” starts (?:…), (?<name>…) or flags such as (?i)")
            }
        }
    }

    /// After `\` outside a class.
    private mutating func parseEscape() throws(FormRegexError) -> RegexNode {
        guard let c = peek() else { throw .invalid("the pattern ends with a lone “\\”") }
        position += 1
        switch c {
        case "b": return .assertion(.wordBoundary)
        case "B": return .assertion(.notWordBoundary)
        case "A": return .assertion(.inputStart)
        case "z": return .assertion(.absoluteEnd)
        case "Z": return .assertion(.inputEnd)
        case "p", "P": return .set(add(try parseProperty(negated: c == "P")))
        default:
            if let shorthand = try shorthandOrScalar(c) {
                switch shorthand {
                case .set(let set): return .set(add(set))
                case .scalar(let scalar): return literal(scalar)
                }
            }
            return .empty
        }
    }

    // MARK: Classes

    /// After `[`: ranges, single characters, escapes and shorthands, possibly negated. A `]`
    /// first is a character, as in Java and Python; a class inside a class and `&&` are not
    /// read (Java's union and intersection).
    private mutating func parseClass() throws(FormRegexError) -> ScalarSet {
        var set = ScalarSet()
        set.caseless = flags.caseless
        if peek() == "^" {
            set.negated = true
            position += 1
        }
        var first = true
        while true {
            guard let c = peek() else { throw .invalid("a “[” is not closed") }
            position += 1
            if c == "]", !first { return set }
            first = false
            if c == "[" { throw .unsupported("a class inside a class (such as [a[b]] or [[:alpha:]]) is not supported; write \\[ for the bracket") }
            if c == "&", peek() == "&" { throw .unsupported("class intersection (&&) is not supported") }
            var low = c
            if c == "\\" {
                guard let e = peek() else { throw .invalid("a “[” is not closed") }
                position += 1
                if e == "p" || e == "P" {
                    set.merge(try parseProperty(negated: e == "P"))
                    continue
                }
                if e == "Q" {
                    while position < scalars.count, !(scalars[position] == "\\" && peek(1) == "E") {
                        set.ranges.append(scalars[position].value...scalars[position].value)
                        position += 1
                    }
                    if position < scalars.count { position += 2 }
                    continue
                }
                if e == "b" { throw .invalid("\\b means nothing inside a class") }
                switch try shorthandOrScalar(e) {
                case .set(let shorthand)?: set.merge(shorthand); continue
                case .scalar(let scalar)?: low = scalar
                case nil: continue
                }
            }
            guard peek() == "-", let after = peek(1), after != "]" else {
                set.ranges.append(low.value...low.value)
                continue
            }
            position += 1
            var high = scalars[position]
            position += 1
            if high == "[" { throw .unsupported("a class inside a class (such as [a[b]] or [[:alpha:]]) is not supported; write \\[ for the bracket") }
            if high == "\\" {
                guard let e = peek() else { throw .invalid("a “[” is not closed") }
                position += 1
                guard case .scalar(let scalar)? = try shorthandOrScalar(e) else {
                    throw .invalid("a range cannot end with a class such as \\d")
                }
                high = scalar
            }
            guard low.value <= high.value else {
                throw .invalid("the range \(Character(low))-\(Character(high)) runs backwards")
            }
            set.ranges.append(low.value...high.value)
        }
    }

    /// `\p{L}`, `\pL`, `\p{IsLu}`, `\p{gc=Nd}`, and the POSIX names Java reads in `\p{…}`
    /// (Unicode-wide, as on Android). Scripts and blocks (`\p{IsLatin}`, `\p{InGreek}`) are
    /// refused: the standard library does not know them.
    private mutating func parseProperty(negated: Bool) throws(FormRegexError) -> ScalarSet {
        var name = ""
        if peek() == "{" {
            position += 1
            while let d = peek(), d != "}" {
                name.unicodeScalars.append(d)
                position += 1
            }
            guard peek() == "}" else { throw .invalid("a “\\p{” is not closed") }
            position += 1
        } else if let d = peek() {
            name.unicodeScalars.append(d)
            position += 1
        } else {
            throw .invalid("“\\p” names a class, as in \\p{L}")
        }
        guard let test = ScalarSet.property(named: name) else {
            throw .unsupported("\\p{\(name)} is not supported (general categories such as \\p{L} or \\p{Lu} are)")
        }
        var set = ScalarSet()
        set.tests = [(test, negated)]
        set.caseless = flags.caseless
        return set
    }

    // MARK: Escapes

    /// What `\c` means (with `c` consumed): a shorthand class, a character, or
    /// nothing (`\E` outside `\Q`). Throws for what Java refuses or survey does not run.
    private mutating func shorthandOrScalar(_ c: Unicode.Scalar) throws(FormRegexError) -> RegexEscape? {
        if let shorthand = ScalarSet.shorthand(c) {
            var set = shorthand
            set.caseless = flags.caseless
            return .set(set)
        }
        switch c {
        case "t": return .scalar("\t")
        case "n": return .scalar("\n")
        case "r": return .scalar("\r")
        case "f": return .scalar("\u{0C}")
        case "a": return .scalar("\u{07}")
        case "e": return .scalar("\u{1B}")
        case "E": return nil
        case "c":
            guard let x = peek(), x.value < 128 else { throw .invalid("“\\c” is followed by a letter, as in \\cM") }
            position += 1
            return .scalar(Unicode.Scalar(x.value ^ 64)!)
        case "0":
            // Java's octal: \0n, \0nn, \0mnn (m at most 3).
            var value: UInt32 = 0, digits = 0
            while digits < 3, let d = peek(), ("0"..."7").contains(d) {
                let next = value * 8 + (d.value - 48)
                if next > 0o377 { break }
                value = next
                digits += 1
                position += 1
            }
            guard digits > 0 else { throw .invalid("“\\0” is followed by octal digits, as in \\041") }
            return .scalar(Unicode.Scalar(value)!)
        case "x":
            if peek() == "{" {
                position += 1
                let start = position
                while let d = peek(), d.properties.isASCIIHexDigit { position += 1 }
                let digits = String(String.UnicodeScalarView(scalars[start..<position]))
                guard peek() == "}", !digits.isEmpty, digits.count <= 8, let v = UInt32(digits, radix: 16),
                      let scalar = Unicode.Scalar(v) else { throw .invalid("“\\x{…}” holds the hexadecimal code of a character") }
                position += 1
                return .scalar(scalar)
            }
            return .scalar(try hexadecimal(2, "“\\x” is followed by two hexadecimal digits"))
        case "u": return .scalar(try hexadecimal(4, "“\\u” is followed by four hexadecimal digits"))
        case "1"..."9": throw .unsupported("backreferences (such as \\1) are not supported")
        case "k": throw .unsupported("backreferences (such as \\k<name>) are not supported")
        case "G", "R", "X", "N": throw .unsupported("“\\\(Character(c))” is not supported")
        default:
            if c.properties.isAlphabetic || ("0"..."9").contains(c) {
                throw .invalid("“\\\(Character(c))” is not an escape a regular expression knows")
            }
            return .scalar(c)
        }
    }

    private mutating func hexadecimal(_ count: Int, _ message: String) throws(FormRegexError) -> Unicode.Scalar {
        guard position + count <= scalars.count,
              scalars[position..<position + count].allSatisfy(\.properties.isASCIIHexDigit),
              let v = UInt32(String(String.UnicodeScalarView(scalars[position..<position + count])), radix: 16),
              let scalar = Unicode.Scalar(v) else { throw .invalid(message) }
        position += count
        return scalar
    }

    // MARK: Helpers

    /// A character as written; under `(?i)`, a class of it and its other cases.
    private mutating func literal(_ c: Unicode.Scalar) -> RegexNode {
        guard flags.caseless, !ScalarSet.caseVariants(of: c).isEmpty else { return .scalar(c) }
        var set = ScalarSet()
        set.ranges = [c.value...c.value]
        set.caseless = true
        return .set(add(set))
    }

    private mutating func add(_ set: ScalarSet) -> Int {
        sets.append(set)
        return sets.count - 1
    }

    private func peek(_ offset: Int = 0) -> Unicode.Scalar? {
        position + offset < scalars.count ? scalars[position + offset] : nil
    }
}

/// What an escape means: a class (`\d`) or one character (`\t`, `\x41`, `\.`).
enum RegexEscape {
    case set(ScalarSet)
    case scalar(Unicode.Scalar)
}
