import Foundation
import SurveyModel

/// `survey form check FILE` and `survey form show FILE`: a designer checks an XLSForm before
/// handing it to field workers, with every problem where the spreadsheet shows it.
enum FormCommand: Equatable {
    case check(String)
    case show(String)

    static let shape = "survey form check|show FILE"

    static func parse(_ words: ArraySlice<String>) throws -> FormCommand {
        guard let verb = words.first else {
            throw CommandLineOptions.UsageError(description: "missing subcommand: \(shape)")
        }
        guard let file = words.dropFirst().first else {
            throw CommandLineOptions.UsageError(description: "missing file: \(shape)")
        }
        try Command.expectNoArguments(words.dropFirst(2), shape: shape)
        switch verb {
        case "check": return .check(file)
        case "show": return .show(file)
        default: throw CommandLineOptions.UsageError(description: "unknown subcommand “\(verb)”: \(shape)")
        }
    }

    /// 0: usable (warnings on stderr); 1: errors, every one listed.
    func run() -> Int32 {
        let path: String
        switch self { case .check(let p), .show(let p): path = p }
        let result: (form: XLSForm?, errors: [XLSFormProblem], warnings: [XLSFormProblem])
        do {
            result = XLSForm.read(try XLSFormSheets.read(fileAt: path))
        } catch {
            ShellOutput.error("\(error)")
            return 1
        }
        result.warnings.forEach { ShellOutput.error("warning: \($0)") }
        result.errors.forEach { ShellOutput.error("\($0)") }
        guard let form = result.form else {
            ShellOutput.error("\(path): \(counted(result.errors.count, "error")): the form cannot be used")
            return 1
        }
        if case .show = self { show(form) }
        else { ShellOutput.line("\(path): \(counted(form.questions.count, "row")), usable") }
        return 0
    }

    private func show(_ form: XLSForm) {
        ShellOutput.line("\(form.title ?? "(no title)")  id \(form.formID ?? "-")  version \(form.version ?? "-")")
        for q in form.questions {
            let label = q.labels[form.defaultLanguage ?? ""] ?? q.labels[""] ?? q.labels.values.sorted().first ?? ""
            var rules: [String] = []
            if q.required != nil { rules.append("required") }
            if q.relevant != nil { rules.append("relevant") }
            if q.constraint != nil { rules.append("constraint") }
            if q.calculation != nil { rules.append("calculated") }
            ShellOutput.line(["row \(q.row)", q.kind.description, q.name, label.isEmpty ? "-" : "“\(label)”",
                              rules.joined(separator: ",")].filter { !$0.isEmpty }.joined(separator: "  "))
        }
    }
}
