/// Where one answer is kept in a survey: inside which instance of each repeat around it
/// (outermost first), under which name. A flat form's answers have no steps, and are the
/// record's own keys, as they always were.
public struct AnswerPath: Hashable, Sendable, CustomStringConvertible {
    /// One instance of a repeat: the repeat's name and the instance's place, from 0.
    public struct Step: Hashable, Sendable {
        public var name: String
        public var index: Int
        public init(name: String, index: Int) {
            self.name = name
            self.index = index
        }
    }

    public var steps: [Step]
    public var name: String

    public init(_ steps: [Step], _ name: String) {
        self.steps = steps
        self.name = name
    }

    /// An answer at the survey's top level.
    public init(_ name: String) {
        self.init([], name)
    }

    /// As ODK names an instance (`member[2]/stem[1]/diameter`): counted from 1.
    public var description: String {
        (steps.map { "\($0.name)[\($0.index + 1)]" } + [name]).joined(separator: "/")
    }

    /// The path `description` wrote, read back (from the session memory, a file a person
    /// may edit): nil for anything else, a step without its `[n]` from 1, more than 64 steps
    /// (deeper than any form survey reads), or text longer than 4 KB.
    public init?(parsing text: String) {
        guard !text.isEmpty, text.utf8.count <= 4096 else { return nil }
        var parts = text.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        guard parts.count <= 65, let last = parts.popLast(), !last.isEmpty, !last.contains("[") else { return nil }
        var steps: [Step] = []
        for part in parts {
            guard part.hasSuffix("]"), let open = part.lastIndex(of: "["), open > part.startIndex,
                  let number = Int(part[part.index(after: open)..<part.index(before: part.endIndex)]), number >= 1 else { return nil }
            steps.append(Step(name: String(part[..<open]), index: number - 1))
        }
        self.init(steps, last)
    }
}
