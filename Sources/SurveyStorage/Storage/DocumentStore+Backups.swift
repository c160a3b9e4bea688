import FoundationEssentials
import SurveyValues
import SurveyForms

/// Backup copies left by an in-place save that was interrupted (`InPlaceWrite`). Such a copy
/// may be the only good version of a document, so nothing removes it; a document that fails
/// to load says where it is, so a person can look and put it back.
extension DocumentStore {
    /// " (its content before an interrupted save may be in .X.plist.backup-…)", or "".
    func backupNotice(for fileName: String) -> String {
        let prefix = "." + fileName + InPlaceWrite.backupMarker
        let backups = ((try? FolderEntry.list(folder)) ?? []).compactMap(\.validName)
            .filter { $0.hasPrefix(prefix) }.sorted()
        guard !backups.isEmpty else { return "" }
        return "; a copy from before an interrupted save is in " + backups.joined(separator: ", ")
    }
}
