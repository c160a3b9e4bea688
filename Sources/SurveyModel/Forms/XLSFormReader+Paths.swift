import FoundationEssentials

/// The paths into the form's own instance a rule may write (`/data/x`, `../total`,
/// `current()/../..`, `${rep}[2]/x`; `FormExpression+Paths.swift`), turned into the key of the
/// node each reaches, once the rows are nested and keyed: from then on a path is a `${name}`
/// like any other (checked, in the dependency graph, read as pyxform's binds read names). A
/// path that reaches no question is refused with its text, where JavaRosa would quietly read
/// nothing. `position()` of a path up to a repeat instance (`position(current()/../..)`) is
/// `position(..)` of that repeat.
extension XLSFormReader {
    mutating func resolvePaths(_ form: inout XLSForm) {
        let root = "/" + form.rootName
        let nodes = FormNode.nodes(form.questions, under: root, repeats: []).flatMap(\.descendants)
        let resolver = PathResolver(root: root, byPath: Dictionary(nodes.map { ($0.path, $0) }, uniquingKeysWith: { a, _ in a }),
                                    repeats: Dictionary(nodes.filter { $0.kind == .repeat }.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a }))
        resolveRows(&form.questions, under: root, resolver)
        if let name = form.instanceName {
            form.instanceName = resolve(name, at: root, resolver, sheet: "settings", row: nil, column: "instance_name")
        }
    }

    private mutating func resolveRows(_ rows: inout [XLSForm.Question], under parent: String, _ resolver: PathResolver) {
        var groups: [String] = []
        for i in rows.indices {
            let q = rows[i]
            if q.kind == .endGroup { _ = groups.popLast(); continue }
            let here = ([parent] + groups + [FormNode.element(q.name)]).joined(separator: "/")
            for (column, path) in [("required", \XLSForm.Question.required), ("constraint", \.constraint), ("relevant", \.relevant),
                                   ("calculation", \.calculation), ("choice_filter", \.choiceFilter), ("repeat_count", \.repeatCount)] {
                if let expression = q[keyPath: path], expression.readsPath {
                    rows[i][keyPath: path] = resolve(expression, at: here, resolver, sheet: "survey", row: q.row, column: column)
                }
            }
            if let expression = q.dynamicDefault, expression.readsPath {
                rows[i].resolvedDefault = resolve(expression, at: here, resolver, sheet: "survey", row: q.row, column: "default")
            }
            if q.kind == .beginGroup { groups.append(q.name) }
            if q.kind == .beginRepeat { resolveRows(&rows[i].children, under: here, resolver) }
        }
    }

    /// `expression` with its paths made keys; nil (and why) when one reaches no question.
    private mutating func resolve(_ expression: FormExpression, at node: String, _ resolver: PathResolver,
                                  sheet: String, row: Int?, column: String) -> FormExpression? {
        do {
            return try resolver.resolve(expression, at: node)
        } catch {
            errors.append(XLSFormProblem(sheet: sheet, row: row, column: column, message: "\(error)"))
            return nil
        }
    }
}

/// The form's nodes by XForm path, and its repeats by key.
private struct PathResolver {
    let root: String
    let byPath: [String: FormNode]
    let repeats: [String: FormNode]

    func resolve(_ expression: FormExpression, at node: String) throws -> FormExpression {
        switch expression {
        case .field(let path) where FormExpression.isPath(path):
            guard let target = byPath[try absolute(path, at: node)], target.kind != .group else {
                throw FormExpressionError("the path \(path) reaches no question of the form")
            }
            return .field(target.name)
        case .call("position", let arguments) where arguments.count == 1:
            guard case .field(let path) = arguments[0], FormExpression.isPath(path) else { return expression }
            // The instance's place: `position(..)` counted in repeats from the rule's own node.
            let target = try absolute(path, at: node)
            let chain = byPath[node]?.repeats ?? []
            guard let reached = byPath[target], reached.kind == .repeat, let depth = chain.firstIndex(of: reached.name) else {
                return .call("position", [])   // not a repeat instance: the first of its name
            }
            return .call("position", [.parent(chain.count - depth)])
        case .negate(let e):
            return .negate(try resolve(e, at: node))
        case .binary(let op, let a, let b):
            return .binary(op, try resolve(a, at: node), try resolve(b, at: node))
        case .call(let name, let arguments):
            return .call(name, try arguments.map { try resolve($0, at: node) })
        default:
            return expression
        }
    }

    /// The XForm path `path` names, read from `node` (the root's name may be any: pyxform
    /// does not check it).
    func absolute(_ path: String, at node: String) throws -> String {
        var steps = path.split(separator: "/").map(String.init)
        var current = node
        if path.hasPrefix("/") {
            current = root
            steps.removeFirst()
        } else if path.hasPrefix("${") {
            let name = String(steps.removeFirst().dropFirst(2).dropLast())
            guard let repeatNode = repeats[name] else { throw FormExpressionError("${\(name)}[…] is not a repeat of the form") }
            current = repeatNode.path
        }
        for step in steps {
            switch step {
            case ".": continue
            case "..":
                guard let cut = current.lastIndex(of: "/"), cut != current.startIndex else {
                    throw FormExpressionError("the path \(path) goes above the form's root")
                }
                current = String(current[..<cut])
            default:
                current += "/" + step
            }
        }
        return current
    }
}

extension FormExpression {
    /// Whether it holds a path the reader has still to resolve.
    var readsPath: Bool {
        switch self {
        case .field(let reference): return Self.isPath(reference)
        case .negate(let e): return e.readsPath
        case .binary(_, let a, let b): return a.readsPath || b.readsPath
        case .call(_, let arguments): return arguments.contains(where: \.readsPath)
        default: return false
        }
    }
}
