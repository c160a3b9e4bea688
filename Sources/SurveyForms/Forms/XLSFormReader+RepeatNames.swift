import FoundationEssentials
import SurveyValues

/// pyxform's rules for repeat names (`validators/pyxform/unique_names.py`): a repeat's name
/// is unique in the whole survey, at any depth (its instances are a table of the export,
/// named by it), and is not the survey's root element's; and the `NAME_count` calculation
/// pyxform adds beside a repeat whose `repeat_count` is an expression is a name like any
/// other in its group.
extension XLSFormReader {
    mutating func checkRepeatNames(_ form: XLSForm) {
        var repeats: [String: Int] = [:]
        var scopes: [[(name: String, row: Int)]] = []
        var generated: [(scope: Int, name: String, row: Int)] = []
        func walk(_ questions: [XLSForm.Question]) {
            var open = [scopes.count]
            scopes.append([])
            for q in questions {
                switch q.kind {
                case .endGroup:
                    if open.count > 1 { open.removeLast() }
                    continue
                case .endRepeat:
                    continue
                default: break
                }
                guard !q.name.isEmpty else { continue }
                // A name used twice in a record is keyed by its group path by now (`+Keys`).
                let name = String(q.name.split(separator: "/").last ?? "")
                scopes[open.last!].append((name, q.row))
                switch q.kind {
                case .beginGroup:
                    open.append(scopes.count)
                    scopes.append([])
                case .beginRepeat:
                    if name == form.rootName {
                        errors.append(XLSFormProblem(sheet: "survey", row: q.row, column: "name",
                                                     message: "the name “\(name)” is invalid: repeat names must not be the same as the "
                                                         + "survey root (which defaults to 'data')"))
                    } else if let first = repeats[name] {
                        errors.append(XLSFormProblem(sheet: "survey", row: q.row, column: "name",
                                                     message: "the name “\(name)” is invalid: repeat names must unique anywhere in the survey, "
                                                         + "at all levels of group or repeat nesting (row \(first) has it)"))
                    } else {
                        repeats[name] = q.row
                    }
                    if let count = q.repeatCount, !Self.isFieldReference(count) {
                        generated.append((open.last!, name + "_count", q.row))
                    }
                    walk(q.children)
                default: break
                }
            }
        }
        walk(form.questions)
        for (scope, name, row) in generated {
            guard let other = scopes[scope].first(where: { $0.name == name }) else { continue }
            errors.append(XLSFormProblem(sheet: "survey", row: other.row, column: "name",
                                         message: "the name “\(name)” is invalid: the repeat of row \(row) has an expression as its repeat_count, "
                                             + "which pyxform computes in a question of that name; questions, groups, and repeats must be "
                                             + "unique within their nearest parent group or repeat, or the survey if not inside a group or repeat"))
        }
    }

    private static func isFieldReference(_ expression: FormExpression) -> Bool {
        if case .field = expression { return true }
        return false
    }
}
