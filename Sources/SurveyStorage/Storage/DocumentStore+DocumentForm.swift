import FoundationEssentials
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import SurveyValues
import SurveyForms

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
                    // The folder's entity lists (`DocumentStore+EntityLists`) ahead of the media folder.
                    return DocumentForm(questionnaire: Questionnaire(form: loadingListFiles(
                        form.identified(byDefault: defaultFormID(for: name)), for: name).form))
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
