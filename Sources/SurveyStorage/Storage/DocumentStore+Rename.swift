import FoundationEssentials
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import SurveyValues
import SurveyForms

/// Renaming a document together with its draft and its deleted surveys, so an unsent New
/// form and the surveys `survey undelete` can bring back follow their document.
extension DocumentStore {
    /// `old` is matched like `existingName(matching:)`; missing -> "“OLD” does not exist".
    /// `raw` follows the `create` rules, except that the document's own name does not count
    /// as taken: changing only its case (or accent composition) is allowed, and a name equal
    /// to the current one does nothing. Never replaces another file. Returns the new name.
    @discardableResult
    public func rename(_ old: String, to raw: String, at date: Date) throws -> String {
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
        let source = filePath(for: current)   // the file itself, even when its name is not UTF-8
        let renamed = RawPath(url(for: new).path)
        let companions = DocumentCompanion.allCases.map { companion in
            MoveStep(companion: companion, run: { try moveCompanion(companion, from: current, to: new, at: date) },
                     undo: { try? moveCompanion(companion, from: new, to: current, at: date) })
        }
        do {
            try moveTogether([MoveStep(companion: nil, run: { try relocate(source, to: renamed, viaTemporary: caseOnly) },
                                       undo: { try? relocate(renamed, to: source, viaTemporary: caseOnly) })]
                             + companions)
        } catch let failed as MoveStepFailed {
            guard let companion = failed.companion else {
                if failed.error.code == EEXIST { throw Self.alreadyExists(new) }
                throw DocumentError("Could not rename “\(current)” to “\(new)”: \(failed.error.reason)")
            }
            throw DocumentError("Could not rename “\(current)” to “\(new)”: its \(companion.noun) could not be moved: \(failed.error.reason)")
        }
        return new
    }

    /// Parks the companion under a temporary name first, so that on a case-insensitive file
    /// system it is never mistaken for a stale one already using the new name.
    private func moveCompanion(_ companion: DocumentCompanion, from old: String, to new: String, at date: Date) throws {
        let source = companionURL(companion, for: old)
        guard isOccupied(source) else { return }
        let parked = folder.appendingPathComponent(AtomicFile.parkingName(for: source.lastPathComponent))
        try FileMove.withoutReplacing(from: source.path, to: parked.path, in: fileSystem)
        do {
            try moveStaleCompanionToTrash(companion, of: new, at: date)
            try FileMove.withoutReplacing(from: parked.path, to: companionURL(companion, for: new).path, in: fileSystem)
        } catch {
            try? FileMove.withoutReplacing(from: parked.path, to: source.path, in: fileSystem)
            throw error
        }
    }

    /// A plain no-replace move, or two of them through a hidden parking name.
    func relocate(_ source: RawPath, to target: RawPath, viaTemporary: Bool) throws {
        guard viaTemporary else {
            return try FileMove.withoutReplacing(from: source, to: target, in: fileSystem)
        }
        let fileName = String(decoding: source.bytes.split(separator: UInt8(ascii: "/")).last ?? [], as: UTF8.self)
        let parked = RawPath(folder.appendingPathComponent(AtomicFile.parkingName(for: fileName)).path)
        try FileMove.withoutReplacing(from: source, to: parked, in: fileSystem)
        do {
            try FileMove.withoutReplacing(from: parked, to: target, in: fileSystem)
        } catch {
            try? FileMove.withoutReplacing(from: parked, to: source, in: fileSystem)
            throw error
        }
    }
}
