import FoundationEssentials

/// How a document's reading in the background ended (`DocumentStream` in the storage).
public enum DocumentReadEnd: Equatable, Sendable {
    case complete
    /// The whole document, read as `DocumentStore.load` reads it, ids derived.
    case replaced(SurveyDocument)
    /// Why the document cannot be read, in `DocumentStore.load`'s words.
    case failed(String)
}
