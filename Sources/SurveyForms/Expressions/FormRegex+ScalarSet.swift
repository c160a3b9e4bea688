import FoundationEssentials
import SurveyValues

/// A set of characters a pattern step accepts: ranges of scalars and tests of Unicode
/// properties, possibly negated and case-insensitive. The shorthands mean what they mean on
/// Android, where Collect runs forms (ICU, Unicode-wide): `\d` any decimal digit, `\w` letters,
/// marks, digits and connectors, `\s` Unicode white space; and what they meant here before.
struct ScalarSet: Sendable {
    enum Test: Sendable {
        case categories([Unicode.GeneralCategory])
        case digit, word, whitespace, horizontalSpace, verticalSpace, lineTerminator
        case alphabetic, lowercase, uppercase, alphanumeric, hexDigit, ascii

        func holds(for c: Unicode.Scalar) -> Bool {
            switch self {
            case .categories(let list): return list.contains(c.properties.generalCategory)
            case .digit: return c.properties.generalCategory == .decimalNumber
            case .word: return ScalarSet.isWord(c)
            case .whitespace: return c.properties.isWhitespace
            case .horizontalSpace: return c == "\t" || c.properties.generalCategory == .spaceSeparator
            case .verticalSpace: return (0x0A...0x0D).contains(c.value) || c.value == 0x85 || c.value == 0x2028 || c.value == 0x2029
            case .lineTerminator: return ScalarSet.isLineTerminator(c)
            case .alphabetic: return c.properties.isAlphabetic
            case .lowercase: return c.properties.isLowercase
            case .uppercase: return c.properties.isUppercase
            case .alphanumeric: return c.properties.isAlphabetic || c.properties.generalCategory == .decimalNumber
            case .hexDigit: return c.properties.isHexDigit || c.properties.generalCategory == .decimalNumber
            case .ascii: return c.value < 0x80
            }
        }
    }

    var ranges: [ClosedRange<UInt32>] = []
    var tests: [(test: Test, negated: Bool)] = []
    var negated = false
    /// Under `(?i)`: a character also matches when another case of it is in the set
    /// (Unicode-wide, as Android's Pattern always folds).
    var caseless = false

    func contains(_ c: Unicode.Scalar) -> Bool {
        var hit = holds(c)
        if !hit, caseless { hit = Self.caseVariants(of: c).contains(where: holds) }
        return hit != negated
    }

    private func holds(_ c: Unicode.Scalar) -> Bool {
        let v = c.value
        for range in ranges where range.contains(v) { return true }
        for (test, negated) in tests where test.holds(for: c) != negated { return true }
        return false
    }

    /// Adds what `other` accepts: a shorthand or property inside a class, whose negation
    /// (`\D`, `\P{L}`) is in its test, never in the set.
    mutating func merge(_ other: ScalarSet) {
        precondition(!other.negated)
        ranges += other.ranges
        tests += other.tests
    }

    /// `\d \D \w \W \s \S \h \H \v \V`; nil for any other letter.
    static func shorthand(_ c: Unicode.Scalar) -> ScalarSet? {
        let test: Test
        switch c {
        case "d", "D": test = .digit
        case "w", "W": test = .word
        case "s", "S": test = .whitespace
        case "h", "H": test = .horizontalSpace
        case "v", "V": test = .verticalSpace
        default: return nil
        }
        var set = ScalarSet()
        set.tests = [(test, c.properties.isUppercase)]
        return set
    }

