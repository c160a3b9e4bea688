import FoundationEssentials
import SurveyValues

/// Builds an `XLSForm` from its sheets, collecting every problem rather than stopping at the
/// first, so `survey form check` lists them all at once.
struct XLSFormReader {
    var errors: [XLSFormProblem] = []
    var warnings: [XLSFormProblem] = []
    /// pyxform's `allow_choice_duplicates` setting.
    private var allowChoiceDuplicates = false
    /// The settings row the instance name is on, for its warnings.
    var instanceNameRow: Int?
    /// The survey sheet nests too deep and was read only so far: entities are not placed in it
    /// (placing costs the square of the depth, and the form is refused anyway).
    var nestedTooDeep = false
    /// Each `reference-geometry` parameter and its row, judged once the form is read.
    var geoReferences: [(target: String, row: Int)] = []
    /// The survey sheet's rules that could not be read (warned of), by row and column: their
    /// `${name}`s are still checked, with the cells that hold no rule.
    var unreadRules: [(row: Int, column: String)] = []

    mutating func read(_ sheets: XLSFormSheets) -> XLSForm {
        var form = XLSForm()
        // A workbook of one sheet named for no other part of a form is the survey sheet, as
        // pyxform reads it (`Sheet1`).
        let parts: Set<String> = ["choices", "settings", "external_choices", "entities", "osm"]
        let only = sheets.sheets.count == 1 && !parts.contains(sheets.sheets[0].name.trimmingWhitespace().lowercased())
            ? sheets.sheets[0].rows : nil
        guard let survey = sheets.sheet(named: "survey") ?? only else {
            errors.append(XLSFormProblem(sheet: "survey", row: nil, column: nil, message: "the form has no survey sheet"))
            return form
        }
        checkHeaders(sheets, survey: survey)
        readSettings(sheets.sheet(named: "settings"), into: &form)
        readChoices(sheets.sheet(named: "choices"), into: &form)
        readSurvey(survey, into: &form)
        check(&form)
        checkRepeatNames(form)
        checkCellReferences(sheets, survey: survey, choices: form.choices)
        if !nestedTooDeep { readEntities(sheets.sheet(named: "entities"), survey: survey, into: &form) }
        checkGeoReferences(form)
        checkTriggers(form)
        checkInstanceNames(form)
        checkExternalChoices(sheets, form: form)
        checkSearchLists(form)
        return form
    }

    // MARK: Sheets

    /// The header row (the first non-blank one) and the data rows after it, as column → text.
    func table(_ rows: [XLSFormSheets.Row]) -> (columns: [XLSFormColumn], rows: [(number: Int, cells: [String])]) {
        let meaningful = rows.filter { row in row.cells.contains { !$0.trimmingWhitespace().isEmpty } }
        guard let header = meaningful.first else { return ([], []) }
        let columns = header.cells.map(XLSFormColumn.init)
        return (columns, meaningful.dropFirst().map { ($0.number, $0.cells.map { $0.trimmingWhitespace() }) })
    }

