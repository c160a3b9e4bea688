import FoundationEssentials
import SurveyValues

/// CSPro's ID items (the form's settings `id_items`): the answers that identify a paper.
/// Two surveys with the same answers to all of them are one paper keyed twice.
extension Questionnaire {
    public var idItems: [String] { form?.idItems ?? [] }

    /// Each roster's member questionnaire, nested ones included (not this one): where a
    /// name is a member's question, and which questions no keyer keys in any member.
    public var rosterScopes: [Questionnaire] {
        var found: [Questionnaire] = []
        var pending = [self]
        while let scope = pending.popLast() {
            for i in scope.fields.indices {
                guard let node = scope.repeatAtRow(FieldIndex(i)) else { continue }
                let inner = scope.instanceQuestionnaire(for: node)
                found.append(inner)
                pending.append(inner)
            }
        }
        return found
    }

    /// "plot_id 12, visit 1": the survey's ID items as a person reads them; nil when the
    /// form names none or one is blank (a survey not yet identified is no duplicate).
    public func idItemsText(of record: Record) -> String? {
        let names = idItems
        guard !names.isEmpty else { return nil }
        var parts: [String] = []
        for name in names {
            let text = XLSForm.text(of: record[name]).trimmingWhitespace()
            guard !text.isEmpty else { return nil }
            parts.append("\(name) \(text)")
        }
        return parts.joined(separator: ", ")
    }

    /// The surveys that share their ID items with another, grouped, each group in document
    /// order and the groups by their first survey.
    public func duplicateGroups(in records: some Sequence<Record>) -> [(idItems: String, indices: [Int])] {
        guard !idItems.isEmpty else { return [] }
        var byKey: [String: [Int]] = [:]
        var order: [String] = []
        for (i, record) in records.enumerated() {
            guard let key = idItemsText(of: record) else { continue }
            if byKey[key] == nil { order.append(key) }
            byKey[key, default: []].append(i)
        }
        return order.compactMap { key in byKey[key].flatMap { $0.count > 1 ? (key, $0) : nil } }
    }
}
