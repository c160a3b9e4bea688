/// Finding a roster member again in another version of its survey. Members carry no id of
/// their own (ODK's repeat instances have none), so a member is the person its answers
/// describe: after another program deleted or moved members, "member 1" may be someone else,
/// and an answer meant for one person must land on that person or nowhere (issue 27).
extension Record {
    /// Where the member `steps` lead to in `original` is in this survey: at the same place
    /// when that member is there unchanged, else wherever it is, unchanged, under the same
    /// parent (found again depth by depth); nil when it is gone or was changed here.
    public func locateMember(_ steps: [AnswerPath.Step], of original: Record) -> [AnswerPath.Step]? {
        var found: [AnswerPath.Step] = []
        for (depth, step) in steps.enumerated() {
            let theirs = original.instances(of: step.name, in: Array(steps.prefix(depth)))
            guard theirs.indices.contains(step.index) else { return nil }
            let person = theirs[step.index]
            let here = instances(of: step.name, in: found)
            let index = here.indices.contains(step.index) && here[step.index] == person ? step.index
                : here.firstIndex { $0 == person }
            guard let index else { return nil }
            found.append(AnswerPath.Step(name: step.name, index: index))
        }
        return found
    }
}