    func value(_ column: String, language: String? = nil, in cells: [String], columns: [XLSFormColumn]) -> String? {
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

    private static func firstInColumnOrder(_ texts: [String: String], _ columns: [XLSFormColumn]) -> String? {
        columns.lazy.compactMap { $0.language.flatMap { texts[$0] } }.first
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
        if let root = value("name", in: cells, columns: columns) {
            form.rootName = root
            // The XForm's root element: pyxform refuses a name XML cannot have.
            if !Self.isXMLName(root) {
                errors.append(XLSFormProblem(sheet: "settings", row: first.number, column: "name",
                                             message: "“\(root)” is not a valid form name (the name setting is the root element of the form's XML): "
                                                 + "names must begin with a letter or underscore; after the first character, "
                                                 + "names may contain letters, digits, underscores, hyphens, or periods"))
            }
        }
        if let text = value("instance_name", in: cells, columns: columns) {
            instanceNameRow = first.number
            form.instanceName = parse(text, sheet: "settings", row: first.number, column: "instance_name")
        }
        if let text = value("id_items", in: cells, columns: columns) {
            form.idItems = text.split { $0 == " " || $0 == "," }.map(String.init)
        }
        if let text = value("public_key", in: cells, columns: columns) {
            form.publicKey = text
            // A warning, as pyxform (which does not check it) converts the form: keying works,
            // and what would encrypt with it (`export --format odk-xml`) refuses, naming it.
            do {
                _ = try RSAPublicKey(base64: text)
            } catch {
                warnings.append(XLSFormProblem(sheet: "settings", row: first.number, column: "public_key",
                                               message: "public_key is not a usable RSA public key: \(error) "
                                                   + "(make one with survey keys new FILE, which prints it); "
                                                   + "no survey can be exported encrypted until it is"))
            }
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

    /// Blocks open at once beyond this are refused, and the sheet is read no further: every
    /// walk of a form's tree recurses once per level, and a sheet of 10,000 nested groups
    /// crashed `form check` (SIGSEGV). No real form nests more than a handful.
    static let maximumNesting = 64

    private mutating func readSurvey(_ rows: [XLSFormSheets.Row], into form: inout XLSForm) {
        let (columns, data) = table(rows)
        form.languages = columns.filter { $0.name == "label" }.compactMap(\.language)
        let mediaColumns = Self.mediaColumns(rows)
        var blocks = SurveyBlocks()
        for (number, cells) in data {
            guard let typeText = value("type", in: cells, columns: columns) else {
                if value("name", in: cells, columns: columns) != nil {
                    errors.append(XLSFormProblem(sheet: "survey", row: number, column: "type", message: "the question has no type"))
                }
                continue
            }
            let kind = Self.kind(of: typeText)
            let loop = Self.loop(typeText)
            var question = XLSForm.Question(kind: kind, name: value("name", in: cells, columns: columns) ?? "", row: number)
            // Names pyxform gives rows that have none.
            if kind == .metadata("audit"), question.name.isEmpty { question.name = "audit" }
            if kind == .metadata("audit"), question.name != "audit" {
                errors.append(XLSFormProblem(sheet: "survey", row: number, column: "name",
                                             message: "audits must always be named 'audit': the name column should be left blank, not “\(question.name)”"))
            }
            if kind == .note, question.name.isEmpty { question.name = "generated_note_name_\(number)" }
            question.labels = localized("label", in: cells, columns: columns)
            question.hints = localized("hint", in: cells, columns: columns)
            question.requiredMessages = localized("required_message", in: cells, columns: columns)
            question.constraintMessages = localized("constraint_message", in: cells, columns: columns)
            // One text when a caller wants one: the unnamed column's, else the first language's
            // in column order (a dictionary's order would change from run to run).
            question.requiredMessage = value("required_message", in: cells, columns: columns)
                ?? Self.firstInColumnOrder(question.requiredMessages, columns)
            question.constraintMessage = value("constraint_message", in: cells, columns: columns)
                ?? Self.firstInColumnOrder(question.constraintMessages, columns)
            question.defaultValue = value("default", in: cells, columns: columns)
            question.appearance = value("appearance", in: cells, columns: columns)
            question.readOnly = Self.isYes(value("read_only", in: cells, columns: columns))
            if let verify = value("verify", in: cells, columns: columns) { question.verify = !Self.isNo(verify) }
            question.publishable = Self.isYes(value("publishable", in: cells, columns: columns))
            let parametersText = value("parameters", in: cells, columns: columns)
            if let parametersText { question.parameters = Self.parameters(parametersText) }
            checkParameters(parametersText, type: typeText, question: question, choices: form.choices)
            let triggerText = value("trigger", in: cells, columns: columns)
            if let triggerText { question.trigger = readTrigger(triggerText, row: number) }
            checkBackgroundGeopoint(type: typeText, hasTrigger: triggerText != nil,
                                    hasCalculation: value("calculation", in: cells, columns: columns) != nil, row: number)
            if case .notCollected(let type) = kind, let problem = Self.listFileProblem(type) {
                errors.append(XLSFormProblem(sheet: "survey", row: number, column: "type", message: problem))
            }
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
            if kind == .beginRepeat, let text = value("repeat_count", in: cells, columns: columns) {
                question.repeatCount = parse(Self.excelText(text), sheet: "survey", row: number, column: "repeat_count")
            }
            switch kind {
            case .calculate where value("calculation", in: cells, columns: columns) == nil && question.defaultValue == nil:
                errors.append(XLSFormProblem(sheet: "survey", row: number, column: "calculation", message: "a calculate row needs a calculation"))
            case .calculate where value("calculation", in: cells, columns: columns) == nil && !question.defaultComputes:
                // pyxform takes a default that computes (`today()`, `${a} + 1`) for the
                // calculation, but a plain value is none: a constant needs no calculate row.
                errors.append(XLSFormProblem(sheet: "survey", row: number, column: "calculation",
                                             message: "a calculate row needs a calculation: its default “\(question.defaultValue ?? "")” computes nothing"))
            case .selectOne(let list, _) where list.hasPrefix("${"), .selectMultiple(let list, _) where list.hasPrefix("${"):
                // Choices from the answers of a repeat (`select_one ${name}`): shown, not asked yet.
                question.kind = .notCollected(typeText)
                warnings.append(XLSFormProblem(sheet: "survey", row: number, column: "type",
                                               message: "choices from a repeat’s answers (\(list)) are not collected in a terminal yet: "
                                                   + "the row is shown but not asked"))
                let name = String(list.dropFirst(2).dropLast())
                if !name.isEmpty { question.repeatChoices = .field(name) }
            case .beginRepeat:
                break   // keyed on the form, one member at a time (FormOutline)
            case .notCollected where loop != nil:
                break   // refused (or closed) where it is placed
            case .notCollected(let type) where Self.listFileProblem(type) != nil:
                break   // refused above
            case .metadata("audit"):
                break   // the audit log, kept beside the document (`AuditSettings`)
            case .metadata(let type) where Self.emptyMetadata.contains(type):
                warnings.append(XLSFormProblem(sheet: "survey", row: number, column: "type",
                                               message: "“\(type)” is device metadata a laptop does not have: kept in the survey, empty"))
            case .notCollected(let type) where XLSFormTypes.isKnown(type):
                warnings.append(XLSFormProblem(sheet: "survey", row: number, column: "type",
                                               message: "“\(type)” is not collected in a terminal: the row is shown but not asked"))
            case .notCollected(let type):
                errors.append(XLSFormProblem(sheet: "survey", row: number, column: "type", message: XLSFormTypes.unknownTypeMessage(type)))
            default: break
            }
            // An `end group`, `end repeat` or `end loop` closes its block and needs no name.
            let closes = kind == .endGroup || kind == .endRepeat || loop == false
            if question.name.isEmpty, !closes {
                errors.append(XLSFormProblem(sheet: "survey", row: number, column: "name", message: "the question has no name"))
            }
            if !closes { checkName(question.name, row: number) }
            let media = ["image", "big-image", "audio", "video", "media"].contains { column in
                columns.indices.contains { columns[$0].name == column && $0 < cells.count && !cells[$0].isEmpty }
            }
            // A question with a `trigger` is recomputed, not shown: pyxform asks it for no label;
            // nor one with a calculation (already refused when it did not parse).
            checkLabel(question, hasMedia: media || triggerText != nil
                           || value("calculation", in: cells, columns: columns) != nil)
            checkBigImage(question, media: Set(mediaColumns.filter { $0.index < cells.count && !cells[$0.index].isEmpty }.map(\.media)),
                          header: mediaColumns.first { $0.media == "big-image" && $0.index < cells.count && !cells[$0.index].isEmpty }?.header)
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
            if kind == .beginGroup || kind == .beginRepeat || loop == true, blocks.open.count >= Self.maximumNesting {
                errors.append(XLSFormProblem(sheet: "survey", row: number, column: "type",
                                             message: "groups, repeats and loops nest more than \(Self.maximumNesting) deep here: "
                                                 + "the rest of the sheet is not read"))
                blocks = SurveyBlocks()   // and the blocks left open are not errors of their own
                nestedTooDeep = true
                break
            }
            place(question, loop: loop, choices: form.choices, in: &blocks)
            if case .selectOne(let list, true) = kind { blocks.append(addOther(to: question, list: list, into: &form)) }
            if case .selectMultiple(let list, true) = kind { blocks.append(addOther(to: question, list: list, into: &form)) }
        }
        form.questions = closeAll(&blocks)
    }

    /// `or_other`, as pyxform expands it: an `other` choice in the list, and a text question
    /// `NAME_other` asked only when it is chosen.
    private func addOther(to question: XLSForm.Question, list: String, into form: inout XLSForm) -> XLSForm.Question {
        if form.choices[list]?.contains(where: { $0.name == "other" }) == false {
            form.choices[list]?.append(XLSForm.Choice(name: "other", labels: ["": "Other"], extra: [:]))
        }
        var other = XLSForm.Question(kind: .text, name: question.name + "_other", row: question.row)
        other.labels = ["": "Specify other."]
        other.relevant = .call("selected", [.field(question.name), .string("other")])
        return other
    }

    // MARK: Checks

    private mutating func check(_ form: inout XLSForm) {
        // A name is a key of the record its answer is kept in (the survey's top level, or a
        // repeat instance's dictionary); one used twice there is kept under its group path.
        var ambiguous = assignKeys(&form.questions)
        resolvePaths(&form)
        var known: Set<String> = [Record.instanceIDKey]   // pyxform's `${instanceID}`: the survey's id
        for q in form.allQuestions where !q.name.isEmpty && q.kind != .endGroup { known.insert(q.name) }
        // `${last-saved#name}`: a question's answer in the last survey saved.
        for name in known where name != Record.instanceIDKey { known.insert("last-saved#" + name) }
        for name in ambiguous { ambiguous.insert("last-saved#" + name) }
        for q in form.allQuestions {
            switch q.kind {
            case .selectOne(let list, _), .selectMultiple(let list, _), .rank(let list):
                // A list file is read when the form is opened with its folder (`loadingMedia`).
                if form.choices[list] == nil, !XLSForm.isFileList(list) {
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
            // Any name of the form, as pyxform checks it: `${age}` inside a roster is the
            // answer of the same member, and from outside the roster all of them.
            for (column, expression) in [("required", q.required), ("constraint", q.constraint), ("relevant", q.relevant),
                                         ("calculation", q.calculation), ("choice_filter", q.choiceFilter),
                                         ("repeat_count", q.repeatCount), ("type", q.repeatChoices)] {
                for name in expression?.fieldReferences ?? [] where !known.contains(name) || ambiguous.contains(name) {
                    errors.append(XLSFormProblem(sheet: "survey", row: q.row, column: column,
                                                 message: Self.referenceProblem(name, ambiguous: ambiguous)))
                }
            }
        }
        for name in form.instanceName?.fieldReferences ?? [] where !known.contains(name) || ambiguous.contains(name) {
            errors.append(XLSFormProblem(sheet: "settings", row: instanceNameRow, column: "instance_name",
                                         message: Self.referenceProblem(name, ambiguous: ambiguous)))
        }
        // An ID item is answered once per survey, at its top level: a roster's question has
        // one answer per member, and a group, note or calculation none a keyer types.
        let unkeyed: [XLSForm.Kind] = [.note, .calculate, .beginGroup, .endGroup, .beginRepeat, .endRepeat]
        let topLevel = Set(form.questions.filter { !unkeyed.contains($0.kind) }.map(\.name))
        for name in form.idItems where !topLevel.contains(name) {
            errors.append(XLSFormProblem(sheet: "settings", row: nil, column: "id_items",
                                         message: "id_items names “\(name)”, which is no question keyed at the top of the survey "
                                             + "(an ID item identifies the paper: not a roster's question, a group or a calculation)"))
        }
        for scope in form.scopes { checkCycles(scope) }
        var refusedDefaults: Set<Int> = []
        for scope in form.scopes { refusedDefaults.formUnion(checkDefaults(form.scoped(to: scope))) }
        if !refusedDefaults.isEmpty { Self.dropDefaults(at: refusedDefaults, in: &form.questions) }
    }

    /// Why `${name}` reads nothing: no question has the name, or several in one record do
    /// (pyxform's words for the second).
    static func referenceProblem(_ name: String, ambiguous: Set<String>) -> String {
        ambiguous.contains(name)
            ? "${\(name)} is ambiguous: reference variables names must be unique anywhere in the survey, and “\(name)” appears more than once"
            : "unknown field ${\(name)}"
    }

    /// ODK refuses a form whose `relevant`, `calculation` and `required` go round in a circle
    /// (JavaRosa: "Cycle detected in form's relevant and calculation logic"), and its rules
    /// could never settle here either. A question depends on what those rules read (`.` is
    /// the question itself) and on the group around it, whose `relevant` decides it too.
    ///
    /// A rule that reads only its own question's answer is no circle but for a calculation
    /// (which would compute from itself). A `required` that reads it (`pulldata(…, .)`) is
    /// judged like a constraint, on the answer as it stands. A `relevant` that reads it is
    /// judged on the answer as it stands too, and is not triggered by it (the self-edge is
    /// not in the graph, as `FormDependencies` leaves it out): accepted, with a warning, as an
    /// empty answer may hide the question for good.
    private mutating func checkCycles(_ questions: [XLSForm.Question]) {
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
            // A calculation with a trigger is evaluated when the trigger fires, once, not as
            // what it reads changes (ODK's setvalue): `. + 1` counting the trigger's changes
            // goes round nothing, as `FormDependencies` leaves those edges out too.
            let calculation = q.trigger.isEmpty ? q.calculation : nil
            for (column, expression) in [("relevant", q.relevant), ("calculation", calculation), ("required", q.required)] {
                guard let expression else { continue }
                let readsItself = expression.readsCurrent || (!q.name.isEmpty && expression.fieldReferences.contains(q.name))
                if readsItself, column == "relevant" {
                    warnings.append(XLSFormProblem(sheet: "survey", row: q.row, column: column,
                                                   message: "${\(q.name)}’s relevant reads its own answer: it is judged on the answer as it stands, "
                                                       + "so an empty answer may hide the question for good"))
                }
                if readsItself, column == "calculation" { dependsOn[i].append((i, column)) }
                for name in expression.fieldReferences { if let j = index[name], j != i { dependsOn[i].append((j, column)) } }
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

    /// The rule in `text`; nil, with the reason, when it cannot be read. Text that is not
    /// XPath at all (`£¥§`, `$(x)`, `{r}`), which pyxform passes through unparsed, opens with
    /// the rule unread and a warning saying what that leaves: the question asked, not held by
    /// its required or constraint, its value not computed. Nothing typed is lost for a rule
    /// nobody can read. XPath survey does not read, or a function it does not know, is an
    /// error: the designer meant a rule survey would not keep.
    mutating func parse(_ text: String, sheet: String, row: Int?, column: String,
                                choiceColumns: Bool = false) -> FormExpression? {
        do {
            return try FormExpression(parsing: text, choiceColumns: choiceColumns)
        } catch let error as FormExpressionError where error.malformed {
            if sheet == "survey", let row { unreadRules.append((row, column)) }
            warnings.append(XLSFormProblem(sheet: sheet, row: row, column: column,
                                           message: "“\(text)” cannot be read (\(error)): \(Self.unreadRule[column] ?? "it is ignored")"))
            return nil
        } catch {
            errors.append(XLSFormProblem(sheet: sheet, row: row, column: column, message: "\(error)"))
            return nil
        }
    }

    /// What a column's rule that cannot be read leaves, in the designer's warning.
    static let unreadRule: [String: String] = [
        "relevant": "the question is always asked",
        "required": "the question is not required",
        "constraint": "any answer is taken",
        "calculation": "nothing is computed, the value stays empty",
        "choice_filter": "every choice is offered",
        "repeat_count": "instances are added by hand",
        "instance_name": "surveys are named as without it",
    ]

    // MARK: Cells

    /// pyxform's spellings of each type.
    static func kind(of raw: String) -> XLSForm.Kind {
        // Words apart by a tab or a line break are no type pyxform knows (`XLSFormTypes.isKnown`).
        if raw.trimmingWhitespace().contains(where: { $0.isWhitespace && $0 != " " }) { return .notCollected(raw) }
        let words = raw.split(whereSeparator: \.isWhitespace).map(String.init)
        let type = words.first?.lowercased() ?? ""
        // `or_other`, or pyxform's older spelling `or specify other`.
        let orOther = words.last?.lowercased() == "or_other" || words.suffix(3).map { $0.lowercased() } == ["or", "specify", "other"]
        func list(after skip: Int) -> String? { words.count > skip ? words[skip] : nil }
        if let (begins, control) = Self.control(raw) {
            switch control {
            case "group": return begins ? .beginGroup : .endGroup
            case "repeat", "lgroup", "looped group": return begins ? .beginRepeat : .endRepeat
            default: return .notCollected(raw)   // a loop, placed apart; anything else unknown
            }
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
        case "start", "end", "today", "deviceid", "username": return .metadata(type)
        case "rank": return list(after: 1).map { .rank(list: $0) } ?? .notCollected(raw)
        case "select_one_from_file", "select_multiple_from_file":
            guard let file = list(after: 1), FormMedia.isListFile(file) else { return .notCollected(raw) }
            return type == "select_one_from_file" ? .selectOne(list: file, orOther: false) : .selectMultiple(list: file, orOther: false)
        case "select_one", "select_multiple":
            guard let l = list(after: 1) else { return .notCollected(raw) }
            return type == "select_one" ? .selectOne(list: l, orOther: orOther) : .selectMultiple(list: l, orOther: orOther)
        case "select":
            // "select one from L", "select_one from L", "select multiple L", "select all that apply [from] L"
            if words.count >= 5, words[1...3].map({ $0.lowercased() }) == ["all", "that", "apply"] {
                let l = words[4].lowercased() == "from" ? list(after: 5) : list(after: 4)
                return l.map { .selectMultiple(list: $0, orOther: orOther) } ?? .notCollected(raw)
            }
            guard words.count >= 3 else { return .notCollected(raw) }
            let multiple = words[1].lowercased() == "multiple"
            let l = words[2].lowercased() == "from" ? list(after: 3) : list(after: 2)
            guard let l else { return .notCollected(raw) }
            return multiple ? .selectMultiple(list: l, orOther: orOther) : .selectOne(list: l, orOther: orOther)
        default: return typed[XLSFormTypes.normalized(raw)] ?? .notCollected(raw)
        }
    }

    /// Metadata ODK Collect reads from the phone (its GPS when the survey starts, its settings,
    /// its audit log), which survey has no source for: the row is kept, never filled.
    /// (`username` is the login, `DeviceMetadata`.)
    static let emptyMetadata: Set<String> = ["start-geopoint", "audit", "email", "phonenumber"]

    /// The types a keyboard can give after all, in pyxform's spellings.
    private static let typed: [String: XLSForm.Kind] = {
        var table: [String: XLSForm.Kind] = [:]
        let spellings: [(XLSForm.Kind, [String])] = [
            (.geo(.point), ["geopoint", "location", "gps", "q geopoint", "q location", "add location prompt"]),
            (.geo(.trace), ["geotrace", "q geotrace"]),
            (.geo(.shape), ["geoshape", "q geoshape"]),
            (.barcode, ["barcode", "q barcode", "add barcode prompt"]),
            (.attachment("image"), ["image", "photo", "q image", "q picture", "add image prompt"]),
            (.attachment("audio"), ["audio", "q audio", "add audio prompt"]),
            (.attachment("video"), ["video", "q video", "add video prompt"]),
            (.attachment("file"), ["file", "add file prompt"]),
            (.range, ["range"]),
            (.metadata("username"), ["uri:username"]),
            (.metadata("email"), ["email", "uri:email"]),
            (.metadata("phonenumber"), ["phonenumber", "phone number", "get phone number", "uri:phonenumber"]),
            (.metadata("audit"), ["audit"]),
            (.metadata("hidden"), ["hidden"]),
            (.metadata("start-geopoint"), ["start-geopoint"]),
        ]
        for (kind, names) in spellings { for name in names { table[name] = kind } }
        return table
    }()

    /// `select_one_from_file` names a `.csv` or `.xml` file (pyxform also takes `.geojson`,
    /// which is not read here: the row is then shown, not asked).
    static func listFileProblem(_ raw: String) -> String? {
        let words = raw.split(whereSeparator: \.isWhitespace).map(String.init)
        guard let type = words.first?.lowercased(), type == "select_one_from_file" || type == "select_multiple_from_file" else { return nil }
        guard words.count >= 2 else { return "\(type) needs the file of its list, as in “\(type) fruits.csv”" }
        if words[1].lowercased().hasSuffix(".geojson") { return nil }
        return "the list file of \(type) must end in .csv or .xml (or .geojson): “\(words[1])”"
    }

    /// `start=1 end=10 step=1` (blanks, commas or semicolons between) by name, lowercased.
    static func parameters(_ text: String) -> [String: String] {
        var result: [String: String] = [:]
        for pair in text.split(whereSeparator: { $0 == " " || $0 == "," || $0 == ";" }) {
            let parts = pair.split(separator: "=", maxSplits: 1).map { $0.trimmingWhitespace() }
            if parts.count == 2 { result[parts[0].lowercased()] = parts[1] }
        }
        return result
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
