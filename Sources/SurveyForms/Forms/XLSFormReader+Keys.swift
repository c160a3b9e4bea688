import FoundationEssentials
import SurveyValues

/// The key each answer is kept under in its record. Groups add no level to survey's answers,
/// so a name used once in a record (the top level, or one repeat instance) is its own key, as
/// it always was, and every existing form keeps its file's shape. pyxform also takes the same
/// name in two groups (`g1/q1`, `g2/q1`: groups are levels of the XML instance), and a loop
/// asks its names once per choice; such a name is then kept under its path through the groups
/// of its record, `g1/q1`: the XML instance's path below the record, and what ODK's tools
/// read (Central's CSV header `g1-q1`, KoboToolbox's `g1/q1`). The question's `name` becomes
/// that key; its XML element stays the last step (`FormNode.element`).
///
/// `${q1}` then names no one question, and is refused as pyxform refuses it ("Reference
/// variables names must be unique anywhere in the survey"), so a rule only ever reads a name
/// that is one answer. Two nodes at one place (two `q1` side by side in one group) are
/// refused, as pyxform refuses them.
extension XLSFormReader {
    /// Names `rows` (one record's; repeats' records inside, each on its own) by their keys,
    /// returning the names that became paths, which no `${…}` can name.
    mutating func assignKeys(_ rows: inout [XLSForm.Question]) -> Set<String> {
        var groups: [String] = []
        var paths: [[String]] = []
        for q in rows {
            if q.kind == .endGroup { _ = groups.popLast() }
            paths.append(groups)
            if q.kind == .beginGroup { groups.append(q.name) }
        }
        var uses: [String: Int] = [:]
        for q in rows where Self.holdsAnswer(q) { uses[q.name, default: 0] += 1 }
        var places: [String: Int] = [:]
        var ambiguous: Set<String> = []
        var renamed: [String: String] = [:]   // by row number and old name: `or_other`'s text follows its select
        for i in rows.indices {
            let q = rows[i]
            guard !q.name.isEmpty, q.kind != .endGroup else { continue }
            let place = (paths[i] + [q.name]).joined(separator: "/")
            if let first = places[place] {
                errors.append(XLSFormProblem(sheet: "survey", row: q.row, column: "name",
                                             message: "“\(q.name)” is already the name of row \(first)"))
                continue
            }
            places[place] = q.row
            guard Self.holdsAnswer(q), uses[q.name, default: 0] > 1 else { continue }
            ambiguous.insert(q.name)
            if !paths[i].isEmpty {
                rows[i].name = place
                renamed["\(q.row) \(q.name)"] = place
            }
        }
        // pyxform writes `or_other`'s question with a relative path (`selected(../q, 'other')`):
        // it follows its select to the select's key.
        for i in rows.indices where i > 0 && rows[i].row == rows[i - 1].row {
            if case .call("selected", let arguments)? = rows[i].relevant, arguments.count == 2,
               case .field(let select) = arguments[0], arguments[1] == .string("other"),
               let key = renamed["\(rows[i].row) \(select)"] {
                rows[i].relevant = .call("selected", [.field(key), .string("other")])
            }
        }
        for i in rows.indices where rows[i].kind == .beginRepeat {
            ambiguous.formUnion(assignKeys(&rows[i].children))
        }
        return ambiguous
    }

    /// A question or repeat: a key of its record (a group's rows are not).
    static func holdsAnswer(_ q: XLSForm.Question) -> Bool {
        !q.name.isEmpty && q.kind != .beginGroup && q.kind != .endGroup
    }
}
