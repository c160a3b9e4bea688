import Foundation
import SurveyModel

/// Opening a document: its questionnaire, then its records, whole or (a large file at launch)
/// its first records with the rest to follow.
extension Program {
    /// A document with the questionnaire its records are keyed with. A questionnaire that
    /// cannot be used makes the document unreadable for this session (shown, never
    /// written), so no answer is keyed under a form the designer did not mean.
    ///
    /// With `streaming`, a large file may come back as its first records and a stream of the
    /// rest (`DocumentStore.openStreaming`), their ids already derived.
    static func open(_ name: String, in store: DocumentStore, identifying: Bool = true,
                     streaming: (from: Int, first: Int)? = nil)
        -> (loaded: Result<SurveyDocument, DocumentError>, questionnaire: Questionnaire, stream: DocumentStream?) {
        let questionnaire: Questionnaire
        do {
            questionnaire = try store.questionnaire(for: name)
        } catch {
            return (.failure(DocumentError(describe(error))), .standard, nil)
        }
        // A journal still there (its changes could not be put into the file: a full disk)
        // counts too, so the next save writes its changes rather than a version without them.
        guard let streaming else {
            let loaded = store.loadWithJournal(name)
            return (identifying ? identified(loaded) : loaded, questionnaire, nil)
        }
        switch store.openStreaming(name, from: streaming.from, firstRecords: streaming.first) {
        case .whole(let loaded):
            return (identifying ? identified(loaded) : loaded, questionnaire, nil)
        case .streaming(let first, let rest):
            return (.success(first), questionnaire, rest)
        }
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
