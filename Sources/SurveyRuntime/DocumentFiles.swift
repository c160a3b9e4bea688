import FoundationEssentials
import SurveyValues
import SurveyStorage

/// What the program knows of the open document's files, apart from the screen's state
/// (issue 29): which file it last read or wrote, the journal its commits go to, the
/// document as the journal and as the `.plist` hold it, and the writer that brings the
/// `.plist` up to the journal in the background. `Program` keeps the loop and carries out
/// effects; this is what those effects check against and update.
struct DocumentFiles {
    /// The current file as last read or written by us; a different one at save time means
    /// another program changed it.
    var known: FileFingerprint?
    /// The same for the New form's file: a second window on the same document writes it too.
    var knownDraft: FileFingerprint?
    /// `.NAME.journal`, open (and locked) from the first commit until the document is closed.
    var journal: DocumentJournal?
    /// The document as last appended to the journal, and as the `.plist` last held it (the
    /// base a change made elsewhere is merged against).
    var journaled: SurveyDocument?
    var persisted: SurveyDocument?
    /// Rewrites the `.plist` behind the journal (the `.writing` lane).
    let writer: DocumentWriter

    init(writer: DocumentWriter) {
        self.writer = writer
    }

    /// Committed changes wait for the `.plist` (in the journal, or being written).
    var writesPending: Bool { journaled != nil || writer.isBusy }

    /// Appends the change to the journal (opened at the first commit) and schedules the
    /// `.plist`'s rewrite; false when another copy of survey is writing this document's
    /// journal (then this one saves whole files, checking as always).
    mutating func append(_ document: SurveyDocument, of name: String, in store: DocumentStore) throws -> Bool {
        // Renamed outside (a plain `mv`) since the journal was opened: it follows the file.
        if let journal, journal.url != store.journalURL(for: name) { journal.move(to: store.journalURL(for: name)) }
        if journal == nil {
            guard let opened = try DocumentJournal.open(at: store.journalURL(for: name), in: store.fileSystem) else { return false }
            journal = opened
        }
        let base = journaled ?? persisted ?? SurveyDocument()
        try journal?.append(document.journalEntries(since: base))
        journaled = document
        writer.schedule(document, of: name, in: store)
        return true
    }

    /// Another document is open (or this one again): what was known of the last is let go.
    mutating func reopened(known: FileFingerprint?, knownDraft: FileFingerprint?) {
        self.known = known
        self.knownDraft = knownDraft
        writer.setKnown(known)
    }
}
