import FoundationEssentials
import SurveyValues

/// `${name}` in the cells that hold no rule (a label, a hint, a message, a media file, a
/// choice's label, a setting), as pyxform 4.5 judges every cell of the workbook
/// (`validate_pyxform_references_in_workbook`): each names exactly one row of the survey
/// sheet (a group or repeat counts; `${instanceID}` too unless the settings omit it), and
/// is written `${` name `}`. The rule columns are checked with their expressions (`check`).
extension XLSFormReader {
    /// The columns whose references `check` judges already, as rules.
    private static let ruleColumns: Set<String> = ["type", "name", "trigger", "required", "constraint", "relevant", "calculation",
                                                    "choice_filter", "repeat_count", "instance_name", "save_to"]

    mutating func checkCellReferences(_ sheets: XLSFormSheets, survey: [XLSFormSheets.Row]) {
        let (columns, rows) = table(survey)
        var counts: [String: Int] = [:]
        for (_, cells) in rows {
            guard let type = value("type", in: cells, columns: columns), let name = value("name", in: cells, columns: columns) else { continue }
            let kind = Self.kind(of: type)
            if kind == .endGroup || kind == .endRepeat || Self.loop(type) == false || kind == .metadata("audit") { continue }
            counts[name, default: 0] += 1
        }
        let settings = sheets.sheet(named: "settings").map(table)
        let omitsID = settings.map { s in s.rows.first.map { Self.isYes(value("omit_instanceid", in: $0.cells, columns: s.columns)) } ?? false } ?? false
        if !omitsID { counts[Record.instanceIDKey, default: 0] += 1 }

        func judge(_ sheet: String, _ table: (columns: [XLSFormColumn], rows: [(number: Int, cells: [String])]), header: [String],
                   where include: (XLSFormColumn) -> Bool) {
            for (number, cells) in table.rows {
                for (i, column) in table.columns.enumerated() where i < cells.count && include(column) && cells[i].contains("${") {
                    let place = i < header.count ? header[i].trimmingWhitespace() : column.name
                    func refuse(_ message: String) {
                        errors.append(XLSFormProblem(sheet: sheet, row: number, column: place, message: message))
                    }
                    do {
                        for (name, _) in try Self.references(in: cells[i]) {
                            switch counts[name] ?? 0 {
                            case 0: refuse("unknown field ${\(name)}")
                            case 1: continue
                            default: refuse(Self.referenceProblem(name, ambiguous: [name]))
                            }
                            break
                        }
                    } catch {
                        refuse("\(error.message): “\(cells[i])”")
                    }
                }
            }
        }
        func header(_ rows: [XLSFormSheets.Row]) -> [String] {
            rows.first { $0.cells.contains { !$0.trimmingWhitespace().isEmpty } }?.cells ?? []
        }
        judge("survey", (columns, rows), header: header(survey)) { !Self.ruleColumns.contains($0.name) }
        if let choices = sheets.sheet(named: "choices") {
            let translatable: Set<String> = ["label", "image", "big-image", "audio", "video"]
            judge("choices", table(choices), header: header(choices)) { translatable.contains($0.name) }
        }
        if let settings, let raw = sheets.sheet(named: "settings") {
            judge("settings", settings, header: header(raw)) { !Self.ruleColumns.contains($0.name) }
        }
    }
}
