import FoundationEssentials
import SurveyValues

/// An ODK/XLSForm expression (`relevant`, `constraint`, `calculation`, `required`, `choice_filter`,
/// `instance_name`) parsed once, when the form is read, so an expression survey cannot evaluate
/// is reported at load with its sheet, row and column, never at random while someone is keying.
/// The subset is the XPath that real forms use: `.`, `${name}`, numbers and strings (straight
/// and typographic quotes), `+ - * div mod`, comparisons, `and or not()`, and ODK's functions
/// (`FormFunction.library`, which also checks each call's arguments here).
public indirect enum FormExpression: Equatable, Sendable {
    case number(Double)
    case string(String)
    /// `.`: the answer being checked (a constraint) or the current question.
    case current
    /// `..`, `../..`: the node that many levels up, read only by `position(..)` (which
    /// instance of a repeat the question is in).
    case parent(Int)
    /// `${name}`. As parsed, also a path into the form's own instance, which the reader
    /// turns into the key of the node it reaches, or into the empty string when it reaches
    /// none (`FormExpression+Paths.swift`): `/data/x`, `../x`, `./x`, a bare word as `./word`,
    /// `..` as `current()/..`, and `${rep}/x` under `${rep}[i]/x`.
    case field(String)
    case negate(FormExpression)
    case binary(Operator, FormExpression, FormExpression)
    case call(String, [FormExpression])
    /// A bare name in a `choice_filter` (`county = ${county}`): a column of the choice being
    /// judged, as ODK reads it (`name` is the choice's name).
    case choiceColumn(String)

    public enum Operator: String, Equatable, Sendable {
        case or, and
        case equal = "=", notEqual = "!=", less = "<", lessOrEqual = "<=", greater = ">", greaterOrEqual = ">="
        case plus = "+", minus = "-", times = "*", divide = "div", modulo = "mod"
    }

    /// Parses `text`; throws `FormExpressionError` naming what is wrong and where.
    public init(parsing text: String, choiceColumns: Bool = false) throws {
        var parser = FormExpressionParser(text)
        parser.allowsChoiceColumns = choiceColumns
        self = try parser.parseWhole()
    }

    /// Every `${name}` the expression reads, for the load-time check that each names a question
    /// and for the dependency graph: a question named in quotes where a function takes a
    /// question's reference (`jr:choice-name(${c}, '${c}')`) too.
    public var fieldReferences: [String] {
        switch self {
        case .number, .string, .current, .parent, .choiceColumn: return []
        case .field(let name): return [name]
        case .negate(let e): return e.fieldReferences
        case .binary(_, let a, let b): return a.fieldReferences + b.fieldReferences
        case .call(let name, let args):
            var names = args.flatMap(\.fieldReferences)
            for i in FormFunction.library[name]?.quotedQuestions ?? [] where i < args.count {
                if case .string(let text) = args[i], let question = FormCall.questionName(in: text) { names.append(question) }
            }
            return names
        }
    }

    /// The lists named by `instance('name')` and `pulldata('name', …)`: a choice list of
    /// the form, or a file beside it (`XLSForm.mediaFiles`).
    public var instanceNames: [String] {
        switch self {
        case .number, .string, .current, .parent, .choiceColumn, .field: return []
        case .negate(let e): return e.instanceNames
        case .binary(_, let a, let b): return a.instanceNames + b.instanceNames
        case .call(let name, let args):
            var names = args.flatMap(\.instanceNames)
            if name == "instance" || name == "pulldata", case .string(let list)? = args.first {
                names.append(list.trimmingWhitespace())
            }
            return names
        }
    }

    /// Whether it reads `.`, the question it belongs to.
    var readsCurrent: Bool {
        switch self {
        case .current: return true
        case .number, .string, .field, .parent, .choiceColumn: return false
        case .negate(let e): return e.readsCurrent
        case .binary(_, let a, let b): return a.readsCurrent || b.readsCurrent
        case .call(_, let args): return args.contains(where: \.readsCurrent)
        }
    }
}

public struct FormExpressionError: Error, Equatable, Sendable, CustomStringConvertible {
    public let message: String
    /// The text is not XPath at all (`£`, a lone `$`, a bracket not closed), as opposed to XPath
    /// survey does not read, a function it does not know or a form too deep to read: pyxform
    /// passes such text through unparsed, so the form opens with the rule unread
    /// (`XLSFormReader.parse`), where the others keep it from opening.
    public let malformed: Bool
    public init(_ message: String) { self.init(message, malformed: false) }
    init(_ message: String, malformed: Bool) {
        self.message = message
        self.malformed = malformed
    }
    static func malformed(_ message: String) -> FormExpressionError { FormExpressionError(message, malformed: true) }
    public var description: String { message }
}

