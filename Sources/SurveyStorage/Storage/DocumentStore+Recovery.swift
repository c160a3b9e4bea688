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

extension DocumentStore {
    static let recoveryMarker = ".recovered-"

    /// Writes `records` to a new recovery file for `name` (never replacing one). Returns its
    /// name. `bases` (a save clash: the same surveys before either side changed them) go to
    /// its companion; when that cannot be written the surveys are still kept, and merge
    /// without a base (every answer the two versions hold differently then clashes).
    @discardableResult
    public func saveRecovery(_ records: [Record], bases: [Record] = [], for name: String, at date: Date) throws -> String {
        let data = try SurveyDocument(records: records).propertyListData()
        let fileName: String
        do {
            fileName = try createRecoveryFile(data, for: name, at: date, in: folder)
        } catch let error as SystemError where error.code == EEXIST {
            throw DocumentError("Could not keep the surveys of “\(name)”: too many recovery files")
        } catch let error as SystemError {
            throw DocumentError("Could not keep the surveys of “\(name)” in a recovery file: \(error.reason)")
        }
        if !bases.isEmpty, let baseData = try? SurveyDocument(records: bases).propertyListData() {
            let baseURL = folder.appendingPathComponent(Recovery.baseFileName(of: fileName))
            // Never over a file already there (one a failed move left): then no base.
            try? AtomicFile.create(baseData, at: baseURL, in: fileSystem)
        }
        return fileName
    }

    /// Creates `.NAME.recovered-DATE-PID[-N].plist` in `directory`, never replacing a file.
    private func createRecoveryFile(_ data: Data, for name: String, at date: Date, in directory: URL) throws -> String {
        let stamp = Self.recoveryStamp(date)
        for attempt in 0..<100 {
            let fileName = "." + name + Self.recoveryMarker + stamp + "-\(getpid())" + (attempt == 0 ? "" : "-\(attempt)")
                + DocumentName.fileSuffix
            do {
                try AtomicFile.create(data, at: directory.appendingPathComponent(fileName), in: fileSystem)
                return fileName
            } catch let error as SystemError where error.code == EEXIST {
                continue
            }
        }
        throw SystemError("create", code: EEXIST)
    }

