import FoundationEssentials
import SurveyValues

/// `begin loop over LIST` … `end loop`, expanded as pyxform's builder expands it
/// (`_create_loop_from_dict`): a group named for the loop, and inside it one group per choice
/// of the list (named and labelled as the choice; a choice named `none` is skipped), each
/// holding a copy of the loop's rows. In a copy's rows directly in the loop, `%(label)s` and
/// `%(name)s` in labels and hints become the choice's label (in the same language) and name;
/// rows inside a group of the loop are copied as they are, as pyxform copies them. The XForm
/// instance is then `/data/loop/choice/question`, and since every copy asks the same names,
/// `XLSFormReader+Keys.swift` keys their answers by that path (`loop/choice/question`).
///
/// Expanding at read time, rather than keeping a loop node, lets everything after the reader
/// (the tree, rules, the form screen, exports) see plain groups and questions: a loop is no
/// more than that in ODK either.
extension XLSFormReader {
    mutating func expandLoop(_ loop: XLSForm.Question, rows: [XLSForm.Question],
                             choices: [String: [XLSForm.Choice]]) -> [XLSForm.Question] {
        guard case .notCollected(let type) = loop.kind, let list = Self.loopList(type) else {
            errors.append(XLSFormProblem(sheet: "survey", row: loop.row, column: "type",
                                         message: "a loop needs its list, as in “begin loop over fruits”"))
            return []
        }
        guard let options = choices[list] else {
            errors.append(XLSFormProblem(sheet: "survey", row: loop.row, column: "type", message: "no choice list named \(list)"))
            return []
        }
        var begin = loop
        begin.kind = .beginGroup
        var result = [begin]
        for choice in options where choice.name != "none" {
            var group = XLSForm.Question(kind: .beginGroup, name: choice.name, row: loop.row)
            group.labels = choice.labels
            result.append(group)
            var depth = 0
            for row in rows {
                if row.kind == .endGroup { depth -= 1 }
                result.append(depth == 0 ? Self.substituted(row, choice) : row)
                if row.kind == .beginGroup { depth += 1 }
            }
            result.append(XLSForm.Question(kind: .endGroup, name: "", row: loop.row))
        }
        result.append(XLSForm.Question(kind: .endGroup, name: "", row: loop.row))
        return result
    }

    /// The list of `begin loop over LIST` (any of pyxform's spellings of the begin).
    static func loopList(_ type: String) -> String? {
        guard let (begins, control) = control(type), begins else { return nil }
        let words = control.split(whereSeparator: \.isWhitespace)
        guard words.count == 3, words[0] == "loop", words[1] == "over" else { return nil }
        // `control` is lowercased; the list's name keeps the designer's case.
        return type.split(whereSeparator: \.isWhitespace).last.map(String.init)
    }

    /// A row of the loop for one choice: Python's `%` formatting of pyxform, limited to the
    /// two keys it offers.
    static func substituted(_ row: XLSForm.Question, _ choice: XLSForm.Choice) -> XLSForm.Question {
        func fill(_ texts: [String: String]) -> [String: String] {
            var result: [String: String] = [:]
            for (language, text) in texts {
                let label = choice.labels[language] ?? choice.labels[""] ?? choice.labels.values.sorted().first ?? ""
                result[language] = text.replacingEvery("%(label)s", with: label).replacingEvery("%(name)s", with: choice.name)
            }
            return result
        }
        var copy = row
        copy.labels = fill(row.labels)
        copy.hints = fill(row.hints)
        return copy
    }
}
