import SurveyValues
/// One node of the form as a tree, apart from any survey's answers (as JavaRosa keeps a form
/// definition apart from its instance): a question, a group around questions, or a repeat
/// (a roster) whose questions are answered once per instance. Repeats nest.
///
/// `Questionnaire.fields` stays the flat list of the top level, which the form screen and
/// the exports walk; the tree says what a repeat holds and where each answer lives.
public struct FormNode: Equatable, Sendable {
    public enum Kind: Equatable, Sendable { case question, group, `repeat` }

    public let kind: Kind
    public let name: String
    /// As pyxform writes it in the XForm: `/data/member/health/age` (groups included).
    public let path: String
    /// The repeats it is inside, outermost first: where its answer is kept (a repeat's own
    /// name is not in its list; its instances are kept in the record around it).
    public let repeats: [String]
    /// Its row of the form (nil for the original five fields).
    public let question: XLSForm.Question?
    /// Its index among the fields of the record it is kept in: `Questionnaire.fields` at the
    /// top level, the repeat's `instanceQuestionnaire(for:)` inside one. A group's is its
    /// `begin group` row's.
    public let fieldIndex: FieldIndex
    public let children: [FormNode]

    /// Where the answer of this question is, in the instances `indices` (one per repeat it
    /// is inside, outermost first, from 0).
    public func answerPath(_ indices: [Int] = []) -> AnswerPath {
        precondition(indices.count == repeats.count, "one instance index per repeat around \(path)")
        return AnswerPath(zip(repeats, indices).map { AnswerPath.Step(name: $0, index: $1) }, name)
    }

    /// Its element in the XML instance: the name, also where a name used twice in one record
    /// is kept under its group path (`g1/q1`, `XLSFormReader+Keys.swift`).
    public var element: String { Self.element(name) }

    static func element(_ key: String) -> String {
        key.split(separator: "/").last.map(String.init) ?? key
    }

    /// Every node under this one, depth first, this one first.
    public var descendants: [FormNode] { [self] + children.flatMap(\.descendants) }
}

extension FormNode {
    /// The nodes of a form's rows (a repeat's rows for its children), groups gathered from
    /// their begin and end rows.
    static func nodes(_ rows: [XLSForm.Question], under parent: String, repeats: [String]) -> [FormNode] {
        var result: [FormNode] = []
        var open: [(question: XLSForm.Question, index: Int, children: [FormNode])] = []
        func path(_ name: String) -> String { ([parent] + open.map(\.question.name) + [element(name)]).joined(separator: "/") }
        func add(_ node: FormNode) {
            if open.isEmpty { result.append(node) } else { open[open.count - 1].children.append(node) }
        }
        func closeGroup() {
            let group = open.removeLast()
            add(FormNode(kind: .group, name: group.question.name, path: path(group.question.name), repeats: repeats,
                         question: group.question, fieldIndex: FieldIndex(group.index), children: group.children))
        }
        for (i, row) in rows.enumerated() {
            switch row.kind {
            case .beginGroup:
                open.append((row, i, []))
            case .endGroup:
                if !open.isEmpty { closeGroup() }
            case .beginRepeat:
                let here = path(row.name)
                add(FormNode(kind: .repeat, name: row.name, path: here, repeats: repeats, question: row, fieldIndex: FieldIndex(i),
                             children: nodes(row.children, under: here, repeats: repeats + [row.name])))
            default:
                guard !row.name.isEmpty else { continue }
                add(FormNode(kind: .question, name: row.name, path: path(row.name), repeats: repeats, question: row,
                             fieldIndex: FieldIndex(i), children: []))
            }
        }
        while !open.isEmpty { closeGroup() }   // a form left open is refused; its tree still reads
        return result
    }
}
