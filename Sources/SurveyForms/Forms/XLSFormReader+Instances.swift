import FoundationEssentials
import SurveyValues

/// The secondary instances a form declares, as pyxform 4.5 names them: one name may be
/// one source only. `xml-external NAME` (jr://file/NAME.xml), `csv-external NAME`
/// (jr://file-csv/NAME.csv), `select_one_from_file NAME.csv` (or `.xml`, `.geojson`),
/// `pulldata('NAME', …)` (NAME.csv), every list of the choices sheet (the form's own, read
/// by a select or not, as pyxform makes an instance of each), and `${last-saved#…}`
/// (`__last-saved`). The same name from two sources is refused (which
/// would `instance('NAME')` read?); an external row declared twice is refused too, even
/// with the same file, as pyxform refuses it.
extension XLSFormReader {
    mutating func checkInstanceNames(_ form: XLSForm) {
        struct Source { let uri: String; let row: Int; let kind: String }
        var sources: [String: Source] = [:]
        var externalRows: [String: Int] = [:]
        func declare(_ name: String, _ uri: String, _ kind: String, row: Int) {
            guard !name.isEmpty else { return }
            if let first = sources[name] {
                guard first.uri != uri else { return }
                errors.append(XLSFormProblem(sheet: "survey", row: row, column: "type",
                                             message: "the same instance id will be generated for different external instance source URIs: "
                                                 + "the instance “\(name)” is \(first.kind) \(first.uri) (row \(first.row)) and \(kind) \(uri) here"))
                return
            }
            sources[name] = Source(uri: uri, row: row, kind: kind)
        }
        func pulldata(_ e: FormExpression?) -> [String] {
            switch e {
            case .negate(let a)?: return pulldata(a)
            case .binary(_, let a, let b)?: return pulldata(a) + pulldata(b)
            case .call(let name, let args)?:
                var names = args.flatMap { pulldata($0) }
                if name == "pulldata", case .string(let file)? = args.first { names.append(file.trimmingWhitespace()) }
                return names
            default: return []
            }
        }
        var lastSaved: Int?
        for q in form.allQuestions {
            let words = q.kind == .endGroup ? [] : Self.typeWords(q)
            if let type = words.first?.lowercased(), type == "xml-external" || type == "csv-external" {
                let name = String(q.name.split(separator: "/").last ?? "")
                if let first = externalRows[name] {
                    errors.append(XLSFormProblem(sheet: "survey", row: q.row, column: "name",
                                                 message: "instance names must be unique within a form: “\(name)” is already the name of row \(first)"))
                    continue
                }
                externalRows[name] = q.row
                declare(name, type == "xml-external" ? "jr://file/\(name).xml" : "jr://file-csv/\(name).csv", "external", row: q.row)
            }
            if let list = q.kind.listName {
                if XLSForm.isFileList(list) {
                    let stem = FormMedia.instanceName(of: list)
                    declare(stem, list.lowercased().hasSuffix(".csv") ? "jr://file-csv/\(list)" : "jr://file/\(list)", "the list file", row: q.row)
                } else if form.choices[list] != nil {
                    declare(list, "(the choices sheet)", "the choice list", row: q.row)
                }
            }
            for e in [q.required, q.constraint, q.relevant, q.calculation, q.choiceFilter, q.repeatCount, q.dynamicDefault] {
                for name in pulldata(e) { declare(name, "jr://file-csv/\(name).csv", "pulldata’s", row: q.row) }
                if lastSaved == nil, e?.fieldReferences.contains(where: { $0.hasPrefix("last-saved#") }) == true { lastSaved = q.row }
            }
        }
        if let row = lastSaved { declare("__last-saved", "jr://instance/last-saved", "${last-saved#…}’s", row: row) }
        // pyxform makes an instance of every choice list, a select reading it or not: one named
        // as a list file, pulldata’s or an external instance is refused too (at that row here;
        // pyxform names no row).
        for list in form.choices.keys.sorted() where !XLSForm.isFileList(list) {
            guard let first = sources[list], first.uri != "(the choices sheet)" else { continue }
            errors.append(XLSFormProblem(sheet: "survey", row: first.row, column: "type",
                                         message: "the same instance id will be generated for different external instance source URIs: "
                                             + "the instance “\(list)” is \(first.kind) \(first.uri) here and a choice list of that name "
                                             + "in the choices sheet (rename one of them)"))
        }
    }

    /// The words of a row's `type` as written (a kind survey does not collect keeps them).
    private static func typeWords(_ q: XLSForm.Question) -> [Substring] {
        if case .notCollected(let type) = q.kind { return type.split(whereSeparator: \.isWhitespace) }
        return []
    }
}