    /// Every recovery file in the folder, oldest first. Unreadable ones are skipped (and
    /// left alone).
    public func recoveries() -> [Recovery] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return entries.compactMap { entry -> Recovery? in
            guard entry.hasPrefix("."), entry.hasSuffix(DocumentName.fileSuffix),
                  let marker = entry.lastRange(of: Self.recoveryMarker) else { return nil }
            // Only names this code makes: ".NAME.recovered-DIGITS-DIGITS-PID[-N].plist", so a
            // draft of a document whose own name holds ".recovered-" is never taken for one.
            let stamp = entry[marker.upperBound...].dropLast(DocumentName.fileSuffix.count)
            guard !stamp.isEmpty, stamp.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == "-") }) else { return nil }
            let name = String(entry[entry.index(after: entry.startIndex)..<marker.lowerBound])
            let url = folder.appendingPathComponent(entry)
            guard !name.isEmpty, case .success(let data) = readFile(url),
                  let document = try? SurveyDocument(propertyListData: data),
                  let attributes = try? FileManager.default.attributesOfItem(atPath: url.path) else { return nil }
            let date = attributes[.modificationDate] as? Date ?? Date(timeIntervalSince1970: 0)
            let records = Array(document.records)
            // Named as their document names them; with the document gone, by the form their own
            // `formID` says they were keyed with.
            let named = documentForm(for: name, firstSurveys: firstSurveys(of: name) + records).questionnaire
            var bases: [String: Record] = [:]
            if case .success(let baseData) = readFile(folder.appendingPathComponent(Recovery.baseFileName(of: entry))),
               let base = try? SurveyDocument(propertyListData: baseData) {
                for record in base.records { if let id = record.instanceID, bases[id] == nil { bases[id] = record } }
            }
            return Recovery(documentName: name, fileName: entry, date: date, records: records, questionnaire: named,
                            bases: bases)
        }
        .sorted { ($0.date, $0.fileName) < ($1.date, $1.fileName) }
    }

    /// Puts the recovered surveys back into their document (creating it when it is gone):
    /// merged into the surveys it still has, the others appended (`Recovery.merge`), in one
    /// write under the folder's lock, the document's surveys whose answers it replaces kept in
    /// .trash first; then the recovery goes to .trash. Returns the document's name, what the
    /// merge did, and why the recovery could not go to .trash (it is then offered again, and
    /// merging it again changes nothing).
    @discardableResult
    public func restore(_ recovery: Recovery, theirsWhereBothChanged: Bool = false, clock: Questionnaire.Clock)
        throws -> (name: String, merge: RecoveryMerge, notPutAway: String?) {
        let target = try self.target(requested: recovery.documentName, remembered: nil)
        // Shaped by the document's own questionnaire (a form's surveys get no empty answers
        // to the original five); a form with errors puts them back as they were kept.
        let questionnaire = (try? questionnaire(for: recovery.documentName)) ?? Questionnaire(fields: [])
        let merge: RecoveryMerge
        // An encrypted survey's attachment whose plaintext could not be removed (said with the rest).
        var leftAttachments: String?
        switch target {
        case .existing(let name):
            merge = try withFolderLock {
                var document = try load(name).get()
                // Ids as the app holding the document gives them, so a kept survey finds its own.
                _ = document.identifyRecordsFoundWithoutIDs()
                var merge = recovery.merge(into: document, questionnaire: questionnaire,
                                           theirsWhereBothChanged: theirsWhereBothChanged, clock: clock)
                try keepReplaced(merge.replaced, of: recovery, at: clock.now)
                merge.document.assignMissingInstanceIDs()
                // A form with a public_key: the finished surveys put back are written encrypted.
                let changed = merge.document.records.indices.filter { i in
                    i >= document.records.count || !merge.document.records[i].isSameStorage(as: document.records[i])
                }
                var attachments: Set<String> = []
                for i in changed {
                    attachments.formUnion(try sealFinishedSurveys(in: &merge.document, at: i..<(i + 1), questionnaire: questionnaire, name: name))
                }
                try save(merge.document, as: name)
                leftAttachments = removeSealedAttachments(attachments, keepingThoseOf: merge.document, questionnaire: questionnaire, for: name)
                return merge
            }
        case .new:
            merge = recovery.merge(into: SurveyDocument(), questionnaire: questionnaire, theirsWhereBothChanged: theirsWhereBothChanged, clock: clock)
            try append(recovery.records, to: target, questionnaire: questionnaire)
        }
        let name = existingName(matching: recovery.documentName) ?? recovery.documentName
        do {
            try discard(recovery)
            return (name, merge, leftAttachments)
        } catch let error as DocumentError {
            return (name, merge, [error.message, leftAttachments].compactMap { $0 }.joined(separator: "; "))
        }
    }

    /// Kept surveys merged into the open document and saved: their file goes to .trash with
    /// its bases, never erased (the merge can be undone, and a clash's other answers are in
    /// it), after the document's surveys as they were where the merge took the kept answers
    /// over theirs (`replaced`).
    public func putAway(_ recovery: Recovery, replaced: [Record] = [], at date: Date) throws {
        try keepReplaced(replaced, of: recovery, at: date)
        try discard(recovery)
    }

    /// `replaced` in .trash as `.NAME.recovered-….yours.plist`, beside where the recovery goes.
    private func keepReplaced(_ replaced: [Record], of recovery: Recovery, at date: Date) throws {
        guard !replaced.isEmpty else { return }
        do {
            try createTrashFolder()
            let data = try SurveyDocument(records: replaced).propertyListData()
            let yours = String(recovery.fileName.dropLast(DocumentName.fileSuffix.count)) + ".yours" + DocumentName.fileSuffix
            do {
                try AtomicFile.create(data, at: trashFolder.appendingPathComponent(yours), in: fileSystem)
            } catch let error as SystemError where error.code == EEXIST {
                _ = try createRecoveryFile(data, for: recovery.documentName, at: date, in: trashFolder)
            }
        } catch let error as SystemError {
            throw DocumentError("Could not keep the answers the merge replaces in .trash: \(error.reason)")
        }
    }

    /// Moves the recovery file, and its bases, into the trash (never gone for good).
    public func discard(_ recovery: Recovery) throws {
        do {
            try createTrashFolder()
            try FileMove.withoutReplacing(from: folder.appendingPathComponent(recovery.fileName).path,
                                          to: trashFolder.appendingPathComponent(recovery.fileName).path, in: fileSystem)
        } catch let error as SystemError {
            throw DocumentError("Could not move \(recovery.fileName) to the trash: \(error.reason)")
        }
        // The bases only serve a merge: one left behind (a failed move) is never offered.
        let base = Recovery.baseFileName(of: recovery.fileName)
        try? FileMove.withoutReplacing(from: folder.appendingPathComponent(base).path,
                                       to: trashFolder.appendingPathComponent(base).path, in: fileSystem)
    }

    private static func recoveryStamp(_ date: Date) -> String {
        let c = CivilTime(date, in: .current)
        return String(printf: "%04d%02d%02d-%02d%02d%02d", c.year, c.month, c.day, c.hour, c.minute, c.second)
    }
}
