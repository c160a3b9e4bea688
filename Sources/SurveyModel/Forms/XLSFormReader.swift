import FoundationEssentials

/// Builds an `XLSForm` from its sheets, collecting every problem rather than stopping at the
/// first, so `survey form check` lists them all at once.
struct XLSFormReader {
    var errors: [XLSFormProblem] = []
    var warnings: [XLSFormProblem] = []
    /// pyxform's `allow_choice_duplicates` setting.
    private var allowChoiceDuplicates = false

    mutating func read(_ sheets: XLSFormSheets) -> XLSForm {
        var form = XLSForm()
        guard let survey = sheets.sheet(named: "survey") else {
            errors.append(XLSFormProblem(sheet: "survey", row: nil, column: nil, message: "the form has no survey sheet"))
            return form
        }
        readSettings(sheets.sheet(named: "settings"), into: &form)
        readChoices(sheets.sheet(named: "choices"), into: &form)
        readSurvey(survey, into: &form)
        check(&form)
        return form
    }

    // MARK: Sheets

    /// The header row (the first non-blank one) and the data rows after it, as column → text.
    private func table(_ rows: [XLSFormSheets.Row]) -> (columns: [XLSFormColumn], rows: [(number: Int, cells: [String])]) {
        let meaningful = rows.filter { row in row.cells.contains { !$0.trimmingWhitespace().isEmpty } }
        guard let header = meaningful.first else { return ([], []) }
        let columns = header.cells.map(XLSFormColumn.init)
        return (columns, meaningful.dropFirst().map { ($0.number, $0.cells.map { $0.trimmingWhitespace() }) })
    }

    private func value(_ column: String, language: String? = nil, in cells: [String], columns: [XLSFormColumn]) -> String? {
        for (i, c) in columns.enumerated() where c.name == column && c.language == language && i < cells.count {
            if !cells[i].isEmpty { return cells[i] }
        }
        return nil
    }

    private func localized(_ column: String, in cells: [String], columns: [XLSFormColumn]) -> [String: String] {
        var result: [String: String] = [:]
        for (i, c) in columns.enumerated() where c.name == column && i < cells.count && !cells[i].isEmpty {
            result[c.language ?? ""] = cells[i]
        }
        return result
    }

    private mutating func readSettings(_ rows: [XLSFormSheets.Row]?, into form: inout XLSForm) {
        guard let rows else { return }
        let (columns, data) = table(rows)
        guard let first = data.first else { return }
        let cells = first.cells
        form.title = value("form_title", in: cells, columns: columns)
        form.formID = value("form_id", in: cells, columns: columns)
        form.version = value("version", in: cells, columns: columns)
        form.defaultLanguage = value("default_language", in: cells, columns: columns)
        allowChoiceDuplicates = Self.isYes(value("allow_choice_duplicates", in: cells, columns: columns))
        if let text = value("instance_name", in: cells, columns: columns) {
            form.instanceName = parse(text, sheet: "settings", row: first.number, column: "instance_name")
        }
    }

    private mutating func readChoices(_ rows: [XLSFormSheets.Row]?, into form: inout XLSForm) {
        guard let rows else { return }
        let (columns, data) = table(rows)
        let known: Set<String> = ["list_name", "name", "label"]
        var named: [(list: String, name: String, row: Int)] = []
        defer { if !allowChoiceDuplicates { checkDuplicateChoices(named) } }
        for (number, cells) in data {
            guard let list = value("list_name", in: cells, columns: columns) else { continue }
            guard let raw = value("name", in: cells, columns: columns) else {
                errors.append(XLSFormProblem(sheet: "choices", row: number, column: "name", message: "a choice of \(list) has no name"))
                continue
            }
            var extra: [String: String] = [:]
            for (i, c) in columns.enumerated() where !known.contains(c.name) && c.language == nil && i < cells.count && !cells[i].isEmpty {
                extra[c.name] = Self.excelText(cells[i])
            }
            named.append((list, Self.excelText(raw), number))
            form.choices[list, default: []].append(
                XLSForm.Choice(name: Self.excelText(raw), labels: localized("label", in: cells, columns: columns), extra: extra))
        }
    }

