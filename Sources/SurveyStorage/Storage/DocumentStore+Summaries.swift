import FoundationEssentials
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import SurveyValues
import SurveyForms

extension DocumentStore {
    /// Every document, sorted like `documentNames()`; none when the folder cannot be listed.
    public func summaries() -> [DocumentSummary] {
        listedNames().compactMap { summary(of: $0) }
    }

    /// nil when there is no such document. Reads the whole file to count records (a count
    /// that is right beats one that is fast), but only a file `load` would read: one over
    /// the size limit or not starting like a property list is refused before it is read, so
    /// listing a folder stays quick and its memory bounded by the limit.
    public func summary(of name: String) -> DocumentSummary? {
        guard exists(name) else { return nil }
        var status = stat()
        let path = filePath(for: name)
        let note = path == RawPath(url(for: name).path) ? nil : Self.rawNameNote
        let statted = path.withCString { stat($0, &status) } == 0
        let modified = statted ? Self.modificationDate(status) : nil
        let size = statted ? Int(status.st_size) : 0
        switch load(name) {
        case .success(let document):
            return DocumentSummary(name: name, recordCount: document.records.count, problem: nil,
                                   modified: modified, byteSize: size, note: note)
        case .failure(let error):
            return DocumentSummary(name: name, recordCount: nil, problem: error.message,
                                   modified: modified, byteSize: size, note: note)
        }
    }

    static func modificationDate(_ status: stat) -> Date {
        #if canImport(Darwin)
        let time = status.st_mtimespec
        #else
        let time = status.st_mtim
        #endif
        return Date(timeIntervalSince1970: TimeInterval(time.tv_sec) + TimeInterval(time.tv_nsec) / 1e9)
    }
}
