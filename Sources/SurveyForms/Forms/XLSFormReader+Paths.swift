import FoundationEssentials
import SurveyValues

/// The paths into the form's own instance a rule may write (`/data/x`, `../total`,
/// `current()/../..`, `${rep}[2]/x`, and a bare word, `./word`; `FormExpression+Paths.swift`),
/// turned into the key of the node each reaches, once the rows are nested and keyed: from then
/// on a path is a `${name}` like any other (checked, in the dependency graph, read as pyxform's
/// binds read names). A path that reaches no question reads nothing (the empty string, NaN as
/// a number), as JavaRosa reads an empty node-set, and the designer is warned with its text;
/// a bare word below a question's own node is the common case (`name = ${crop}` written for
/// a choice_filter in a calculation). `position()` of a path up to a repeat instance
/// (`position(current()/../..)`) is `position(..)` of that repeat.
extension XLSFormReader {
    mutating func resolvePaths(_ form: inout XLSForm) {
        let root = "/" + form.rootName
        let nodes = FormNode.nodes(form.questions, under: root, repeats: []).flatMap(\.descendants)
        let resolver = PathResolver(root: root, byPath: Dictionary(nodes.map { ($0.path, $0) }, uniquingKeysWith: { a, _ in a }),
                                    repeats: Dictionary(nodes.filter { $0.kind == .repeat }.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a }))
        resolveRows(&form.questions, under: root, resolver)
        if let name = form.instanceName, name.readsPath {
            // pyxform binds the instance name to `meta/instanceName`: its paths start there.
            form.instanceName = resolve(name, at: root + "/meta/instanceName", resolver, sheet: "settings", row: instanceNameRow,
                                        column: "instance_name", below: "the instance name (meta/instanceName)")
        }
    }

    /// The paths of each entity's expressions, read from where pyxform binds them: its
    /// `meta/entity` node in the container it is allocated to (`…/meta/entity/label`; its
    /// attributes, `@id`, `@create`, `@update`, read from the same level). A bare word
    /// (pyxform's tests write labels as `E1`) reads nothing there, as in Collect: a warning.
    mutating func resolveEntityPaths(_ form: inout XLSForm) {
        let root = "/" + form.rootName
        let nodes = FormNode.nodes(form.questions, under: root, repeats: []).flatMap(\.descendants)
        let resolver = PathResolver(root: root, byPath: Dictionary(nodes.map { ($0.path, $0) }, uniquingKeysWith: { a, _ in a }),
                                    repeats: Dictionary(nodes.filter { $0.kind == .repeat }.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a }))
        for i in form.entities.indices {
            let entity = form.entities[i]
            let here = ([root] + entity.container.map(FormNode.element) + ["meta", "entity"]).joined(separator: "/")
            for (column, path) in [("label", \EntityDeclaration.label), ("entity_id", \.entityID), ("create_if", \.createIf),
                                   ("update_if", \.updateIf)] {
                guard let expression = entity[keyPath: path], expression.readsPath else { continue }
                form.entities[i][keyPath: path] = resolve(expression, at: here + "/" + (column == "label" ? "label" : column),
                                                          resolver, sheet: "entities", row: entity.row, column: column,
                                                          below: "the entity (meta/entity)")
            }
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

    /// `expression` with its paths made keys, and a warning for each that reads nothing.
    private mutating func resolve(_ expression: FormExpression, at node: String, _ resolver: PathResolver,
                                  sheet: String, row: Int?, column: String, below: String = "this question") -> FormExpression {
        var unread: [PathResolver.Unread] = []
        let resolved = resolver.resolve(expression, at: node, unread: &unread)
        for path in unread {
            let message: String
            switch path {
            case .bareWord(let word):
                message = "“\(word)” reads nothing: a bare word is a path below \(below); write ${\(word)} for a question"
            case .path(let text, let why):
                message = "the path \(text) \(why): it reads nothing"
            }
            warnings.append(XLSFormProblem(sheet: sheet, row: row, column: column, message: message))
        }
        return resolved
    }
}

/// The form's nodes by XForm path, and its repeats by key.
private struct PathResolver {
    let root: String
    let byPath: [String: FormNode]
    let repeats: [String: FormNode]

    /// A path that reaches no question, for the designer's warning.
    enum Unread: Equatable {
        /// `word`, written bare (`./word` as parsed).
        case bareWord(String)
        /// The path as written, and why it reaches nothing.
        case path(String, String)
    }

    /// What XPath reads where a path reaches no node: an empty node-set, the empty string.
    static let nothing = FormExpression.string("")

    func resolve(_ expression: FormExpression, at node: String, unread: inout [Unread]) -> FormExpression {
        switch expression {
        case .field(let path) where FormExpression.isPath(path):
            let target: String
            do { target = try absolute(path, at: node) } catch {
                unread.append(Self.unread(path, because: "\(error)"))
                return Self.nothing
            }
            guard let reached = byPath[target], reached.kind != .group else {
                unread.append(Self.unread(path, because: "reaches no question of the form"))
                return Self.nothing
            }
            return .field(reached.name)
        case .call("position", let arguments) where arguments.count == 1:
            guard case .field(let path) = arguments[0], FormExpression.isPath(path) else { return expression }
            // The instance's place: `position(..)` counted in repeats from the rule's own node.
            let chain = byPath[node]?.repeats ?? []
            guard let target = try? absolute(path, at: node), let reached = byPath[target], reached.kind == .repeat,
                  let depth = chain.firstIndex(of: reached.name) else {
                return .call("position", [])   // not a repeat instance: the first of its name
            }
            return .call("position", [.parent(chain.count - depth)])
        case .call("indexed-repeat", let arguments):
            // `${rep}[i]/x` to no question reads nothing as a whole, not instance i of nothing.
            var inner: [Unread] = []
            let resolved = arguments.map { resolve($0, at: node, unread: &inner) }
            unread += inner
            return inner.isEmpty ? .call("indexed-repeat", resolved) : Self.nothing
        case .negate(let e):
            return .negate(resolve(e, at: node, unread: &unread))
        case .binary(let op, let a, let b):
            return .binary(op, resolve(a, at: node, unread: &unread), resolve(b, at: node, unread: &unread))
        case .call(let name, let arguments):
            return .call(name, arguments.map { resolve($0, at: node, unread: &unread) })
        default:
            return expression
        }
    }

    private static func unread(_ path: String, because why: String) -> Unread {
        let steps = path.split(separator: "/")
        if path.hasPrefix("./"), steps.count == 2 { return .bareWord(String(steps[1])) }
        return .path(path, why)
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
            guard let repeatNode = repeats[name] else { throw FormExpressionError("names ${\(name)}[…], which is not a repeat of the form") }
            current = repeatNode.path
        }
        for step in steps {
            switch step {
            case ".": continue
            case "..":
                guard let cut = current.lastIndex(of: "/"), cut != current.startIndex else {
                    throw FormExpressionError("goes above the form's root")
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