    private mutating func readSurvey(_ rows: [XLSFormSheets.Row], into form: inout XLSForm) {
        let (columns, data) = table(rows)
        form.languages = columns.filter { $0.name == "label" }.compactMap(\.language)
        var depth = 0
        for (number, cells) in data {
            guard let typeText = value("type", in: cells, columns: columns) else {
                if value("name", in: cells, columns: columns) != nil {
                    errors.append(XLSFormProblem(sheet: "survey", row: number, column: "type", message: "the question has no type"))
                }
                continue
            }
            let kind = Self.kind(of: typeText)
            var question = XLSForm.Question(kind: kind, name: value("name", in: cells, columns: columns) ?? "", row: number)
            question.labels = localized("label", in: cells, columns: columns)
            question.hints = localized("hint", in: cells, columns: columns)
            question.requiredMessage = value("required_message", in: cells, columns: columns)
            question.constraintMessage = value("constraint_message", in: cells, columns: columns)
                ?? localized("constraint_message", in: cells, columns: columns).values.first
            question.defaultValue = value("default", in: cells, columns: columns)
            question.appearance = value("appearance", in: cells, columns: columns)
            question.readOnly = Self.isYes(value("read_only", in: cells, columns: columns))
            if let required = value("required", in: cells, columns: columns) {
                question.required = Self.isYes(required) ? .call("true", [])
                    : Self.isNo(required) ? nil : parse(required, sheet: "survey", row: number, column: "required")
            }
            for (column, path) in [("constraint", \XLSForm.Question.constraint), ("relevant", \.relevant),
                                   ("calculation", \.calculation), ("choice_filter", \.choiceFilter)] {
                if let text = value(column, in: cells, columns: columns) {
                    question[keyPath: path] = parse(text, sheet: "survey", row: number, column: column,
                                                    choiceColumns: column == "choice_filter")
                }
            }
            switch kind {
            case .beginGroup: depth += 1
            case .endGroup:
                depth -= 1
                if depth < 0 {
                    errors.append(XLSFormProblem(sheet: "survey", row: number, column: "type", message: "end group without a begin group"))
                    depth = 0
                }
            case .calculate where question.calculation == nil:
                errors.append(XLSFormProblem(sheet: "survey", row: number, column: "calculation", message: "a calculate row needs a calculation"))
            case .notCollected(let type) where XLSFormTypes.isKnown(type):
                warnings.append(XLSFormProblem(sheet: "survey", row: number, column: "type",
                                               message: "“\(type)” is not collected in a terminal: the row is shown but not asked"))
            case .notCollected(let type):
                errors.append(XLSFormProblem(sheet: "survey", row: number, column: "type", message: XLSFormTypes.unknownTypeMessage(type)))
            default: break
            }
            // An `end repeat` closes its repeat and, like `end group`, needs no name.
            let closes = kind == .endGroup || ["end repeat", "end_repeat", "end loop"].contains(XLSFormTypes.normalized(typeText))
            if question.name.isEmpty, !closes {
                errors.append(XLSFormProblem(sheet: "survey", row: number, column: "name", message: "the question has no name"))
            }
            if kind != .endGroup { checkName(question.name, row: number) }
            let media = ["image", "big-image", "audio", "video", "media"].contains { column in
                columns.indices.contains { columns[$0].name == column && $0 < cells.count && !cells[$0].isEmpty }
            }
            checkLabel(question, hasMedia: media)
            let orOther: Bool
            switch kind {
            case .selectOne(_, let other), .selectMultiple(_, let other): orOther = other
            default: orOther = false
            }
            if orOther, question.choiceFilter != nil {
                // pyxform refuses it: the `other` it adds has none of the columns a filter reads.
                errors.append(XLSFormProblem(sheet: "survey", row: number, column: "choice_filter",
                                             message: "a choice_filter cannot be used with or_other"))
            }
            form.questions.append(question)
            if case .selectOne(let list, true) = kind { addOther(to: question, list: list, into: &form) }
            if case .selectMultiple(let list, true) = kind { addOther(to: question, list: list, into: &form) }
        }
        if depth > 0 {
            errors.append(XLSFormProblem(sheet: "survey", row: nil, column: "type", message: "\(depth) begin group without an end group"))
        }
    }

