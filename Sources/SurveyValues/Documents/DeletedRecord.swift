import FoundationEssentials

/// A survey deleted from a document, kept in the document's `.NAME.deleted.plist` so that it
/// is never gone for good (`DocumentStore.undelete`).
public struct DeletedRecord: Equatable, Sendable {
    public var record: Record
    /// Whole seconds once read back: an XML property list stores dates to the second.
    public var deletedAt: Date

    public init(record: Record, deletedAt: Date) {
        self.record = record
        self.deletedAt = deletedAt
    }
}

/// One entry of the companion file: `{deletedAt: <date>, record: <dict>}`. The record is
/// kept whole, as its own dictionary, rather than flattened beside the date: its keys can
/// never clash with the entry's, and a tool reading the file (plistlib) finds the record
/// exactly as it was in the document. Rejected: a plain document of records with a
/// `deletedAt` key added to each (it would change the records, and could be mistaken for a
/// document if someone renamed the file).
extension DeletedRecord {
    package static let deletedAtKey = "deletedAt"
    package static let recordKey = "record"

    package var entry: [String: PropertyValue] {
        [Self.deletedAtKey: .date(deletedAt), Self.recordKey: .dictionary(record.values)]
    }

    /// nil for an entry not shaped as this code writes it (written by hand or another tool):
    /// it is not listed, and is kept in the file untouched.
    package init?(entry: [String: PropertyValue]) {
        guard case .date(let date) = entry[Self.deletedAtKey],
              case .dictionary(let values) = entry[Self.recordKey] else { return nil }
        self.init(record: Record(values), deletedAt: date)
    }
}
