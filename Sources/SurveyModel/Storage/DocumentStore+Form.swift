import FoundationEssentials

/// A document's questionnaire: `NAME.form.xlsx` (or `.csv`, `.md`) beside `NAME.plist`, a copy
/// of the designer's file, so the folder carries the form its records were keyed with and it
/// follows the document through rename, trash and restore (`DocumentCompanion`).
extension DocumentStore {
    /// The questionnaire file of a document, if it has one.
    public func formURL(for name: String) -> URL? {
        DocumentCompanion.forms.map { companionURL($0, for: name) }.first { isOccupied($0) }
    }

    /// Copies the form at `path` in as the document's questionnaire, after checking it can be
    /// used (a form with errors is refused with them all). A questionnaire already there is
    /// moved to `.trash/` first, never overwritten. Returns the warnings.
    ///
    /// The list files the form reads (`select_one_from_file`, `pulldata`) go into the
    /// document's media folder: those given in `media`, and the others the form names that
    /// are beside the form itself, as a designer keeps them. A file the form names and nobody
    /// brought is a warning: the form opens, its list empty until the file is attached.
    @discardableResult
    public func attachForm(from path: String, to name: String, media: [String] = []) throws -> [XLSFormProblem] {
        guard exists(name) else { throw Self.doesNotExist(name) }
        let lower = path.lowercased()
        let companion: DocumentCompanion = lower.hasSuffix(".xlsx") ? .formWorkbook
            : lower.hasSuffix(".md") || lower.hasSuffix(".markdown") ? .formMarkdown : .formCSV
        let result = XLSForm.read(try XLSFormSheets.read(fileAt: path))
        guard result.form != nil else {
            throw UnusableFormError(lines: [
                "\(path) cannot be used as a questionnaire (\(counted(result.errors.count, "error"))):"
            ] + result.errors.map(\.description))
        }
        guard let data = FileManager.default.contents(atPath: path) else { throw DocumentError("\(path) could not be read") }
        for old in DocumentCompanion.forms where isOccupied(companionURL(old, for: name)) {
            try moveStaleCompanionToTrash(old, of: name)
        }
        let given = Set(media.map { URL(fileURLWithPath: $0).lastPathComponent })
        let besideForm = URL(fileURLWithPath: path).deletingLastPathComponent()
        let found = (result.form?.mediaFiles ?? []).filter { !given.contains($0) && MediaFolder.problem(withName: $0) == nil }
            .map { besideForm.appendingPathComponent($0).path }.filter { FileManager.default.fileExists(atPath: $0) }
        try attachMediaFiles(media + found, to: name)
        try write(data, to: companionURL(companion, for: name))
        let loaded = result.form?.loadingMedia(from: mediaFolderToRead(for: name)).warnings ?? []
        return result.warnings + loaded
    }
}

extension DocumentStore {
    /// The questionnaire a document's records are keyed with: its form, or the original
    /// five fields when it has none. A form that cannot be read or has errors throws with
    /// every error, so nobody keys answers under a questionnaire the designer did not mean.
    public func questionnaire(for name: String) throws -> Questionnaire {
        guard let url = formURL(for: name) else { return .standard }
        let result = XLSForm.read(try XLSFormSheets.read(fileAt: url.path))
        guard let form = result.form else {
            throw DocumentError(([
                "The questionnaire \(url.lastPathComponent) cannot be used (\(counted(result.errors.count, "error"))):"
            ] + result.errors.map(\.description)).joined(separator: "\n"))
        }
        return Questionnaire(form: form.identified(byDefault: name).loadingMedia(from: mediaFolderToRead(for: name)).form)
    }
}

/// A form refused for its errors: a heading, then one line per error. The lines are kept
/// apart so a shell prints each on its own line; joined with line breaks into one message
/// they would be shown as U+FFFD, the way a control character in a message is shown.
public struct UnusableFormError: Error, CustomStringConvertible {
    public let lines: [String]
    public var description: String { lines.joined(separator: "\n") }
}