/// Recursive descent over XPath 1.0's grammar (its section 3.4-3.5), lowest precedence
/// first: or < and < `= !=` < `< <= > >=` < `+ -` < `* div mod` < unary `-` < primary, each
/// binary level left-associative. So `-3 < 3 = 6 >= 6` is `(-3 < 3) = (6 >= 6)`, true, as in
/// XPath and JavaRosa. XPath's union `|` is not read (JavaRosa refuses it too): a rule with
/// one is left unread, as text that is not XPath (`FormExpressionError.malformed`).
struct FormExpressionParser {
    private let scalars: [Unicode.Scalar]
    var position = 0

    var allowsChoiceColumns = false
    /// Inside `${repeat}[…]`, where `position()` is the instance's place.
    var inRepeatPredicate = false
    /// Brackets, calls and signs open inside each other, and terms read so far: a hostile
    /// form (a million `(`, or `1 + 1 + …` for a megabyte) must be refused with a message,
    /// not overflow the stack when it is parsed, evaluated, compared or freed.
    var nesting = 0
    private var terms = 0
    static let maximumNesting = 64
    static let maximumTerms = 2_000
    init(_ text: String) { scalars = Array(text.unicodeScalars) }

    mutating func enter() throws {
        nesting += 1
        guard nesting <= Self.maximumNesting else {
            throw FormExpressionError("the expression nests more than \(Self.maximumNesting) levels deep")
        }
    }

    mutating func parseWhole() throws -> FormExpression {
        skipBlanks()
        guard position < scalars.count else { throw FormExpressionError.malformed("the expression is empty") }
        let expression = try parseOr()
        skipBlanks()
        guard position >= scalars.count else {
            throw FormExpressionError.malformed("unexpected “\(String(String.UnicodeScalarView(scalars[position...])))”")
        }
        return expression
    }

    mutating func parseOr() throws -> FormExpression {
        var left = try parseAnd()
        while takeWord("or") { left = .binary(.or, left, try parseAnd()) }
        return left
    }

    private mutating func parseAnd() throws -> FormExpression {
        var left = try parseEquality()
        while takeWord("and") { left = .binary(.and, left, try parseEquality()) }
        return left
    }

    /// XPath's EqualityExpr: `=` and `!=` bind more loosely than `<` and the others.
    private mutating func parseEquality() throws -> FormExpression {
        var left = try parseRelational()
        while true {
            let op: FormExpression.Operator
            if take("!=") { op = .notEqual }
            else if take("=") { op = .equal }
            else { return left }
            left = .binary(op, left, try parseRelational())
        }
    }

    /// XPath's RelationalExpr.
    private mutating func parseRelational() throws -> FormExpression {
        var left = try parseAdditive()
        while true {
            let op: FormExpression.Operator
            if take("<=") { op = .lessOrEqual }
            else if take(">=") { op = .greaterOrEqual }
            else if take("<") { op = .less }
            else if take(">") { op = .greater }
            else { return left }
            left = .binary(op, left, try parseAdditive())
        }
    }

    private mutating func parseAdditive() throws -> FormExpression {
        var left = try parseMultiplicative()
        while true {
            if take("+") { left = .binary(.plus, left, try parseMultiplicative()) }
            else if take("-") { left = .binary(.minus, left, try parseMultiplicative()) }
            else { return left }
        }
    }

    private mutating func parseMultiplicative() throws -> FormExpression {
        var left = try parseUnary()
        while true {
            if take("*") { left = .binary(.times, left, try parseUnary()) }
            else if takeWord("div") { left = .binary(.divide, left, try parseUnary()) }
            else if takeWord("mod") { left = .binary(.modulo, left, try parseUnary()) }
            else { return left }
        }
    }

    private mutating func parseUnary() throws -> FormExpression {
        if take("-") {
            try enter()
            defer { nesting -= 1 }
            return .negate(try parseUnary())
        }
        return try parsePrimary()
    }

