import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Renaming a document together with its draft, so an unsent New form follows its document.
extension DocumentStore {
    /// `old` is matched like `existingName(matching:)`; missing -> "“OLD” does not exist".
    /// `raw` follows the `create` rules, except that the document's own name does not count
    /// as taken: changing only its case (or accent composition) is allowed, and a name equal
    /// to the current one does nothing. Never replaces another file. Returns the new name.
    @discardableResult
    public func rename(_ old: String, to raw: String) throws -> String {
        let names = listedNames()
        let wanted = DocumentName.cleaned(old)
        guard let current = Self.match(wanted, in: names) else { throw Self.doesNotExist(wanted) }
        let new = try Self.validateName(raw).get()
        // Swift's == ignores composition (NFC/NFD): nothing a person could see would change.
        if new == current { return current }
        let others = names.filter { !$0.utf8.elementsEqual(current.utf8) }
        if let taken = Self.match(new, in: others) { throw Self.alreadyExists(taken) }

        // On a case-insensitive file system "field.plist" already "exists" as "Field.plist"
        // (it is the same file), so a change of case goes through a temporary name.
        let caseOnly = DocumentName.matchKey(new) == DocumentName.matchKey(current)
        do {
            try relocate(url(for: current), to: url(for: new), viaTemporary: caseOnly)
        } catch let error as SystemError where error.code == EEXIST {
            throw Self.alreadyExists(new)
        } catch let error as SystemError {
            throw DocumentError("Could not rename “\(current)” to “\(new)”: \(error.reason)")
        }
        do {
            try moveDraft(from: current, to: new)
        } catch let error as SystemError {
            try? relocate(url(for: new), to: url(for: current), viaTemporary: caseOnly)
            throw DocumentError("Could not rename “\(current)” to “\(new)”: its draft could not be moved: \(error.reason)")
        }
        try? AtomicFile.syncFolder(folder.path)
        return new
    }

    /// Parks the draft under a temporary name first, so that on a case-insensitive file
    /// system it is never mistaken for a stale draft already using the new name.
    private func moveDraft(from old: String, to new: String) throws {
        let source = draftURL(for: old)
        guard isOccupied(source) else { return }
        let parked = folder.appendingPathComponent(AtomicFile.temporaryName(for: source.lastPathComponent))
        try FileMove.withoutReplacing(from: source.path, to: parked.path)
        do {
            try moveStaleDraftToTrash(of: new)
            try FileMove.withoutReplacing(from: parked.path, to: draftURL(for: new).path)
        } catch {
            try? FileMove.withoutReplacing(from: parked.path, to: source.path)
            throw error
        }
    }

    /// A plain no-replace move, or two of them through a hidden temporary name.
    func relocate(_ source: URL, to target: URL, viaTemporary: Bool) throws {
        guard viaTemporary else {
            return try FileMove.withoutReplacing(from: source.path, to: target.path)
        }
        let parked = folder.appendingPathComponent(AtomicFile.temporaryName(for: source.lastPathComponent))
        try FileMove.withoutReplacing(from: source.path, to: parked.path)
        do {
            try FileMove.withoutReplacing(from: parked.path, to: target.path)
        } catch {
            try? FileMove.withoutReplacing(from: parked.path, to: source.path)
            throw error
        }
    }
}
