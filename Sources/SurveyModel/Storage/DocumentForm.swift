import FoundationEssentials

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

extension DocumentStore {
    /// How many of a document's first surveys are looked at for a `formID`: as many as a
    /// large document shows before the rest is read, so a document is judged the same
    /// whether it is read whole or in parts.
    public static let formCheckSurveys = 1_000

    /// The questionnaire a document's surveys are read with: its form; the original five
    /// when it has none and its first surveys carry no `formID`; else the answers as stored
    /// (`Questionnaire.storedAnswers`), with the trouble that makes the document read-only.
    /// `firstSurveys` are the document's first surveys when the caller has read them
    /// already; otherwise the start of the file is read (never the whole of a large one).
    public func documentForm(for name: String, firstSurveys: [Record]? = nil) -> DocumentForm {
        let surveys = { firstSurveys.map { Array($0.prefix(Self.formCheckSurveys)) } ?? self.firstSurveys(of: name) }
        if let url = formURL(for: name) {
            let errors: [String]
            do {
                let result = XLSForm.read(try XLSFormSheets.read(fileAt: url.path))
                if let form = result.form {
                    // Its list files, read once here for every survey the document shows.
                    return DocumentForm(questionnaire: Questionnaire(form: form.identified(byDefault: defaultFormID(for: name))
                        .loadingMedia(from: mediaFolderToRead(for: name)).form))
                }
                errors = result.errors.map(\.description)
            } catch {
                errors = [(error as? DocumentError)?.message ?? "\(error)"]
            }
            return DocumentForm(questionnaire: .storedAnswers(of: surveys()),
                                trouble: .errors(file: url.lastPathComponent, errors: errors))
        }
        let first = surveys()
        guard let id = Self.keyedFormID(of: first) else { return DocumentForm(questionnaire: .standard) }
        return DocumentForm(questionnaire: .storedAnswers(of: first), trouble: .missing(formID: id))
    }

    /// The first `formID` the surveys carry (text, not empty).
    static func keyedFormID(of surveys: [Record]) -> String? {
        for survey in surveys.prefix(formCheckSurveys) {
            if case .string(let id)? = survey[Questionnaire.formIDKey], !id.isEmpty { return id }
        }
        return nil
    }

    /// A document's first surveys, read from the start of its file (the whole file only in
    /// a layout the scanner leaves to Foundation); none when it cannot be read.
    func firstSurveys(of name: String) -> [Record] {
        if case .success(let scan) = DocumentFileScan.open(filePath(for: name)), scan.begin(),
           let read = scan.records(upTo: Self.formCheckSurveys) {
            return read.records
        }
        return (try? load(name).get()).map { Array($0.records.prefix(Self.formCheckSurveys)) } ?? []
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
