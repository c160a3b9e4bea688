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
        return try attach(try formToAttach(from: path, media: media), to: name)
    }

    /// A form and its list files read and checked, not yet copied in (`docs new --form`
    /// reads them before it creates the document, so a refused one leaves nothing behind).
    public struct FormToAttach {
        let path: String
        let companion: DocumentCompanion
        let copy: CopiedFile
        let files: [(file: String, copy: CopiedFile)]
        let result: (form: XLSForm?, errors: [XLSFormProblem], warnings: [XLSFormProblem])
    }

    /// The form at `path` and the list files it reads (`media`, and those beside it), read as
    /// copies are (`CopiedFile`: its own bytes, never through a link, its mode kept) and
    /// checked: a form with errors is refused with them all.
    public func formToAttach(from path: String, media: [String] = []) throws -> FormToAttach {
        let lower = path.lowercased()
        let companion: DocumentCompanion = lower.hasSuffix(".xlsx") ? .formWorkbook
            : lower.hasSuffix(".md") || lower.hasSuffix(".markdown") ? .formMarkdown : .formCSV
        // The bytes checked are the bytes copied.
        let copy = try CopiedFile.read(path, in: fileSystem, maximumBytes: XLSFormSheets.maximumBytes)
        let result = XLSForm.read(try XLSFormSheets.read(copy.data, named: path))
        guard result.form != nil else {
            throw UnusableFormError(lines: [
                "\(path) cannot be used as a questionnaire (\(counted(result.errors.count, "error"))):"
            ] + result.errors.map(\.description))
        }
        let given = Set(media.map { URL(fileURLWithPath: $0).lastPathComponent })
        let besideForm = URL(fileURLWithPath: path).deletingLastPathComponent()
        // A file the form names that sits beside it (a link there too, to be refused).
        let found = (result.form?.mediaFiles ?? []).filter { !given.contains($0) && MediaFolder.problem(withName: $0) == nil }
            .map { besideForm.appendingPathComponent($0) }.filter(isOccupied).map(\.path)
        return FormToAttach(path: path, companion: companion, copy: copy, files: try readMediaFiles(media + found), result: result)
    }

    /// Copies in what `formToAttach` read: the list files, then the form, the old form moved
    /// to `.trash/` first. Returns the warnings.
    @discardableResult
    public func attach(_ prepared: FormToAttach, to name: String) throws -> [XLSFormProblem] {
        guard exists(name) else { throw Self.doesNotExist(name) }
        for old in DocumentCompanion.forms where isOccupied(companionURL(old, for: name)) {
            try moveStaleCompanionToTrash(old, of: name)
        }
        _ = try install(prepared.files, to: name)
        try write(prepared.copy, to: companionURL(prepared.companion, for: name))
        let loaded = prepared.result.form?.loadingMedia(from: mediaFolderToRead(for: name)).warnings ?? []
        return prepared.result.warnings + loaded
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
