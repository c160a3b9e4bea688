import FoundationEssentials
import SurveyValues

/// `select_one_external LIST` (a select whose choices ODK Collect reads from the
/// `itemsets.csv` made of the `external_choices` sheet) is shown, not asked here; but a form
/// pyxform refuses for it is refused with pyxform's reasons: no `external_choices` sheet with
/// rows (naming the sheets spelled like it, as pyxform does), or a list that sheet does not
/// have.
extension XLSFormReader {
    mutating func checkExternalChoices(_ sheets: XLSFormSheets, form: XLSForm) {
        let externals: [(list: String, row: Int)] = form.allQuestions.compactMap { q in
            guard case .notCollected(let type) = q.kind else { return nil }
            let words = type.split(whereSeparator: \.isWhitespace)
            guard words.count >= 2, words[0].lowercased() == "select_one_external" else { return nil }
            return (String(words[1]), q.row)
        }
        guard let first = externals.first else { return }
        let (columns, rows) = table(sheets.sheet(named: "external_choices") ?? [])
        let lists = Set(rows.compactMap { value("list_name", in: $0.cells, columns: columns) })
        guard !rows.isEmpty else {
            var message = "select_one_external reads its choices from the external_choices sheet, and the form has none with rows "
                + "(its columns: list_name, name, and what the choice_filter reads)"
            let similar = Self.similarSheetNames(to: "external_choices", in: sheets)
            if !similar.isEmpty { message += "; sheets with a name like it: " + similar.map { "“\($0)”" }.joined(separator: ", ") }
            errors.append(XLSFormProblem(sheet: "survey", row: first.row, column: "type", message: message))
            return
        }
        for (list, row) in externals where !lists.contains(list) {
            errors.append(XLSFormProblem(sheet: "survey", row: row, column: "type",
                                         message: "no list named \(list) in the external_choices sheet"))
        }
    }

    /// The sheets whose names are at most two edits from `name` (pyxform's
    /// `find_sheet_misspellings`), but those of a part of the form and those starting `_`.
    static func similarSheetNames(to name: String, in sheets: XLSFormSheets) -> [String] {
        let parts: Set<String> = ["survey", "choices", "settings", "external_choices", "osm", "entities"]
        return sheets.sheets.map(\.name).filter { sheet in
            !parts.contains(sheet) && !sheet.hasPrefix("_") && editDistance(sheet.lowercased(), name, atMost: 2) <= 2
        }
    }

    /// Levenshtein distance, cut short once every path is over `limit` (a sheet name is the
    /// file's to choose, and may be long).
    static func editDistance(_ a: String, _ b: String, atMost limit: Int) -> Int {
        let a = Array(a.unicodeScalars), b = Array(b.unicodeScalars)
        guard abs(a.count - b.count) <= limit else { return limit + 1 }
        guard !a.isEmpty, !b.isEmpty else { return max(a.count, b.count) }
        var previous = Array(0...b.count)
        for i in 1...a.count {
            var current = [i] + Array(repeating: 0, count: b.count)
            for j in 1...b.count {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            if current.min()! > limit { return limit + 1 }
            previous = current
        }
        return previous[b.count]
    }
}

/// ODK Collect's `search()` appearance reads a select's choices from a CSV file, and pyxform
/// then redirects the list's labels for it: a list used both by a select with `search()` and
/// by one without cannot serve both, and pyxform refuses the form.
extension XLSFormReader {
    mutating func checkSearchLists(_ form: XLSForm) {
        let selects = form.allQuestions.compactMap { q in q.kind.listName.map { (question: q, list: $0) } }
        func searches(_ q: XLSForm.Question) -> Bool {
            guard let appearance = q.appearance, appearance.count > 7, let open = appearance.firstRange(of: "search(") else { return false }
            return appearance[open.upperBound...].contains(")")
        }
        let plain = Dictionary(grouping: selects.filter { !searches($0.question) }, by: \.list)
        var reported: Set<String> = []
        for (question, list) in selects where searches(question) && !reported.contains(list) {
            guard let others = plain[list] else { continue }
            reported.insert(list)
            errors.append(XLSFormProblem(sheet: "survey", row: question.row, column: "appearance",
                                         message: "${\(question.name)} uses search(), and its list \(list) is used without search() by "
                                             + others.map { "${\($0.question.name)} (row \($0.question.row))" }.joined(separator: ", ")
                                             + ", which cannot work: use search() for every question of the list, or another list for this one"))
        }
    }
}
