import FoundationEssentials
import SurveyValues
import SurveyForms
import SurveyStorage
import SurveyUI

/// Opening a document: its questionnaire, then its records, whole or (a large file at launch)
/// its first records with the rest to follow.
extension Program {
    /// A document with the questionnaire its records are keyed with. A form that cannot be
    /// used (it has errors, or the surveys carry a `formID` and it is missing) leaves the
    /// surveys readable under their answers as stored, with the trouble that makes the
    /// document read-only for this session (`AppState+ReadOnly`): no answer is keyed under a
    /// form the designer did not mean, and the file is never written.
    ///
    /// With `streaming`, a large file may come back as its first records and a stream of the
    /// rest (`DocumentStore.openStreaming`), their ids already derived; the form is then
    /// judged by those first records, as a whole read judges it by its first as many.
    static func open(_ name: String, in store: DocumentStore, identifying: Bool = true,
                     streaming: (from: Int, first: Int)? = nil)
        -> (loaded: Result<SurveyDocument, DocumentError>, form: DocumentForm, stream: DocumentStream?) {
        // A journal still there (its changes could not be put into the file: a full disk)
        // counts too, so the next save writes its changes rather than a version without them.
        let loaded: Result<SurveyDocument, DocumentError>
        var stream: DocumentStream?
        if let streaming {
            switch store.openStreaming(name, from: streaming.from, firstRecords: streaming.first) {
            case .whole(let whole):
                loaded = identifying ? identified(whole) : whole
            case .streaming(let first, let rest):
                loaded = .success(first)
                stream = rest
            }
        } else {
            let whole = store.loadWithJournal(name)
            loaded = identifying ? identified(whole) : whole
        }
        let first: [Record] = switch loaded {
        case .success(let document): Array(document.records.prefix(DocumentStore.formCheckSurveys))
        case .failure: []
        }
        return (loaded, store.documentForm(for: name, firstSurveys: first), stream)
    }

    /// Records found without an id get one derived from their place and answers, so the
    /// list, undo and merges can follow them by id from the start; the file is not touched
    /// until the next save writes them.
    ///
    /// The records are changed where they are: a second reference to them (the `Result`, a
    /// `map` closure's copy) would make every record's dictionary be copied, twice the
    /// memory for a moment (about 40 MB at 100,000 records).
    static func identified(_ loaded: consuming Result<SurveyDocument, DocumentError>) -> Result<SurveyDocument, DocumentError> {
        switch consume loaded {
        case .success(var document):
            document.identifyRecordsFoundWithoutIDs()
            return .success(document)
        case .failure(let error):
            return .failure(error)
        }
    }
}
