import FoundationEssentials
import SurveyValues
import SurveyForms
import SurveyStorage

/// Carrying out `survey docs ...`: one call into the model, one line saying what was done.
/// Rename and rm also update the session memory, so the app does not reopen a name that no
/// longer exists nor lose the record it was showing.
extension DocsCommand {
    /// 0 done, 1 refused (the reason on stderr).
    func run(store: DocumentStore, stateURL: URL, at date: Date) -> Int32 {
        do {
            switch self {
            case .list:
                // A folder that does not exist yet simply has no documents (the app creates
                // it on first start); one that exists but cannot be listed is an error.
                if FileManager.default.fileExists(atPath: store.folder.path) {
                    _ = try store.documentNames()
                }
                DocumentTable.lines(store.summaries()).forEach(ShellOutput.line)
            case .new(let raw, let form):
                // The form (and its list files) is read and checked before anything is
                // created: a bad one, or a link, leaves nothing behind.
                var prepared: DocumentStore.FormToAttach?
                if let form {
                    let checked = XLSForm.read(try XLSFormSheets.read(fileAt: form))
                    guard checked.form != nil else {
                        checked.errors.forEach { ShellOutput.error("\($0)") }
                        throw DocumentError("\(form): \(counted(checked.errors.count, "error")): nothing was created")
                    }
                    prepared = try store.formToAttach(from: form)
                }
                let name = try store.create(named: raw)
                if let form, let prepared {
                    try store.attach(prepared, to: name, at: date).forEach { ShellOutput.error("warning: \($0)") }
                    ShellOutput.line("Created “\(name)” with the questionnaire \(store.formURL(for: name)?.lastPathComponent ?? form)")
                } else {
                    ShellOutput.line("Created “\(name)”")
                }
            case .rename(let old, let raw):
                let current = store.existingName(matching: old)
                let new = try store.rename(old, to: raw, at: date)
                guard let current, !current.utf8.elementsEqual(new.utf8) else {
                    ShellOutput.line("“\(new)” already has that name: nothing to do")
                    return 0
                }
                ShellOutput.line("Renamed “\(current)” to “\(new)”")
                updateMemory(stateURL) { $0.renamed(current, to: new, in: store.folder) }
            case .remove(let raw):
                // Counted before the move, for a line that says what went.
                let current = store.existingName(matching: raw)
                let records = current.flatMap(store.summary(of:))?.recordCount
                try store.delete(raw, at: date)
                guard let current else { return 0 }
                let count = records.map { " (\(counted($0, "record")))" } ?? ""
                ShellOutput.line("Moved “\(current)”\(count) to the trash")
                updateMemory(stateURL) { $0.forget(document: current, in: store.folder) }
            case .restore(let raw):
                let entry = store.trashed(matching: raw)
                let name = try store.restore(raw, at: date)
                if let entry, !entry.name.utf8.elementsEqual(name.utf8) {
                    ShellOutput.line("Restored “\(entry.name)” as “\(name)”")
                } else {
                    ShellOutput.line("Restored “\(name)”")
                }
            }
            return 0
        } catch {
            ShellOutput.failure(error)
            return 1
        }
    }

    /// The document operation has already happened, so a state file that cannot be written
    /// is a warning, not a failure: at worst the app opens the first document next time.
    private func updateMemory(_ url: URL, _ change: (inout SessionMemory) -> Void) {
        do {
            try SessionMemory.update(at: url, change)
        } catch {
            ShellOutput.error("warning: \(error)")
        }
    }
}
