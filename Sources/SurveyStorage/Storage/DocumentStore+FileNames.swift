import FoundationEssentials
import SurveyValues
import SurveyForms

/// Documents whose file names are not valid UTF-8. They are listed under the name a person
/// sees ("caf\xE9.plist" as "caf�"), open from their own file, can be renamed and moved to
/// the trash, but are never saved under the shown name: that would write a second file,
/// "caf�.plist", beside the first. Saving asks for a rename first.
extension DocumentStore {
    /// The file of document `name`: NAME.plist, or the file shown as `name` whose name is
    /// not UTF-8 (see `rawNamedFile(for:)`).
    func filePath(for name: String) -> RawPath {
        rawNamedFile(for: name) ?? RawPath(url(for: name).path)
    }

    /// When NAME.plist itself is not there and exactly one file whose name is not valid
    /// UTF-8 is shown as NAME.plist, that file. Two such files shown alike are both left
    /// alone (nil): acting on one picked at random could delete or rename the wrong one.
    func rawNamedFile(for name: String) -> RawPath? {
        guard name.unicodeScalars.contains("\u{FFFD}"), !isOccupied(url(for: name)),
              let entries = try? FolderEntry.list(folder) else { return nil }
        let shown = name + DocumentName.fileSuffix
        let matching = entries.filter { $0.validName == nil && $0.shownName == shown }
        guard matching.count == 1 else { return nil }
        return RawPath(folder: folder, entry: matching[0].bytes)
    }

    /// Why document `name` cannot be saved under its name, if its file name is not UTF-8.
    func rawNameRefusal(for name: String) -> DocumentError? {
        guard rawNamedFile(for: name) != nil else { return nil }
        return DocumentError("“\(name)” cannot be saved: its file name is not valid UTF-8 (shown with �), "
            + "and saving would make a second file; rename it first")
    }

    /// Shown beside such a document in lists.
    static let rawNameNote = "file name not valid UTF-8: rename it to save changes"
}
