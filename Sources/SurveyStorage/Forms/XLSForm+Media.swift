import FoundationEssentials
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import SurveyValues
import SurveyForms

extension XLSForm {
    /// The form with the files it reads loaded from `folder` (a document's media folder, or
    /// the form's own folder for `survey form check`): the file side of
    /// `loadingMedia(reading:)`, which does the rest without touching a file.
    public func loadingMedia(from folder: URL?) -> (form: XLSForm, warnings: [XLSFormProblem]) {
        loadingMedia { name in folder.flatMap { Self.readListFile(named: name, in: $0) } }
    }

    /// The list file `name` of `folder`: a name the form gives (`pulldata('../../x')`, a
    /// choice file `../secrets.csv`) is never a path, so one that is not a plain file name is
    /// refused, never read.
    static func readListFile(named name: String, in folder: URL) -> Result<[UInt8], DocumentError>? {
        if let problem = MediaFolder.problem(withName: name) {
            return .failure(DocumentError("the form's list file \(problem): survey reads only files in the form's own folder"))
        }
        return readListFile(folder.appendingPathComponent(name))
    }

    /// A list file's bytes; nil when there is none. Before reading, as for the form itself:
    /// a FIFO or a device named villages.csv, or a 3 GB file, is refused at once instead of
    /// hanging the app that opens the form.
    static func readListFile(_ url: URL) -> Result<[UInt8], DocumentError>? {
        var info = stat()
        guard stat(url.path, &info) == 0 else {
            let code = errno
            return code == ENOENT ? nil : .failure(DocumentError("\(url.lastPathComponent) could not be read (\(String(cString: strerror(code))))"))
        }
        guard info.st_mode & S_IFMT == S_IFREG else { return .failure(DocumentError("\(url.lastPathComponent) is not a regular file")) }
        let limit = FormMedia.maximumListBytes
        guard Int(info.st_size) <= limit else {
            return .failure(DocumentError("\(url.lastPathComponent) is \(Int(info.st_size) / 1_048_576) MB: a choice list is at most \(limit / 1_048_576) MB"))
        }
        guard let data = FileManager.default.contents(atPath: url.path) else {
            return .failure(DocumentError("\(url.lastPathComponent) could not be read"))
        }
        return .success([UInt8](data))
    }
}
