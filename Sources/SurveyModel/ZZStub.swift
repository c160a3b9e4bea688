import Foundation
// TEMPORARY: the deleted-surveys file API arrives with the feat/ids-cli merge, which removes this file.
extension DocumentStore {
    public func appendDeleted(_ records: [Record], for name: String, at date: Date = Date()) throws {}
    public func removeFromDeleted(ids: Set<String>, for name: String) throws {}
}
