import Foundation

extension XLSFormSheets {
    /// A form file by its extension: `.xlsx`, or `.csv` / `.md` (pyxform's text layouts). A `.xls`
    /// (the old binary format) is refused with what to do instead.
    public static func read(fileAt path: String) throws -> XLSFormSheets {
        let lower = path.lowercased()
        if lower.hasSuffix(".xls") {
            throw DocumentError("\(path) is an old .xls workbook: save it as .xlsx, or as CSV in pyxform's layout")
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw DocumentError("\(path) could not be read")
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
        case .metadata(let m): return m
        case .notCollected(let t): return "\(t) (not collected here)"
        }
    }
}
