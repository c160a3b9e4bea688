import FoundationEssentials
import SurveyValues

/// XPath paths into the form's own instance, as pyxform passes them through to the XForm:
/// absolute (`/data/group/x`, any root name, as pyxform does not check it), relative to the
/// node the rule belongs to (`../total`, `./x`, `current()/../..`), and one instance of a
/// repeat (`${rep}[2]/x`, `${rep}[position() = position(..) - 1]/group/x`).
///
/// The parser does not know where the rule stands, so it keeps a path as `.field` of its text
/// (a key never starts with `/`, `.` or `$`); the reader, which knows each row's node, turns
/// it into the key of the question it reaches, or refuses it naming the path
/// (`XLSFormReader+Paths.swift`). `${rep}[i]/x` is `indexed-repeat(x, rep, i)`, which is
/// what it means: the answer `x` of instance `i`.
extension FormExpressionParser {
    /// `/root/a/b`, after the leading `/` is seen. A predicate on the root
    /// (`/data[position() = ${i}]/x`) picks the one root there is or none: the path is read
    /// when it holds of position 1 (`if(…, /data/x, '')`).
    mutating func parseAbsolutePath() throws -> FormExpression {
        var steps: [String] = []
        var rootPredicate: FormExpression?
        while take("/") {
            let step = takeName()
            guard !step.isEmpty else { throw FormExpressionError.malformed("a path step has no name after “/”") }
            steps.append(step)
            if steps.count == 1, peek() == "[" { rootPredicate = try parsePredicate() }
        }
        guard steps.count >= 2 else { throw FormExpressionError("the path /\(steps.joined()) names no question below the form's root") }
        let path = FormExpression.field("/" + steps.joined(separator: "/"))
        guard let rootPredicate else { return path }
        return .call("if", [Self.holdsAtFirstPosition(rootPredicate), path, .string("")])
    }

    /// `[predicate]`, in which `position()` is the place of the node it filters.
    private mutating func parsePredicate() throws -> FormExpression {
        guard take("[") else { throw FormExpressionError.malformed("a “[” is expected") }
        try enter()
        let outer = inRepeatPredicate
        inRepeatPredicate = true
        let predicate = try parseOr()
        inRepeatPredicate = outer
        nesting -= 1
        guard take("]") else { throw FormExpressionError.malformed("a “[” is not closed") }
        return predicate
    }

    /// Whether `predicate` keeps the first (and only) node: a number is a position, as in
    /// XPath (`[1]`), anything else a condition with `position()` 1.
    private static func holdsAtFirstPosition(_ predicate: FormExpression) -> FormExpression {
        func atFirst(_ e: FormExpression) -> FormExpression {
            switch e {
            case .choiceColumn(FormExpressionParser.positionColumn): return .number(1)
            case .negate(let inner): return .negate(atFirst(inner))
            case .binary(let op, let a, let b): return .binary(op, atFirst(a), atFirst(b))
            case .call(let name, let arguments): return .call(name, arguments.map(atFirst))
            default: return e
            }
        }
        let condition = atFirst(predicate)
        switch condition {
        case .number, .negate, .binary(.plus, _, _), .binary(.minus, _, _), .binary(.times, _, _), .binary(.divide, _, _),
             .binary(.modulo, _, _):
            return .binary(.equal, condition, .number(1))
        default:
            return condition
        }
    }

    /// `start/a/b`, where `start` (`.`, `..`, `../..`) is read and a `/name` follows.
    mutating func parseRelativePath(from start: String) throws -> FormExpression {
        var steps = [start]
        while peek() == "/" {
            position += 1
            if peek() == ".", peek(1) == "." {
                position += 2
                steps.append("..")
                continue
            }
            let step = takeName()
            guard !step.isEmpty else { throw FormExpressionError.malformed("a path step has no name after “/”") }
            steps.append(step)
        }
        return .field(steps.joined(separator: "/"))
    }

    /// `${rep}[predicate]/a/b`, after `${rep}`: the predicate is the instance's place, either
    /// a number (`[2]`, `[number(${i})]`) or `position() = …`.
    mutating func parseRepeatPredicatePath(_ repeatName: String) throws -> FormExpression {
        let shape = "${\(repeatName)}[…] is read as ${\(repeatName)}[2]/name or ${\(repeatName)}[position() = …]/name"
        skipBlanks()
        guard peek() == "[" else { throw FormExpressionError(shape) }
        let predicate = try parsePredicate()
        let place = FormExpression.choiceColumn(Self.positionColumn)
        let index: FormExpression
        switch predicate {
        case .binary(.equal, place, let other) where !other.readsPosition, .binary(.equal, let other, place) where !other.readsPosition:
            index = other
        case let other where !other.readsPosition:
            index = other
        default:
            throw FormExpressionError(shape)
        }
        var steps: [String] = []
        while peek() == "/" {
            position += 1
            let step = takeName()
            guard !step.isEmpty else { throw FormExpressionError(shape) }
            steps.append(step)
        }
        guard !steps.isEmpty else { throw FormExpressionError(shape) }
        return .call("indexed-repeat", [.field("${\(repeatName)}/" + steps.joined(separator: "/")), .field(repeatName), index])
    }
}

extension FormExpression {
    /// Whether a `.field` holds a path the reader has still to resolve.
    static func isPath(_ reference: String) -> Bool {
        reference.hasPrefix("/") || reference.hasPrefix(".") || reference.hasPrefix("${")
    }

    /// Whether it reads `position()` of a predicate (the instance's place).
    fileprivate var readsPosition: Bool {
        switch self {
        case .choiceColumn(let column): return column == FormExpressionParser.positionColumn
        case .negate(let e): return e.readsPosition
        case .binary(_, let a, let b): return a.readsPosition || b.readsPosition
        case .call(_, let arguments): return arguments.contains(where: \.readsPosition)
        default: return false
        }
    }
}
