import FoundationEssentials
import SurveyValues

/// The questionnaire a document's surveys are read with, and, when the form they were keyed
/// with cannot be used, why: then the surveys are shown as stored and nothing is written,
/// so no answer is keyed, changed or named under a form the designer did not mean.
public struct DocumentForm: Equatable, Sendable {
    public var questionnaire: Questionnaire
    public var trouble: FormTrouble?

    public init(questionnaire: Questionnaire, trouble: FormTrouble? = nil) {
        self.questionnaire = questionnaire
        self.trouble = trouble
    }
}

/// Why a document can be read but not changed.
public enum FormTrouble: Equatable, Sendable {
    /// Its form file (`NAME.form.*`) has errors: the file's name and every error, as
    /// `survey form check` lists them.
    case errors(file: String, errors: [String])
    /// Its surveys carry a `formID`, and no form is beside the document (deleted or lost
    /// by hand: survey moves a form only with its document).
    case missing(formID: String)

    /// What is wrong and how to mend it, in one line: the app's status line and F4, and
    /// what the shell commands that would change the document say.
    public func remark(document name: String) -> String {
        let attach = "survey form attach FILE --doc \(Self.shellWord(name))"
        switch self {
        case .errors(let file, let errors):
            return "The form \(file) has \(counted(errors.count, "error")) (survey form check lists them): "
                + "fix it, or attach a corrected one with \(attach)"
        case .missing(let id):
            return "The form (formID \(id)) is missing: attach it with \(attach)"
        }
    }

    /// A document name as a shell word: as it is when it needs no quoting, else in single quotes.
    static func shellWord(_ name: String) -> String {
        let plain = name.unicodeScalars.allSatisfy {
            ($0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0))) || "._-+,:@%/".unicodeScalars.contains($0)
        }
        return plain && !name.isEmpty ? name : "'" + name.replacingEvery("'", with: "'\\''") + "'"
    }
}

extension Questionnaire {
    /// The keys the given surveys hold (but their id, `formID` and `formVersion`), sorted,
    /// each shown as its stored text: how surveys are read without their form.
    public static func storedAnswers(of surveys: some Sequence<Record>) -> Questionnaire {
        var keys = Set<String>()
        for survey in surveys { keys.formUnion(survey.keys) }
        keys.subtract([Record.instanceIDKey, formIDKey, formVersionKey])
        var questionnaire = Questionnaire(fields: keys.sorted().map {
            FieldSpec(key: $0, label: $0, kind: .text(maxLength: Int.max),
                      info: "The answer as stored: without its form, survey cannot say more about it.")
        })
        questionnaire.isStoredAnswers = true
        return questionnaire
    }
}

extension XLSForm {
    /// The form with a `formID` when its settings give none: the stem of the file the
    /// designer attached, as pyxform names a form by its file (`DocumentStore.attachForm`
    /// keeps it; the document's name for a form attached before).
    /// Every survey then says which form it was keyed with, which ODK tools, imports back and
    /// a team's server (which keeps each form's surveys together) rely on.
    public func identified(byDefault name: String) -> XLSForm {
        guard formID?.isEmpty ?? true else { return self }
        var form = self
        form.formID = name
        return form
    }
}
