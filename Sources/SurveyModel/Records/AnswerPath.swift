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
}
