/// Where a conflicting answer is inside a survey's answers: keys into dictionaries and
/// places in arrays (a roster's members), outermost first. Empty: the survey as a whole
/// (an edit on one side, a delete on the other). Shown as ODK names an instance,
/// `member[2]/age`, counted from 1.
public struct SyncFieldPath: Hashable, Sendable, CustomStringConvertible {
    public enum Step: Hashable, Sendable {
        case key(String)
        case index(Int)
    }

    public var steps: [Step]

    public init(_ steps: [Step] = []) { self.steps = steps }

    public var isWholeSurvey: Bool { steps.isEmpty }

    public func appending(_ step: Step) -> SyncFieldPath { SyncFieldPath(steps + [step]) }

    /// A member of a roster (`member[2]`): the last step is a place.
    public var isMember: Bool {
        if case .index? = steps.last { return true }
        return false
    }

    /// Some step is a member's place (`member[2]/age`, `member[2]`): what it names moves
    /// when a member before it is deleted or added (`ConflictPlaces`).
    public var hasPlace: Bool {
        steps.contains { if case .index = $0 { true } else { false } }
    }

    /// This path once `member`, a member of a roster, is removed: a path into a later member
    /// of that roster moves one place up, so it still names the same person.
    public func afterRemoving(_ member: SyncFieldPath) -> SyncFieldPath {
        guard case .index(let removed)? = member.steps.last, steps.count >= member.steps.count,
              steps.prefix(member.steps.count - 1).elementsEqual(member.steps.dropLast()),
              case .index(let place) = steps[member.steps.count - 1], place > removed else { return self }
        var moved = steps
        moved[member.steps.count - 1] = .index(place - 1)
        return SyncFieldPath(moved)
    }

    /// What `survey conflicts` shows and `survey resolve` takes.
    public static let wholeSurveyText = "(survey)"

    public var description: String {
        guard !steps.isEmpty else { return Self.wholeSurveyText }
        var text = ""
        for step in steps {
            switch step {
            case .key(let key): text += (text.isEmpty ? "" : "/") + key
            case .index(let index): text += "[\(index + 1)]"
            }
        }
        return text
    }

    /// `member[2]/age` back into steps; nil for text no path prints as.
    public init?(text: String) {
        guard text != Self.wholeSurveyText else { self.init(); return }
        var steps: [Step] = []
        for part in text.split(separator: "/", omittingEmptySubsequences: false) {
            var rest = Substring(part)
            let open = rest.firstIndex(of: "[") ?? rest.endIndex
            let key = rest[..<open]
            guard !key.isEmpty else { return nil }
            steps.append(.key(String(key)))
            rest = rest[open...]
            while !rest.isEmpty {
                guard rest.first == "[", let close = rest.firstIndex(of: "]"),
                      let number = Int(rest[rest.index(after: rest.startIndex)..<close]), number >= 1 else { return nil }
                steps.append(.index(number - 1))
                rest = rest[rest.index(after: close)...]
            }
        }
        self.init(steps)
    }
}

extension PropertyValue {
    /// The value at `path` inside this one; nil when any step is missing.
    public func value(at path: SyncFieldPath) -> PropertyValue? {
        var current: PropertyValue? = self
        for step in path.steps {
            switch (step, current) {
            case (.key(let key), .dictionary(let entries)?): current = entries[key]
            case (.index(let index), .array(let items)?) where items.indices.contains(index): current = items[index]
            default: return nil
            }
        }
        return current
    }

    /// Stores `value` (nil: removes it; a roster's member, the later ones moving up) at
    /// `path`; false, changing nothing, when a step on the way is missing or holds another
    /// kind of value.
    public mutating func setValue(_ value: PropertyValue?, at path: SyncFieldPath) -> Bool {
        guard let value = Self.setting(value, at: path.steps[...], in: self) else { return false }
        self = value
        return true
    }

    private static func setting(_ value: PropertyValue?, at steps: ArraySlice<SyncFieldPath.Step>,
                                in container: PropertyValue) -> PropertyValue? {
        guard let step = steps.first else { return value }
        let rest = steps.dropFirst()
        switch (step, container) {
        case (.key(let key), .dictionary(var entries)):
            if rest.isEmpty {
                entries[key] = value
            } else {
                guard let inner = entries[key], let changed = setting(value, at: rest, in: inner) else { return nil }
                entries[key] = changed
            }
            return .dictionary(entries)
        case (.index(let index), .array(var items)) where items.indices.contains(index):
            if rest.isEmpty {
                if let value { items[index] = value } else { items.remove(at: index) }
            } else {
                guard let changed = setting(value, at: rest, in: items[index]) else { return nil }
                items[index] = changed
            }
            return .array(items)
        default:
            return nil
        }
    }
}
