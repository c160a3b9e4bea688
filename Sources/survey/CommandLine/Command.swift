import FoundationEssentials
import SurveyValues
import SurveyForms
import SurveyStorage

extension DocumentStore {
    /// The document a record command works on (see `target(requested:remembered:)`). Only a
    /// command that adds records (`creating`) may name a document that does not exist yet.
    func commandTarget(requested: String?, remembered: String?, creating: Bool) throws -> DocumentTarget {
        let target: DocumentTarget
        do {
            target = try self.target(requested: requested, remembered: remembered)
        } catch let error as DocumentError where requested == nil && creating {
            throw DocumentError("\(error.message): name one with --doc NAME to create it")
        }
        if case .new(let name) = target, !creating {
            throw DocumentError("“\(name)” does not exist")
        }
        return target
    }
}

/// A document's questionnaire that cannot be used: every line of its errors, printed one per
/// line (`ShellOutput.failure`), as `survey form check` prints them.
struct UnusableQuestionnaire: Error, CustomStringConvertible {
    let lines: [String]
    var description: String { lines.joined(separator: "\n") }
}

extension DocumentStore {
    /// The questionnaire of the document a record command works on: its attached form, or
    /// the original five (a document about to be created has no form yet). A form with
    /// errors stops the command before anything is read or written: answers are never
    /// judged, listed or stored under a form the designer did not mean. A form that is
    /// missing (the surveys carry a `formID`, no form is beside them) stops a command that
    /// would change the document, with the app's words; one that only reads names and
    /// lists the surveys by their answers as stored, and says on stderr why.
    func commandQuestionnaire(for target: DocumentTarget, changing: Bool) throws -> Questionnaire {
        guard case .existing(let name) = target else { return .standard }
        let form = documentForm(for: name)
        switch form.trouble {
        case nil:
            // `${last-saved#x}` reads the document's last survey (read only for forms that ask).
            guard changing, form.questionnaire.readsLastSaved, case .success(let document) = load(name) else { return form.questionnaire }
            return form.questionnaire.withLastSaved(document.lastSaved)
        case .errors(let file, let errors)?:
            throw UnusableQuestionnaire(lines: ["The questionnaire \(file) cannot be used (\(counted(errors.count, "error"))):"]
                + errors + ["nothing was done: fix the form (survey form check FILE) and attach it again (survey form attach FILE)"])
        case let trouble?:
            if changing { throw UnusableQuestionnaire(lines: [trouble.remark(document: name) + "; nothing was done"]) }
            ShellOutput.error(trouble.remark(document: name) + "; surveys are shown as stored")
            return form.questionnaire
        }
    }
}

extension DocumentTarget {
    var name: String {
        switch self {
        case .existing(let name), .new(let name): return name
        }
    }
}
