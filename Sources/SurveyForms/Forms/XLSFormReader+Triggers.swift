import FoundationEssentials
import SurveyValues

/// The `trigger` column (ODK's value-change trigger, pyxform's `setvalue` on
/// `xforms-value-changed`) as pyxform 4.5 reads and refuses it: `${a}`, or several separated
/// by commas, each a question of the survey sheet (not a group or repeat) that the
/// interviewer sees. The question with the trigger is set to its calculation when one of
/// them changes, and then only (`Questionnaire+Settling`).
extension XLSFormReader {
    /// Why pyxform refuses a `${…}` reference in a cell (its PYREF codes).
    enum ReferenceProblem: Error, Equatable {
        /// `${` not followed by a question name and `}`.
        case malformed
        /// Two references where one was allowed (a trigger's comma missing).
        case tooMany

        var message: String {
            switch self {
            case .malformed: "reference variables must start with '${', then a question name, and end with '}'"
            case .tooMany: "reference variable lists must have a comma between each variable"
            }
        }
    }

    /// The names of the `${name}` (and `${last-saved#name}`) references in `text`, as
    /// pyxform's `parse_pyxform_references` finds them: a `${` with no `}` after it, or
    /// whose inside is not a name, is refused; `${}` is no reference.
    static func references(in text: String, limit: Int? = nil) throws(ReferenceProblem) -> [(name: String, lastSaved: Bool)] {
        var found: [(String, Bool)] = []
        var rest = Substring(text)
        while let start = rest.firstRange(of: "${") {
            let after = rest[start.upperBound...]
            guard let end = after.firstIndex(of: "}") else { throw .malformed }
            let inner = after[..<end]
            rest = after[after.index(after: end)...]
            if inner.isEmpty { continue }
            let lastSaved = inner.hasPrefix("last-saved#")
            let name = String(lastSaved ? inner.dropFirst("last-saved#".count) : inner)
            guard !name.contains(":"), isXMLName(name) else { throw .malformed }
            if let limit, found.count >= limit { throw .tooMany }
            found.append((name, lastSaved))
        }
        return found
    }

    /// A row's `trigger`: the names it lists, or the row's error.
    mutating func readTrigger(_ text: String, row: Int) -> [String] {
        func refuse(_ problem: ReferenceProblem) -> [String] {
            errors.append(XLSFormProblem(sheet: "survey", row: row, column: "trigger", message: "\(problem.message): “\(text)”"))
            return []
        }
        guard text.count > 2, text.contains("${") else { return refuse(.malformed) }
        var names: [String] = []
        for part in text.split(separator: ",", omittingEmptySubsequences: false) {
            do {
                names += try Self.references(in: String(part), limit: 1).map(\.name)
            } catch {
                return refuse(error)
            }
        }
        return names
    }

    /// pyxform's rules for `background-geopoint` (a position taken when its trigger changes):
    /// it needs a trigger and takes no calculation.
    mutating func checkBackgroundGeopoint(type: String, hasTrigger: Bool, hasCalculation: Bool, row: Int) {
        guard type.trimmingWhitespace() == "background-geopoint" else { return }
        if !hasTrigger {
            errors.append(XLSFormProblem(sheet: "survey", row: row, column: "trigger",
                                         message: "for 'background-geopoint' questions, the 'trigger' column must not be empty"))
        }
        if hasCalculation {
            errors.append(XLSFormProblem(sheet: "survey", row: row, column: "calculation",
                                         message: "for 'background-geopoint' questions, the 'calculation' column must be empty"))
        }
    }

    /// Each trigger names a question of the form (a group or repeat is no trigger), one the
    /// interviewer sees: a calculation without a label or hint has no control to change
    /// (pyxform: "not user-visible so it can't be used as a calculation trigger").
    ///
    /// A name is matched as pyxform matches it, by the question's own name: one used in two
    /// groups (kept here as `g1/age` and `g2/age`) is both, and either's change fires it.
    mutating func checkTriggers(_ form: XLSForm) {
        let all = form.allQuestions
        var questions: [String: XLSForm.Question] = [:]
        for q in all where !q.name.isEmpty {
            switch q.kind {
            case .beginGroup, .endGroup, .beginRepeat, .endRepeat, .metadata("audit"): continue
            default:
                // A user-visible one of the name first: the one the verdict is about.
                let name = FormNode.element(q.name)
                if questions[name] == nil || Self.isComputed(questions[name]!) { questions[name] = q }
            }
        }
        for q in all where !q.trigger.isEmpty {
            for name in q.trigger {
                guard let target = questions[name] else {
                    errors.append(XLSFormProblem(sheet: "survey", row: q.row, column: "trigger", message: "unknown field ${\(name)}"))
                    continue
                }
                if Self.isComputed(target) {
                    errors.append(XLSFormProblem(sheet: "survey", row: q.row, column: "trigger",
                                                 message: "the question ${\(name)} (row \(target.row)) is not user-visible so it can't be used "
                                                     + "as a calculation trigger for question ${\(q.name)}: a calculation with no label "
                                                     + "or hint has no control whose change could trigger it"))
                }
            }
        }
    }

    /// A question no interviewer changes: a calculate, or one computed with no label or hint.
    private static func isComputed(_ q: XLSForm.Question) -> Bool {
        q.kind == .calculate || ((q.calculation != nil || !q.trigger.isEmpty) && q.labels.isEmpty && q.hints.isEmpty)
    }
}
