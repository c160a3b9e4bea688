import Foundation

/// The hidden files that belong to one document and go wherever it goes: its draft (the
/// New form) and its deleted surveys. Rename, trash and restore move each of them with the
/// document, so that neither an unsent survey nor a deleted one is ever left behind under
/// an old name. Named `.NAME.MARKER.plist`; the leading "." keeps them out of the document
/// list, and the two markers can never make the same name for two documents (one name
/// ends in ".draft", the other in ".deleted").
enum DocumentCompanion: CaseIterable {
    case draft
    case deleted

    var marker: String {
        switch self {
        case .draft: return ".draft"
        case .deleted: return ".deleted"
        }
    }

    /// For messages: "its draft could not be moved".
    var noun: String {
        switch self {
        case .draft: return "draft"
        case .deleted: return "deleted surveys"
        }
    }

    /// `.STEM.MARKER.plist`: STEM is a document name, or a trash stem inside `.trash/`.
    func fileName(stem: String) -> String {
        "." + stem + marker + DocumentName.fileSuffix
    }
}

extension DocumentStore {
    /// folder/.NAME.draft.plist or folder/.NAME.deleted.plist
    func companionURL(_ companion: DocumentCompanion, for name: String) -> URL {
        folder.appendingPathComponent(companion.fileName(stem: name), isDirectory: false)
    }
}
