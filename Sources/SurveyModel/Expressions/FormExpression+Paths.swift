import FoundationEssentials

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
    /// `/root/a/b`, after the leading `/` is seen.
    mutating func parseAbsolutePath() throws -> FormExpression {
        var steps: [String] = []
        while take("/") {
            let step = takeName()
            guard !step.isEmpty else { throw FormExpressionError("a path step has no name after “/”") }
            steps.append(step)
        }
        guard steps.count >= 2 else { throw FormExpressionError("the path /\(steps.joined()) names no question below the form's root") }
        return .field("/" + steps.joined(separator: "/"))
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
            guard !step.isEmpty else { throw FormExpressionError("a path step has no name after “/”") }
            steps.append(step)
        }
        return .field(steps.joined(separator: "/"))
    }

    /// `${rep}[predicate]/a/b`, after `${rep}`: the predicate is the instance's place, either
    /// a number (`[2]`, `[number(${i})]`) or `position() = …`.
    mutating func parseRepeatPredicatePath(_ repeatName: String) throws -> FormExpression {
        let shape = "${\(repeatName)}[…] is read as ${\(repeatName)}[2]/name or ${\(repeatName)}[position() = …]/name"
        guard take("[") else { throw FormExpressionError(shape) }
        try enter()
        let outer = inRepeatPredicate
        inRepeatPredicate = true
        let predicate = try parseOr()
        inRepeatPredicate = outer
        nesting -= 1
        guard take("]") else { throw FormExpressionError("a “[” is not closed") }
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