    private mutating func parsePrimary() throws -> FormExpression {
        skipBlanks()
        guard let c = peek() else { throw FormExpressionError.malformed("the expression ends too early") }
        terms += 1
        guard terms <= Self.maximumTerms else {
            throw FormExpressionError("the expression has more than \(Self.maximumTerms) terms")
        }
        if c == "(" {
            position += 1
            try enter()
            defer { nesting -= 1 }
            let inner = try parseOr()
            guard take(")") else { throw FormExpressionError.malformed("a “(” is not closed") }
            return inner
        }
        if c == "$" {
            guard take("${") else { throw FormExpressionError.malformed("“$” must start ${name}") }
            let start = position
            while let d = peek(), d != "}" { position += 1 }
            let name = String(String.UnicodeScalarView(scalars[start..<position])).trimmingWhitespace()
            guard take("}") else { throw FormExpressionError.malformed("${\(name) is not closed with “}”") }
            guard !name.isEmpty else { throw FormExpressionError.malformed("${} names no question") }
            if peek() == "[" { return try parseRepeatPredicatePath(name) }
            return .field(name)
        }
        if c == "/" { return try parseAbsolutePath() }
        if let close = Self.closingQuote(for: c) {
            position += 1
            let start = position
            while let d = peek(), !close.contains(d) { position += 1 }
            guard position < scalars.count else { throw FormExpressionError.malformed("a quoted string is not closed") }
            let text = String(String.UnicodeScalarView(scalars[start..<position]))
            position += 1
            return .string(text)
        }
        if ("0"..."9").contains(c) || (c == "." && peek(1).map { ("0"..."9").contains($0) } == true) {
            let start = position
            while let d = peek(), ("0"..."9").contains(d) || d == "." { position += 1 }
            let text = String(String.UnicodeScalarView(scalars[start..<position]))
            guard let value = Double(text) else { throw FormExpressionError.malformed("“\(text)” is not a number") }
            return .number(value)
        }
        if c == "." {
            position += 1
            if peek() == "/", let next = peek(1), Self.isNameStart(next) { return try parseRelativePath(from: ".") }
            guard peek() == "." else { return .current }
            // `..`, `../..`: an argument of position(); `../name` a path (FormExpression+Paths).
            position += 1
            var levels = 1
            while peek() == "/", peek(1) == ".", peek(2) == "." {
                position += 3
                levels += 1
            }
            if peek() == "/", let next = peek(1), Self.isNameStart(next) {
                return try parseRelativePath(from: Array(repeating: "..", count: levels).joined(separator: "/"))
            }
            return .parent(levels)
        }
        if Self.isNameStart(c) {
            let start = position
            while let d = peek(), Self.isNameCharacter(d) { position += 1 }
            let name = String(String.UnicodeScalarView(scalars[start..<position]))
            skipBlanks()
            if name == "instance", peek() == "(" { return try parseInstancePath() }
            if name == "current", peek() == "(" { return try parseCurrentPath() }
            // In a predicate or a choice_filter, `position()` is the item's place in its list.
            if allowsChoiceColumns || inRepeatPredicate, name == "position" {
                let before = position
                if take("("), take(")") { return .choiceColumn(Self.positionColumn) }
                position = before   // `position(..)`: the function
            }
            if allowsChoiceColumns, peek() != "(" { return .choiceColumn(name) }
            // A bare word is what XPath makes of it, a path from the rule's own node (`./name`),
            // which the reader resolves (FormExpression+Paths.swift). In `${rep}[…]` it would be
            // a path from each instance, a filter this parser does not read.
            if peek() != "(", !inRepeatPredicate { return try parseRelativePath(from: "./" + name) }
            guard take("(") else { throw FormExpressionError("“\(name)” is not a function call (write ${\(name)} for a question)") }
            try enter()
            defer { nesting -= 1 }
            var arguments: [FormExpression] = []
            if !take(")") {
                repeat { arguments.append(try parseOr()) } while take(",")
                guard take(")") else { throw FormExpressionError.malformed("the call to \(name)() is not closed") }
            }
            try FormFunction.check(name, arguments)
            return .call(name, arguments)
        }
        throw FormExpressionError.malformed("unexpected “\(Character(c))”")
    }

    // MARK: Paths into secondary instances

    /// The column a predicate reads for `position()`: the item's 1-based place.
    static let positionColumn = "position()"

