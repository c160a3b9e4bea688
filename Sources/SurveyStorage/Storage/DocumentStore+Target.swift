import FoundationEssentials
import SurveyValues
import SurveyForms

/// The document a shell command works on. It picks exactly what the app would open, but
/// unlike `prepare` never creates anything: a script that lists or exports must not leave an
/// "Untitled" behind, and only a command that adds records may bring a named document into
/// being (by handing `.new` to `append`).
public enum DocumentTarget: Equatable, Sendable {
    /// The existing spelling of a document that is there.
    case existing(String)
    /// A valid name (cleaned, NFC) that no document has yet.
    case new(String)
}

extension DocumentStore {
    /// With `requested` (--doc): the existing document it names (matched like
    /// `existingName(matching:)`, so even an odd name that is listed can be reached), else
    /// `.new` with the name cleaned by `validateName`, whose refusal is thrown. Without:
    /// `remembered` when it still exists, else the first document; a folder without documents
    /// (or no folder yet) throws, since only a name given on purpose may create one.
    public func target(requested: String?, remembered: String?) throws -> DocumentTarget {
        if let requested {
            if let existing = existingName(matching: requested) { return .existing(existing) }
            return .new(try Self.validateName(requested).get())
        }
        let names = FileManager.default.fileExists(atPath: folder.path) ? try documentNames() : []
        if let remembered, let match = Self.match(remembered, in: names) { return .existing(match) }
        if let first = names.first { return .existing(first) }
        throw DocumentError("There are no documents in \(folder.path)")
    }
}
