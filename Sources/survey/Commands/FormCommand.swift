import FoundationEssentials
import SurveyValues
import SurveyForms
import SurveyStorage
import SurveyDatabase

/// `survey form check FILE` and `survey form show FILE`: a designer checks an XLSForm before
/// handing it to field workers, with every problem where the spreadsheet shows it.
enum FormCommand: Equatable {
    case check(String)
    case show(String)
    /// The form and the list files it reads (`NAME.media/`).
    case attach(String, media: [String], doc: String?)
    case printDefault
    /// The document's form and media, published to the team's PostgreSQL as a version.
    case publish(doc: String?, db: String?)

    static let shape = "survey form check|show FILE, survey form attach FILE [LIST-FILE…], or survey form default"

    static func parse(_ options: CommandLineOptions, _ words: ArraySlice<String>) throws -> FormCommand {
        guard let verb = words.first else {
            throw CommandLineOptions.UsageError(description: "missing subcommand: \(shape)")
        }
        if verb == "default" {
            try ShellCommands.expectNoArguments(words.dropFirst(), shape: shape)
            return .printDefault
        }
        if verb == "publish" {
            try ShellCommands.expectNoArguments(words.dropFirst(), shape: shape)
            return .publish(doc: options.doc, db: options.db)
        }
        guard let file = words.dropFirst().first else {
            throw CommandLineOptions.UsageError(description: "missing file: \(shape)")
        }
        if verb == "attach" { return .attach(file, media: Array(words.dropFirst(2)), doc: options.doc) }
        try ShellCommands.expectNoArguments(words.dropFirst(2), shape: shape)
        switch verb {
        case "check": return .check(file)
        case "show": return .show(file)
        default: throw CommandLineOptions.UsageError(description: "unknown subcommand “\(verb)”: \(shape)")
        }
    }

    /// 0: done, or usable (warnings on stderr); 1: errors, every one listed.
    func run(store: DocumentStore, remembered: String?, at date: Date) -> Int32 {
        let path: String
        switch self {
        case .check(let p), .show(let p): path = p
        case .printDefault:
            StandardOutput.write(Questionnaire.standard.xlsFormCSV)   // CSV text as it is: CRLF rows
            return 0
        case .publish(let doc, let db):
            let target = ConnectionString.resolve(option: db, environment: ProcessInfo.processInfo.environment)
            do {
                let document = try store.commandTarget(requested: doc, remembered: remembered, creating: false)
                let published = try FormPublishing.publish(store: store, document: document.name, target: target) {
                    ShellOutput.error("warning: \($0)")
                }
                ShellOutput.line(published)
                return 0
            } catch {
                ShellOutput.error(DocumentSync.describe(error, target: target))
                return 1
            }
        case .attach(let file, let media, let doc):
            do {
                let target = try store.commandTarget(requested: doc, remembered: remembered, creating: false)
                let warnings = try store.attachForm(from: file, to: target.name, media: media, at: date)
                warnings.forEach { ShellOutput.error("warning: \($0)") }
                ShellOutput.line("“\(target.name)” now uses the questionnaire \(store.formURL(for: target.name)?.lastPathComponent ?? file)")
                return 0
            } catch {
                ShellOutput.failure(error)
                return 1
            }
        }
        let result: (form: XLSForm?, errors: [XLSFormProblem], warnings: [XLSFormProblem])
        do {
            result = XLSForm.read(try XLSFormSheets.read(fileAt: path))
        } catch {
            ShellOutput.error("\(error)")
            return 1
        }
        result.warnings.forEach { ShellOutput.error("warning: \($0)") }
        result.errors.forEach { ShellOutput.error("\($0)") }
        // The list files it reads, from the form's own folder, as `form attach` picks them up.
        let media = result.form?.loadingMedia(from: URL(fileURLWithPath: path).deletingLastPathComponent())
        media?.warnings.forEach { ShellOutput.error("warning: \($0)") }
        guard let form = media?.form else {
            ShellOutput.error("\(path): \(counted(result.errors.count, "error")): the form cannot be used")
            return 1
        }
        // Named as pyxform names it: by the file when the settings give no form_id.
        if case .show = self { show(form.identified(byDefault: DocumentStore.fileStem(path))) }
        else { ShellOutput.line("\(path): \(counted(form.rowCount, "row")), usable") }
        return 0
    }

    private func show(_ form: XLSForm) {
        ShellOutput.line("\(form.title ?? "(no title)")  id \(form.formID ?? "-")  version \(form.version ?? "-")")
        show(form.questions, of: form, indent: "")
    }

    /// One line a row; a repeat's own rows under it, indented, as the survey keeps them.
    private func show(_ rows: [XLSForm.Question], of form: XLSForm, indent: String) {
        for q in rows {
            let label = q.labels[form.defaultLanguage ?? ""] ?? q.labels[""] ?? q.labels.values.sorted().first ?? ""
            var rules: [String] = []
            if q.required != nil { rules.append("required") }
            if q.relevant != nil { rules.append("relevant") }
            if q.constraint != nil { rules.append("constraint") }
            if q.calculation != nil { rules.append("calculated") }
            if q.repeatCount != nil { rules.append("repeat_count") }
            ShellOutput.line(indent + ["row \(q.row)", q.kind.description, q.name, label.isEmpty ? "-" : "“\(label)”",
                                       rules.joined(separator: ",")].filter { !$0.isEmpty }.joined(separator: "  "))
            if q.kind == .beginRepeat { show(q.children, of: form, indent: indent + "  ") }
        }
    }
}

extension FormCommand: ShellCommand {
    static let name = "form"

    static let forms: [CommandSpec] = [
        CommandSpec(words: ["form", "check"], synopsis: "FILE", arguments: [.file],
                    help: "check an XLSForm (pyxform's CSV or Markdown layout): exit 0 when it can be used (warnings on stderr), 1 with every error listed as \"survey row 12, constraint: unknown field ${agee}\""),
        CommandSpec(words: ["form", "show"], synopsis: "FILE", arguments: [.file],
                    help: "the questions of an XLSForm as survey understands them: row, type, name, label and rules"),
        CommandSpec(words: ["form", "attach"], synopsis: "FILE [LIST-FILE...] [--doc NAME]", arguments: [.file],
                    help: "copy an XLSForm (.xlsx, .csv or .md) beside the document as NAME.form.xlsx (or .csv, .md) after checking it; a questionnaire already there goes to the trash. The list files it reads (select_one_from_file, pulldata: .csv or .xml) are copied into NAME.media/: those given, and those beside the form"),
        CommandSpec(words: ["form", "publish"], synopsis: "[--doc NAME] [--db URL]", arguments: [],
                    help: "publish the document's form and its list files to the team's PostgreSQL (a supervisor); every laptop's next sync takes it"),
        CommandSpec(words: ["form", "default"], synopsis: "", arguments: [],
                    help: "print the five original questions as an XLSForm in pyxform's CSV layout: a starting point for designers"),
    ]

    static let options: [OptionSpec] = DatabaseCommand.options

    func run(in context: CommandContext) -> Int32 { run(store: context.store, remembered: context.remembered, at: context.clock.now) }

    var changesDocuments: Bool { switch self { case .attach: true; case .check, .show, .printDefault, .publish: false } }
}
