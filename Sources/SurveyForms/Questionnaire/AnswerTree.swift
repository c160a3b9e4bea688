import SurveyValues
/// A survey's answers as settling works on them: the top-level dictionary, a roster an array
/// of dictionaries under its name (`Record+Repeats`). Reading and writing by instance steps,
/// changing the nested values in place: each level's value is taken out of its container
/// before it is changed, so a change inside member 12 of 20 copies neither the roster nor
/// the member's other answers.
enum AnswerTree {
    typealias Answers = [String: PropertyValue]

    /// The answers of the instance `steps` lead to (the top level for none), nil when missing.
    static func instance(_ root: Answers, _ steps: ArraySlice<AnswerPath.Step>) -> Answers? {
        var current = root
        for step in steps {
            guard case .array(let items)? = current[step.name], items.indices.contains(step.index),
                  case .dictionary(let inner) = items[step.index] else { return nil }
            current = inner
        }
        return current
    }

    package static func value(_ root: Answers, _ steps: ArraySlice<AnswerPath.Step>, _ name: String) -> PropertyValue? {
        if steps.isEmpty { return root[name] }
        return instance(root, steps)?[name]
    }

    /// The instances of the repeat `name` in the instance `steps` lead to, as stored (only
    /// dictionaries count, as `Record.instances` reads them).
    static func count(_ root: Answers, _ steps: ArraySlice<AnswerPath.Step>, _ name: String) -> Int {
        guard case .array(let items)? = value(root, steps, name) else { return 0 }
        return items.reduce(0) { if case .dictionary = $1 { $0 + 1 } else { $0 } }
    }

    /// Stores (nil: removes) `value` under `name` in the instance `steps` lead to; false,
    /// changing nothing, when that instance is missing.
    @discardableResult
    static func set(_ value: PropertyValue?, _ name: String, at steps: ArraySlice<AnswerPath.Step>, in root: inout Answers) -> Bool {
        guard let step = steps.first else {
            root[name] = value
            return true
        }
        guard case .array(var items)? = root[step.name], items.indices.contains(step.index),
              case .dictionary(var inner) = items[step.index] else { return false }
        // Out of their containers, so each is changed where it lies, not copied.
        root[step.name] = .bool(false)
        items[step.index] = .bool(false)
        let done = set(value, name, at: steps.dropFirst(), in: &inner)
        items[step.index] = .dictionary(inner)
        root[step.name] = .array(items)
        return done
    }

    /// Appends empty instances of the repeat `name` until it has `count`; the steps of each.
    static func grow(_ name: String, at steps: [AnswerPath.Step], to count: Int, in root: inout Answers) -> [[AnswerPath.Step]] {
        guard var items: [PropertyValue] = {
            switch value(root, steps[...], name) {
            case nil: return []
            case .array(let items)?: return items.allSatisfy({ if case .dictionary = $0 { true } else { false } }) ? items : nil
            default: return nil   // another tool's value: never written over
            }
        }(), items.count < count, instance(root, steps[...]) != nil else { return [] }
        let first = items.count
        items += Array(repeating: .dictionary([:]), count: count - first)
        set(.array(items), name, at: steps[...], in: &root)
        return (first..<count).map { steps + [AnswerPath.Step(name: name, index: $0)] }
    }
}