    /// The test `\p{name}` names: a general category by its short name (`L`, `Lu`, `Nd`…),
    /// with Java's optional `Is`, `gc=` or `general_category=` before it, or one of the POSIX
    /// and binary property names Java reads there.
    static func property(named raw: String) -> Test? {
        var name = raw
        for prefix in ["general_category=", "gc=", "Is"] where name.hasPrefix(prefix) {
            name = String(name.dropFirst(prefix.count))
            break
        }
        if let list = categories[name] { return .categories(list) }
        switch name {
        case "Alpha", "Alphabetic": return .alphabetic
        case "Lower", "Lowercase": return .lowercase
        case "Upper", "Uppercase": return .uppercase
        case "Digit": return .digit
        case "Alnum": return .alphanumeric
        case "Punct", "Punctuation": return categories["P"].map(Test.categories)
        case "Space", "White_Space", "WhiteSpace": return .whitespace
        case "Cntrl", "Control": return .categories([.control])
        case "XDigit": return .hexDigit
        case "ASCII": return .ascii
        default: return nil
        }
    }

    private static let categories: [String: [Unicode.GeneralCategory]] = {
        let table: [String: [Unicode.GeneralCategory]] = [
            "Lu": [.uppercaseLetter], "Ll": [.lowercaseLetter], "Lt": [.titlecaseLetter],
            "Lm": [.modifierLetter], "Lo": [.otherLetter],
            "Mn": [.nonspacingMark], "Mc": [.spacingMark], "Me": [.enclosingMark],
            "Nd": [.decimalNumber], "Nl": [.letterNumber], "No": [.otherNumber],
            "Pc": [.connectorPunctuation], "Pd": [.dashPunctuation], "Ps": [.openPunctuation],
            "Pe": [.closePunctuation], "Pi": [.initialPunctuation], "Pf": [.finalPunctuation],
            "Po": [.otherPunctuation],
            "Sm": [.mathSymbol], "Sc": [.currencySymbol], "Sk": [.modifierSymbol], "So": [.otherSymbol],
            "Zs": [.spaceSeparator], "Zl": [.lineSeparator], "Zp": [.paragraphSeparator],
            "Cc": [.control], "Cf": [.format], "Cs": [.surrogate], "Co": [.privateUse], "Cn": [.unassigned],
        ]
        var all = table
        for major in ["L", "M", "N", "P", "S", "Z", "C"] {
            all[major] = table.filter { $0.key.hasPrefix(major) }.sorted { $0.key < $1.key }.flatMap(\.value)
        }
        all["LC"] = [.uppercaseLetter, .lowercaseLetter, .titlecaseLetter]
        all["L&"] = all["LC"]
        return all
    }()

    /// ICU's word characters, which `\w` and `\b` use: alphabetic, marks, decimal digits,
    /// connector punctuation (`_`), and the two joiners.
    static func isWord(_ c: Unicode.Scalar) -> Bool {
        if c.value < 0x80 {
            let v = c.value
            return (0x30...0x39).contains(v) || (0x41...0x5A).contains(v) || (0x61...0x7A).contains(v) || v == 0x5F
        }
        switch c.properties.generalCategory {
        case .nonspacingMark, .spacingMark, .enclosingMark, .decimalNumber, .connectorPunctuation: return true
        default: return c.properties.isAlphabetic || c.value == 0x200C || c.value == 0x200D
        }
    }

    /// Java's line terminators, which `.` does not match and `$` may stand before.
    static func isLineTerminator(_ c: Unicode.Scalar) -> Bool {
        c == "\n" || c == "\r" || c.value == 0x85 || c.value == 0x2028 || c.value == 0x2029
    }

    /// The other cases of `c`, each a single scalar (`é` for `É`; none for a digit).
    static func caseVariants(of c: Unicode.Scalar) -> [Unicode.Scalar] {
        if c.value < 0x80 {
            let v = c.value
            if (0x41...0x5A).contains(v) { return [Unicode.Scalar(v + 32)!] }
            if (0x61...0x7A).contains(v) { return [Unicode.Scalar(v - 32)!] }
            return []
        }
        var found: [Unicode.Scalar] = []
        for mapping in [c.properties.lowercaseMapping, c.properties.uppercaseMapping, c.properties.titlecaseMapping] {
            let scalars = mapping.unicodeScalars
            if scalars.count == 1, let other = scalars.first, other != c, !found.contains(other) { found.append(other) }
        }
        return found
    }
}
