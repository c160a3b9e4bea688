import FoundationEssentials
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Surveys that could not stay where they belonged: the records of a document that vanished
/// while open, when the terminal closed or a signal came before they were saved under a name;
/// or another window's New form that this one's would otherwise have replaced. Each is a
/// hidden `.NAME.recovered-DATE-PID.plist` beside the documents (the document format, so
/// plistlib reads it), offered at the next start to put back or discard. Rejected: a
/// recovery folder in the state directory (lost when the document folder is copied to
/// another machine) and a visible `.plist` (it would be listed as a document).
public struct Recovery: Equatable, Sendable {
    /// The document the surveys belong to.
    public let documentName: String
    public let fileName: String
    public let date: Date
    public let records: [Record]
    /// What names the surveys: their document's questionnaire (`DocumentStore.documentForm`).
    public let questionnaire: Questionnaire

    public init(documentName: String, fileName: String, date: Date, records: [Record],
                questionnaire: Questionnaire = .standard) {
        self.documentName = documentName
        self.fileName = fileName
        self.date = date
        self.records = records
        self.questionnaire = questionnaire
    }
}

extension DocumentStore {
    static let recoveryMarker = ".recovered-"

    /// Writes `records` to a new recovery file for `name` (never replacing one). Returns its name.
    @discardableResult
    public func saveRecovery(_ records: [Record], for name: String, at date: Date = Date()) throws -> String {
        let stamp = Self.recoveryStamp(date)
        let data = try SurveyDocument(records: records).propertyListData()
        for attempt in 0..<100 {
            let fileName = "." + name + Self.recoveryMarker + stamp + "-\(getpid())" + (attempt == 0 ? "" : "-\(attempt)")
                + DocumentName.fileSuffix
            do {
                try AtomicFile.create(data, at: folder.appendingPathComponent(fileName), in: fileSystem)
                return fileName
            } catch let error as SystemError where error.code == EEXIST {
                continue
            } catch let error as SystemError {
                throw DocumentError("Could not keep the surveys of “\(name)” in \(fileName): \(error.reason)")
            }
        }
        throw DocumentError("Could not keep the surveys of “\(name)”: too many recovery files")
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
            return Recovery(documentName: name, fileName: entry, date: date, records: records, questionnaire: named)
        }
        .sorted { ($0.date, $0.fileName) < ($1.date, $1.fileName) }
    }

    /// Appends the recovered surveys to their document (creating it when it is gone), then
    /// removes the recovery file. Returns the document's name.
    @discardableResult
    public func restore(_ recovery: Recovery) throws -> String {
        let target = try self.target(requested: recovery.documentName, remembered: nil)
        // Shaped by the document's own questionnaire (a form's surveys get no empty answers
        // to the original five); a form with errors puts them back as they were kept.
        let questionnaire = (try? questionnaire(for: recovery.documentName)) ?? Questionnaire(fields: [])
        try append(recovery.records, to: target, questionnaire: questionnaire)
        let name = existingName(matching: recovery.documentName) ?? recovery.documentName
        if fileSystem.unlink(folder.appendingPathComponent(recovery.fileName).path) != 0, errno != ENOENT {
            throw DocumentError("Put the surveys back into “\(name)”, but could not remove \(recovery.fileName): \(SystemError("unlink").reason)")
        }
        return name
    }

    /// Moves the recovery file into the trash (never gone for good).
    public func discard(_ recovery: Recovery) throws {
        do {
            try createTrashFolder()
            try FileMove.withoutReplacing(from: folder.appendingPathComponent(recovery.fileName).path,
                                          to: trashFolder.appendingPathComponent(recovery.fileName).path, in: fileSystem)
        } catch let error as SystemError {
            throw DocumentError("Could not move \(recovery.fileName) to the trash: \(error.reason)")
        }
    }

    private static func recoveryStamp(_ date: Date) -> String {
        let c = CivilTime(date, in: .current)
        return String(printf: "%04d%02d%02d-%02d%02d%02d", c.year, c.month, c.day, c.hour, c.minute, c.second)
    }
}
