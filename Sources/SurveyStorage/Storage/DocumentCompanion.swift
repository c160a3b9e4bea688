import FoundationEssentials
import SurveyValues
import SurveyForms

/// The files that belong to one document and go wherever it goes: its draft (the New form),
/// its deleted surveys, its sync ledger, and its questionnaire. Rename, trash and restore
/// move each of them with the document, so that neither an unsent survey, a deleted one,
/// what the sync agreed on nor the form the records were keyed with is ever left behind
/// under an old name. The draft, the deleted surveys and the ledger are hidden
/// (`.NAME.MARKER.plist`, kept out of the document list by the dot); the questionnaire is
/// the designer's file, visible as `NAME.form.xlsx` (or `.csv`, `.md`), never ending in
/// `.plist`, so it is never listed as a document either.
enum DocumentCompanion: CaseIterable {
    case draft
    case deleted
    case formWorkbook, formCSV, formMarkdown
    /// Changes not yet in the `.plist` (`DocumentJournal`).
    case journal
    /// `NAME.media/`: the form's list files and the surveys' attachments (`MediaFolder`).
    case media
    /// `.NAME.sync.plist`: what its surveys' sync knows (`SyncLedger`).
    case sync
    /// `.NAME.sync-journal`: the ledger's changes since it was last written whole
    /// (`SyncLedgerJournal`). Not `.NAME.sync.journal`, the write-ahead journal of a document
    /// named `NAME.sync`.
    case syncJournal
    /// `.NAME.synced.plist`: what a sync with nothing to do needs (`SyncMark`).
    case syncMark
    /// `.NAME.form-id`: the id its form has when the settings give none, as pyxform takes it
    /// from the file's name (the stem of the file the designer attached).
    case formID
    /// `.NAME.verify.plist`: the surveys chosen for verification, each question's outcome and
    /// each survey's keying (`VerificationLog`).
    case verification
    /// `.NAME.audit.csv`: the audit log of its surveys, ODK Collect's events (`AuditLog`).
    case audit
    /// `.NAME.history.jsonl`: every change made here to a stored survey (`EditHistory`).
    case history
    /// `.NAME.audit-sync.plist`: how far the audit log went to the team's store and came from
    /// it (`AuditSyncState`).
    case auditSync

    /// The questionnaire's spellings, in the order a document's form is looked for.
    static let forms: [DocumentCompanion] = [.formWorkbook, .formCSV, .formMarkdown]

    var marker: String {
        switch self {
        case .draft: return ".draft"
        case .deleted: return ".deleted"
        case .formWorkbook, .formCSV, .formMarkdown: return ".form"
        case .journal: return ".journal"
        case .media: return ".media"
        case .sync, .syncJournal: return ".sync"
        case .syncMark: return ".synced"
        case .formID: return ".form-id"
        case .verification: return ".verify"
        case .audit: return ".audit"
        case .history: return ".history"
        case .auditSync: return ".audit-sync"
        }
    }

    /// For messages: "its draft could not be moved".
    var noun: String {
        switch self {
        case .draft: return "draft"
        case .deleted: return "deleted surveys"
        case .formWorkbook, .formCSV, .formMarkdown: return "questionnaire"
        case .journal: return "journal"
        case .media: return "media folder"
        case .sync: return "sync ledger"
        case .syncJournal: return "sync ledger's journal"
        case .syncMark: return "sync mark"
        case .formID: return "form id"
        case .verification: return "verification record"
        case .audit: return "audit log"
        case .history: return "edit history"
        case .auditSync: return "audit log's sync"
        }
    }

    /// `.STEM.MARKER.plist`, or `STEM.form.EXT` for the questionnaire: STEM is a document
    /// name, or a trash stem inside `.trash/`.
    func fileName(stem: String) -> String {
        switch self {
        case .draft, .deleted, .sync, .syncMark, .verification, .auditSync: return "." + stem + marker + DocumentName.fileSuffix
        case .formWorkbook: return stem + ".form.xlsx"
        case .formCSV: return stem + ".form.csv"
        case .formMarkdown: return stem + ".form.md"
        case .journal: return "." + stem + ".journal"
        case .syncJournal: return "." + stem + ".sync-journal"
        case .formID: return "." + stem + ".form-id"
        case .audit: return "." + stem + ".audit.csv"
        case .history: return "." + stem + ".history.jsonl"
        case .media: return stem + ".media"
        }
    }
}

extension DocumentStore {
    /// folder/.NAME.draft.plist or folder/.NAME.deleted.plist
    func companionURL(_ companion: DocumentCompanion, for name: String) -> URL {
        folder.appendingPathComponent(companion.fileName(stem: name), isDirectory: false)
    }

    /// folder/.NAME.journal
    public func journalURL(for name: String) -> URL {
        companionURL(.journal, for: name)
    }
}
