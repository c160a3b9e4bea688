import FoundationEssentials
import SurveyValues
import SurveyForms

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
    ///
    /// The form's id when its settings give none is pyxform's, the stem of the file's name
    /// (`UCL_Biomass_Plot_Form.xlsx` is `UCL_Biomass_Plot_Form`), or `formID` when given (a
    /// form taken from the team's server keeps the id it was published with); it is kept
    /// beside the document (`.NAME.form-id`), since the copy is renamed `NAME.form.xlsx`. A
    /// document whose form had an id already keeps it through later versions, whatever
    /// their files are called: its surveys, its ODK exports and its team's server know it
    /// by that id. A document that got its form before the id was kept (its surveys carry
    /// the document's name) keeps the document's name.
    @discardableResult
    public func attachForm(from path: String, to name: String, media: [String] = [], formID: String? = nil, at date: Date) throws -> [XLSFormProblem] {
        guard exists(name) else { throw Self.doesNotExist(name) }
        return try attach(try formToAttach(from: path, media: media), to: name, formID: formID, at: date)
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
    /// `formID`: the id a form without one in its settings is known by (see `attachForm`);
    /// nil: the stem of its file's name.
    @discardableResult
    public func attach(_ prepared: FormToAttach, to name: String, formID: String? = nil, at date: Date) throws -> [XLSFormProblem] {
        guard exists(name) else { throw Self.doesNotExist(name) }
        let keptID = isOccupied(companionURL(.formID, for: name)) ? nil
            : formURL(for: name) != nil ? name
            : formID ?? Self.fileStem(prepared.path)
        for old in DocumentCompanion.forms where isOccupied(companionURL(old, for: name)) {
            try moveStaleCompanionToTrash(old, of: name, at: date)
        }
        _ = try install(prepared.files, to: name)
        if let keptID {
            try write(Data((keptID + "\n").utf8), to: companionURL(.formID, for: name))
        }
        try write(prepared.copy, to: companionURL(prepared.companion, for: name))
        // A form that encrypts keeps its audit log inside each submission: the log's sync, begun
        // under a form that did not, stops (a sync with nothing to do would go on with it).
        if prepared.result.form?.publicKey?.isEmpty == false { forgetAuditSync(for: name) }
        let loaded = prepared.result.form.map { loadingListFiles($0, for: name).warnings } ?? []
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
        return Questionnaire(form: loadingListFiles(form.identified(byDefault: defaultFormID(for: name)), for: name).form)
    }

    /// The id of the document's form when its settings give none: the one kept when it was
    /// attached (`attachForm`), else the document's name (a form attached before it was kept).
    func defaultFormID(for name: String) -> String {
        guard let data = FileManager.default.contents(atPath: companionURL(.formID, for: name).path),
              let line = String(data: data, encoding: .utf8)?.split(whereSeparator: \.isNewline).first,
              case let text = String(line).trimmingWhitespace(), !text.isEmpty else { return name }
        return text
    }

    /// pyxform's name for a form file: its name without the folder and the last extension.
    public static func fileStem(_ path: String) -> String {
        let file = URL(fileURLWithPath: path).lastPathComponent
        guard let dot = file.lastIndex(of: "."), dot != file.startIndex else { return file }
        return String(file[..<dot])
    }
}

/// A form refused for its errors: a heading, then one line per error. The lines are kept
/// apart so a shell prints each on its own line; joined with line breaks into one message
/// they would be shown as U+FFFD, the way a control character in a message is shown.
public struct UnusableFormError: Error, CustomStringConvertible {
    public let lines: [String]
    public var description: String { lines.joined(separator: "\n") }
}
