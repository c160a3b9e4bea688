import SurveyValues

extension Questionnaire {
    /// Where `path` is, as Collect's audit log names a node (`AuditEventCSVLine.getXPathPath`):
    /// the XForm path with groups, and a position only on repeats, counted from 1
    /// (`/data/household[2]/age`). Without `path.name` (empty), the member itself
    /// (`/data/household[2]`). Asked of the top level's questionnaire; nil for a path the
    /// form does not place.
    public func auditNode(_ path: AnswerPath) -> String? {
        var nodes = tree
        var prefix = ""       // the path written so far, positions included
        var consumed = ""     // the same without positions: the part of a node's path already written
        for step in path.steps {
            guard let member = Self.node(named: step.name, kind: .repeat, in: nodes) else { return nil }
            prefix += String(member.path.dropFirst(consumed.count)) + "[\(step.index + 1)]"
            consumed = member.path
            nodes = member.children
        }
        guard !path.name.isEmpty else { return path.steps.isEmpty ? nil : prefix }
        guard let question = Self.node(named: path.name, kind: .question, in: nodes) else { return nil }
        return prefix + String(question.path.dropFirst(consumed.count))
    }

    /// The node of that name in `nodes`, looking inside groups but not inside repeats.
    private static func node(named name: String, kind: FormNode.Kind, in nodes: [FormNode]) -> FormNode? {
        for node in nodes {
            if node.kind == kind, node.name == name { return node }
            if node.kind == .group, let inner = self.node(named: name, kind: kind, in: node.children) { return inner }
        }
        return nil
    }
}