    /// `or_other`, as pyxform expands it: an `other` choice in the list, and a text question
    /// `NAME_other` asked only when it is chosen.
    private func addOther(to question: XLSForm.Question, list: String, into form: inout XLSForm) {
        if form.choices[list]?.contains(where: { $0.name == "other" }) == false {
            form.choices[list]?.append(XLSForm.Choice(name: "other", labels: ["": "Other"], extra: [:]))
        }
        var other = XLSForm.Question(kind: .text, name: question.name + "_other", row: question.row)
        other.labels = ["": "Specify other."]
        other.relevant = .call("selected", [.field(question.name), .string("other")])
        form.questions.append(other)
    }

    // MARK: Checks

    private mutating func check(_ form: inout XLSForm) {
        var seen: [String: Int] = [:]
        for q in form.questions where !q.name.isEmpty && q.kind != .endGroup {
            if let first = seen[q.name] {
                errors.append(XLSFormProblem(sheet: "survey", row: q.row, column: "name",
                                             message: "“\(q.name)” is already the name of row \(first)"))
            } else {
                seen[q.name] = q.row
            }
        }
        for q in form.questions {
            switch q.kind {
            case .selectOne(let list, _), .selectMultiple(let list, _):
                if form.choices[list] == nil {
                    errors.append(XLSFormProblem(sheet: "survey", row: q.row, column: "type", message: "no choice list named \(list)"))
                }
                // Several answers are stored separated by spaces, so (as pyxform says) a
                // choice of a select_multiple cannot have one in its name.
                if case .selectMultiple = q.kind,
                   let spaced = form.choices[list]?.first(where: { $0.name.contains(where: \.isWhitespace) }) {
                    errors.append(XLSFormProblem(sheet: "survey", row: q.row, column: "type",
                                                 message: "the choice “\(spaced.name)” of \(list) has a space, which select_multiple cannot store (its answers are separated by spaces)"))
                }
            default: break
            }
            for (column, expression) in [("required", q.required), ("constraint", q.constraint), ("relevant", q.relevant),
                                         ("calculation", q.calculation), ("choice_filter", q.choiceFilter)] {
                for name in expression?.fieldReferences ?? [] where seen[name] == nil {
                    errors.append(XLSFormProblem(sheet: "survey", row: q.row, column: column, message: "unknown field ${\(name)}"))
                }
            }
        }
        for name in form.instanceName?.fieldReferences ?? [] where seen[name] == nil {
            errors.append(XLSFormProblem(sheet: "settings", row: nil, column: "instance_name", message: "unknown field ${\(name)}"))
        }
        checkCycles(form)
        checkDefaults(form)
    }

