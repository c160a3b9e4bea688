/// A survey's answers addressed by path. A repeat's instances are kept under the repeat's
/// name as an array of dictionaries, one per instance, nested repeats inside their instance:
/// `member = [{name = Ana; age = 34}, {name = Bo}]`, which the property-list file, plistlib
/// and every plist tool already hold, so nothing about the file changes. A repeat with no
/// instance has no key, so a survey that never used its roster reads as a flat one.
///
/// Each change reads and writes only the one key it touches at the top level, and leaves
/// everything else in the survey as it was. A change whose instance is missing, or whose
/// repeat's key holds something else than a list of dictionaries (written by another tool),
/// changes nothing and says so (false or nil), so no one's data is ever overwritten.
extension Record {
    /// The answer at `path`, nil when it or its instance is missing.
    public func value(at path: AnswerPath) -> PropertyValue? {
        guard let first = path.steps.first else { return self[path.name] }
        var scope = Self.instance(self[first.name], at: first.index)
        for step in path.steps.dropFirst() { scope = Self.instance(scope?[step.name], at: step.index) }
        return scope?[path.name]
    }

    /// Stores (nil: removes) the answer at `path`; false when its instance is missing.
    @discardableResult
    public mutating func setValue(_ value: PropertyValue?, at path: AnswerPath) -> Bool {
        update(path.name, in: path.steps) { $0 = value; return true }
    }

    /// The answers of each instance of the repeat `name` inside the instance `parent` leads to
    /// (none: the survey's top level), in order.
    public func instances(of name: String, in parent: [AnswerPath.Step] = []) -> [[String: PropertyValue]] {
        let value = parent.isEmpty ? self[name] : self.value(at: AnswerPath(parent, name))
        guard case .array(let items)? = value else { return [] }
        return items.compactMap { if case .dictionary(let answers) = $0 { answers } else { nil } }
    }

    public func instanceCount(of name: String, in parent: [AnswerPath.Step] = []) -> Int {
        instances(of: name, in: parent).count
    }

    /// Adds an instance of the repeat `name` (with `answers`, usually none yet) at `index`
    /// (nil: after the last); its index, or nil when its parent instance is missing.
    @discardableResult
    public mutating func insertInstance(of name: String, in parent: [AnswerPath.Step] = [], at index: Int? = nil,
                                        answers: [String: PropertyValue] = [:]) -> Int? {
        var placed: Int?
        _ = update(name, in: parent) { value in
            guard var items = Self.instanceList(value) else { return false }
            let at = min(max(index ?? items.count, 0), items.count)
            items.insert(.dictionary(answers), at: at)
            value = .array(items)
            placed = at
            return true
        }
        return placed
    }

    /// Removes the instance `steps` leads to (its last step), returning its answers (for
    /// undo), or nil when it is missing. The repeat's key goes with its last instance.
    @discardableResult
    public mutating func removeInstance(at steps: [AnswerPath.Step]) -> [String: PropertyValue]? {
        guard let last = steps.last else { return nil }
        var removed: [String: PropertyValue]?
        _ = update(last.name, in: Array(steps.dropLast())) { value in
            guard var items = Self.instanceList(value), items.indices.contains(last.index),
                  case .dictionary(let answers) = items[last.index] else { return false }
            items.remove(at: last.index)
            value = items.isEmpty ? nil : .array(items)
            removed = answers
            return true
        }
        return removed
    }

    /// Moves an instance of the repeat `name` from one place to another (both from 0, in
    /// the list as it is before the move); false when either is not an instance.
    @discardableResult
    public mutating func moveInstance(of name: String, in parent: [AnswerPath.Step] = [], from: Int, to: Int) -> Bool {
        update(name, in: parent) { value in
            guard var items = Self.instanceList(value), items.indices.contains(from), items.indices.contains(to) else { return false }
            items.insert(items.remove(at: from), at: to)
            value = .array(items)
            return true
        }
    }

    // MARK: - Inside

    /// The instance at `index` of a repeat's stored value.
    private static func instance(_ value: PropertyValue?, at index: Int) -> [String: PropertyValue]? {
        guard case .array(let items)? = value, items.indices.contains(index),
              case .dictionary(let answers) = items[index] else { return nil }
        return answers
    }

    /// A repeat's instances as stored (none when the key is missing); nil when the key holds
    /// anything but a list of dictionaries.
    private static func instanceList(_ value: PropertyValue?) -> [PropertyValue]? {
        guard let value else { return [] }
        guard case .array(let items) = value, items.allSatisfy({ if case .dictionary = $0 { true } else { false } }) else { return nil }
        return items
    }

    /// Changes the value of `key` in the instance `steps` leads to (none: the top level),
    /// writing back each instance on the way; false, changing nothing, when one is missing
    /// or `body` refuses.
    private mutating func update(_ key: String, in steps: [AnswerPath.Step], _ body: (inout PropertyValue?) -> Bool) -> Bool {
        guard let first = steps.first else {
            var value = self[key]
            guard body(&value) else { return false }
            if value != self[key] { self[key] = value }
            return true
        }
        guard case .array(var items)? = self[first.name], items.indices.contains(first.index),
              case .dictionary(var answers) = items[first.index],
              Self.update(key, in: steps.dropFirst(), of: &answers, body) else { return false }
        items[first.index] = .dictionary(answers)
        self[first.name] = .array(items)
        return true
    }

    private static func update(_ key: String, in steps: ArraySlice<AnswerPath.Step>, of answers: inout [String: PropertyValue],
                               _ body: (inout PropertyValue?) -> Bool) -> Bool {
        guard let step = steps.first else {
            var value = answers[key]
            guard body(&value) else { return false }
            answers[key] = value
            return true
        }
        guard case .array(var items)? = answers[step.name], items.indices.contains(step.index),
              case .dictionary(var inner) = items[step.index],
              update(key, in: steps.dropFirst(), of: &inner, body) else { return false }
        items[step.index] = .dictionary(inner)
        answers[step.name] = .array(items)
        return true
    }
}