    /// `instance('list')/root/item[predicate]…/column`, as real forms write a lookup in a
    /// choice list or a file beside the form: the call `instance` with the list's name, the
    /// column (empty for the item itself) and each predicate, whose bare names are the item's
    /// columns (`name = ${q1}`) and a number its position (`[2]`).
    private mutating func parseInstancePath() throws -> FormExpression {
        guard take("(") else { throw FormExpressionError("instance() is not closed") }
        skipBlanks()
        guard let q = peek(), let close = Self.closingQuote(for: q) else {
            throw FormExpressionError("instance() takes the name of a list in quotes, as in instance('fruits')")
        }
        position += 1
        let start = position
        while let d = peek(), !close.contains(d) { position += 1 }
        guard position < scalars.count else { throw FormExpressionError.malformed("a quoted string is not closed") }
        let list = String(String.UnicodeScalarView(scalars[start..<position]))
        position += 1
        guard take(")") else { throw FormExpressionError("instance('\(list)') takes one argument") }
        let shape = "instance('\(list)') is read as instance('\(list)')/root/item[name = ${q}]/label"
        guard take("/"), takeName() == "root", take("/"), takeName() == "item" else { throw FormExpressionError(shape) }
        var predicates: [FormExpression] = []
        while take("[") {
            try enter()
            let outer = allowsChoiceColumns
            allowsChoiceColumns = true
            let predicate = try parseOr()
            allowsChoiceColumns = outer
            nesting -= 1
            guard take("]") else { throw FormExpressionError.malformed("a “[” is not closed") }
            predicates.append(predicate)
        }
        var column = ""
        if take("/") {
            column = takeName()
            guard !column.isEmpty else { throw FormExpressionError(shape) }
        }
        return .call("instance", [.string(list), .string(column)] + predicates)
    }

    /// `current()/../name`: the question `name` beside the one being asked, as pyxform
    /// writes `${name}` inside a repeat's predicate or choice_filter.
    private mutating func parseCurrentPath() throws -> FormExpression {
        guard take("("), take(")"), take("/"), take("..") else {
            throw FormExpressionError("current() is read as current()/../name, a question beside this one")
        }
        // `current()/..`, `current()/../..`: the node that many levels up (position()'s argument).
        var up = [".."]
        while peek() == "/", peek(1) == ".", peek(2) == "." {
            position += 3
            up.append("..")
        }
        if up.count > 1, peek() == "/", let next = peek(1), Self.isNameStart(next) {
            return try parseRelativePath(from: up.joined(separator: "/"))
        }
        if up.count > 1 || peek() != "/" { return .field(up.joined(separator: "/")) }
        guard take("/") else {
            throw FormExpressionError("current() is read as current()/../name, a question beside this one")
        }
        let name = takeName()
        guard !name.isEmpty else { throw FormExpressionError("current() is read as current()/../name, a question beside this one") }
        return .field(name)
    }

    /// An XML name at the position (empty when there is none).
    mutating func takeName() -> String {
        skipBlanks()
        let start = position
        while let d = peek(), d != ":" && Self.isNameCharacter(d) { position += 1 }
        return String(String.UnicodeScalarView(scalars[start..<position]))
    }

    // MARK: Scanning

    /// Straight quotes, and the typographic ones word processors put into real forms.
    private static func closingQuote(for c: Unicode.Scalar) -> Set<Unicode.Scalar>? {
        switch c {
        case "'": return ["'"]
        case "\"": return ["\""]
        case "\u{2018}", "\u{2019}": return ["\u{2019}", "\u{2018}"]
        case "\u{201C}", "\u{201D}": return ["\u{201D}", "\u{201C}"]
        default: return nil
        }
    }

    static func isNameStart(_ c: Unicode.Scalar) -> Bool { c.properties.isAlphabetic || c == "_" }
    /// `:` for namespaced functions (`jr:choice-name`).
    static func isNameCharacter(_ c: Unicode.Scalar) -> Bool {
        c.properties.isAlphabetic || ("0"..."9").contains(c) || c == "_" || c == "-" || c == "." || c == ":"
    }

    func peek(_ offset: Int = 0) -> Unicode.Scalar? {
        position + offset < scalars.count ? scalars[position + offset] : nil
    }

    mutating func skipBlanks() {
        while let c = peek(), c.properties.isWhitespace { position += 1 }
    }

    mutating func take(_ token: String) -> Bool {
        skipBlanks()
        let t = Array(token.unicodeScalars)
        guard position + t.count <= scalars.count, Array(scalars[position..<position + t.count]) == t else { return false }
        position += t.count
        return true
    }

    /// An operator word (`and`, `div`) only when it stands alone, so `${android}` and a
    /// function named `order()` are not read as `and` or `or`.
    private mutating func takeWord(_ word: String) -> Bool {
        skipBlanks()
        let w = Array(word.unicodeScalars)
        guard position + w.count <= scalars.count, Array(scalars[position..<position + w.count]) == w else { return false }
        if let next = (position + w.count < scalars.count ? scalars[position + w.count] : nil),
           Self.isNameCharacter(next) || next == "(" { return false }
        position += w.count
        return true
    }
}
