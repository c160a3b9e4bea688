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

extension XLSFormSheets {
    /// The largest questionnaire file read (forms with thousands of questions are a few MB).
    public static let maximumBytes = 32 * 1_048_576

    /// A form file by its extension: `.xlsx`, or `.csv` / `.md` (pyxform's text layouts). A `.xls`
    /// (the old binary format) is refused with what to do instead.
    public static func read(fileAt path: String) throws -> XLSFormSheets {
        let lower = path.lowercased()
        if lower.hasSuffix(".xls") {
            throw DocumentError("\(path) is an old .xls workbook: save it as .xlsx, or as CSV in pyxform's layout")
        }
        // Before reading: a questionnaire is a few kilobytes to a few megabytes, so anything
        // but a regular file of at most `maximumBytes` (a 3 GB file, a device, a FIFO named
        // NAME.form.csv) is refused at once instead of hanging the app that opens it.
        // stat(2) itself: FileManager's attribute dictionary changed its value types between
        // Foundation and FoundationEssentials, and a size read as 0 let a 3 GB file through.
        var info = stat()
        guard stat(path, &info) == 0 else { throw DocumentError("\(path) could not be read") }
        guard info.st_mode & S_IFMT == S_IFREG else {
            throw DocumentError("\(path) is not a regular file: a questionnaire is an .xlsx, .csv or .md file")
        }
        let size = Int(info.st_size)
        guard size <= Self.maximumBytes else {
            throw DocumentError("\(path) is \(size / 1_048_576) MB: a questionnaire is at most \(Self.maximumBytes / 1_048_576) MB")
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw DocumentError("\(path) could not be read")
        }
        return try read(data, named: path)
    }

    /// The form in `data`, read by the extension of `path` (which names it in messages).
    static func read(_ data: Data, named path: String) throws -> XLSFormSheets {
        let lower = path.lowercased()
        if lower.hasSuffix(".xls") {
            throw DocumentError("\(path) is an old .xls workbook: save it as .xlsx, or as CSV in pyxform's layout")
        }
        if lower.hasSuffix(".xlsx") {
            do {
                return try workbook(data)
            } catch let error as DocumentError {
                throw DocumentError("\(path): \(error.message)")
            }
        }
        guard let text = String(data: data, encoding: .utf8) else { throw DocumentError("\(path) is not UTF-8 text") }
        do {
            return lower.hasSuffix(".md") || lower.hasSuffix(".markdown") ? try markdown(text) : try csv(text)
        } catch let error as DocumentError {
            throw DocumentError("\(path): \(error.message)")
        }
    }
}

extension XLSForm.Kind: CustomStringConvertible {
    /// As the form writes it.
    public var description: String {
        switch self {
        case .text: return "text"
        case .integer: return "integer"
        case .decimal: return "decimal"
        case .date: return "date"
        case .time: return "time"
        case .dateTime: return "dateTime"
        case .selectOne(let l, let o): return "select_one \(l)" + (o ? " or_other" : "")
        case .selectMultiple(let l, let o): return "select_multiple \(l)" + (o ? " or_other" : "")
        case .note: return "note"
        case .calculate: return "calculate"
        case .acknowledge: return "acknowledge"
        case .beginGroup: return "begin group"
        case .endGroup: return "end group"
        case .beginRepeat: return "begin repeat"
        case .endRepeat: return "end repeat"
        case .geo(let g): return g.rawValue
        case .barcode: return "barcode"
        case .attachment(let a): return a
        case .range: return "range"
        case .rank(let l): return "rank \(l)"
        case .metadata(let m): return m
        case .notCollected(let t): return "\(t) (not collected here)"
        }
    }
}