    /// ODK refuses a form whose `relevant`, `calculation` and `required` go round in a circle
    /// (JavaRosa: "Cycle detected in form's relevant and calculation logic"), and its rules
    /// could never settle here either. A question depends on what those rules read (`.` is
    /// the question itself) and on the group around it, whose `relevant` decides it too.
    private mutating func checkCycles(_ form: XLSForm) {
        let questions = form.questions
        var index: [String: Int] = [:]
        for (i, q) in questions.enumerated() where !q.name.isEmpty && q.kind != .endGroup && index[q.name] == nil {
            index[q.name] = i
        }
        // For each question, what it depends on, and through which column.
        var dependsOn = Array(repeating: [(target: Int, column: String)](), count: questions.count)
        var groups: [Int] = []
        for (i, q) in questions.enumerated() {
            if q.kind == .endGroup { _ = groups.popLast(); continue }
            if let group = groups.last { dependsOn[i].append((group, "type")) }
            if q.kind == .beginGroup { groups.append(i) }
            for (column, expression) in [("relevant", q.relevant), ("calculation", q.calculation), ("required", q.required)] {
                guard let expression else { continue }
                if expression.readsCurrent { dependsOn[i].append((i, column)) }
                for name in expression.fieldReferences { if let j = index[name] { dependsOn[i].append((j, column)) } }
            }
        }
        enum Mark { case new, open, done }
        var marks = Array(repeating: Mark.new, count: questions.count)
        var path: [(question: Int, column: String)] = []
        var found: [XLSFormProblem] = []
        func visit(_ i: Int) {
            marks[i] = .open
            for (j, column) in dependsOn[i] {
                path.append((i, column))
                switch marks[j] {
                case .new: visit(j)
                case .open:
                    let start = path.lastIndex { $0.question == j } ?? path.count - 1
                    let cycle = path[start...]
                    let names = (cycle.map(\.question) + [j]).map { "${\(questions[$0].name)}" }
                    var message = names.count == 2 ? "\(names[0]) depends on itself" : "\(names[0]) depends on itself: " + names.joined(separator: " → ")
                    if cycle.contains(where: { $0.column == "type" }) { message += " (a question inside a group depends on the group’s relevant)" }
                    found.append(XLSFormProblem(sheet: "survey", row: questions[j].row, column: cycle.first?.column, message: message))
                case .done: break
                }
                path.removeLast()
            }
            marks[i] = .done
        }
        for i in questions.indices where marks[i] == .new && questions[i].kind != .endGroup { visit(i) }
        errors += found
    }

    private mutating func parse(_ text: String, sheet: String, row: Int?, column: String,
                                choiceColumns: Bool = false) -> FormExpression? {
        do {
            return try FormExpression(parsing: text, choiceColumns: choiceColumns)
        } catch {
            errors.append(XLSFormProblem(sheet: sheet, row: row, column: column, message: "\(error)"))
            return nil
        }
    }

    // MARK: Cells

    /// pyxform's spellings of each type.
    static func kind(of raw: String) -> XLSForm.Kind {
        let words = raw.split(whereSeparator: \.isWhitespace).map(String.init)
        let type = words.first?.lowercased() ?? ""
        let orOther = words.last?.lowercased() == "or_other"
        func list(after skip: Int) -> String? { words.count > skip ? words[skip] : nil }
        if (type == "begin" || type == "end"), words.count > 1 {
            // "begin group" / "end group"; repeats are not collected in this first version.
            guard words[1].lowercased() == "group" else { return .notCollected(raw) }
            return type == "begin" ? .beginGroup : .endGroup
        }
        switch type {
        case "text", "string": return .text
        case "integer", "int": return .integer
        case "decimal": return .decimal
        case "date": return .date
        case "time": return .time
        case "datetime": return .dateTime
        case "note": return .note
        case "calculate": return .calculate
        case "acknowledge", "trigger": return .acknowledge
        case "start", "end", "today", "deviceid": return .metadata(type)
        case "select_one", "select_multiple":
            guard let l = list(after: 1) else { return .notCollected(raw) }
            return type == "select_one" ? .selectOne(list: l, orOther: orOther) : .selectMultiple(list: l, orOther: orOther)
        case "select":
            // "select one from L", "select_one from L", "select multiple L"
            guard words.count >= 3 else { return .notCollected(raw) }
            let multiple = words[1].lowercased() == "multiple"
            let l = words[2].lowercased() == "from" ? list(after: 3) : list(after: 2)
            guard let l else { return .notCollected(raw) }
            return multiple ? .selectMultiple(list: l, orOther: orOther) : .selectOne(list: l, orOther: orOther)
        case "begin_group": return .beginGroup
        case "end_group": return .endGroup
        default: return .notCollected(raw)
        }
    }

    /// Excel stores a number typed where text was meant as `2022.0`.
    static func excelText(_ text: String) -> String {
        if text.hasSuffix(".0"), let whole = Int(text.dropLast(2)) { return String(whole) }
        return text
    }

    static func isYes(_ text: String?) -> Bool {
        guard let t = text?.lowercased() else { return false }
        return ["yes", "true", "true()", "1"].contains(t)
    }

    static func isNo(_ text: String) -> Bool { ["no", "false", "false()", "0"].contains(text.lowercased()) }
}
