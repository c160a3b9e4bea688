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

    ///
    /// A row inside a loop is asked once per choice of its list (`XLSFormReader+Loops`), so its
    /// name is that many elements, and `${q1}` of a loop over two choices names none, as pyxform
    /// says ("There are multiple survey elements named 'q1'").
    mutating func checkCellReferences(_ sheets: XLSFormSheets, survey: [XLSFormSheets.Row], choices: [String: [XLSForm.Choice]]) {
        let (columns, rows) = table(survey)
        var counts: [String: Int] = [:]
        var copies: [Int] = []   // each open loop's copies, outermost first
        for (_, cells) in rows {
            guard let type = value("type", in: cells, columns: columns) else { continue }
            if Self.loop(type) == false {
                _ = copies.popLast()
                continue
            }
            let name = value("name", in: cells, columns: columns)
            let kind = Self.kind(of: type)
            if let name, kind != .endGroup, kind != .endRepeat, kind != .metadata("audit") {
                // 0, 1 or "several" is all that is judged (and no product overflows).
                counts[name, default: 0] += copies.reduce(1) { min(2, $0 * min(2, $1)) }
            }
            if Self.loop(type) == true {
                copies.append(Self.loopList(type).map { list in choices[list]?.filter { $0.name != "none" }.count ?? 0 } ?? 0)
            }
        }
        let settings = sheets.sheet(named: "settings").map(table)
        let omitsID = settings.map { s in s.rows.first.map { Self.isYes(value("omit_instanceid", in: $0.cells, columns: s.columns)) } ?? false } ?? false
        if !omitsID { counts[Record.instanceIDKey, default: 0] += 1 }

        func judge(_ sheet: String, _ table: (columns: [XLSFormColumn], rows: [(number: Int, cells: [String])]), header: [String],
                   where include: (Int, XLSFormColumn) -> Bool) {
            for (number, cells) in table.rows {
                for (i, column) in table.columns.enumerated() where i < cells.count && include(number, column) && cells[i].contains("${") {
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
        // A rule that could not be read (a warning) still names its questions, as pyxform
        // checks them in any text: `concat("Foo: ", ${last-saved#foo}` names no question.
        let unread = Set(unreadRules.map { "\($0.row):\($0.column)" })
        judge("survey", (columns, rows), header: header(survey)) { row, column in
            !Self.ruleColumns.contains(column.name) || unread.contains("\(row):\(column.name)")
        }
        if let choices = sheets.sheet(named: "choices") {
            let translatable: Set<String> = ["label", "image", "big-image", "audio", "video"]
            judge("choices", table(choices), header: header(choices)) { translatable.contains($1.name) }
        }
        if let settings, let raw = sheets.sheet(named: "settings") {
            judge("settings", settings, header: header(raw)) { !Self.ruleColumns.contains($1.name) }
        }
    }
}
