import SurveyUI

/// `survey --man`: survey(1) in roff, from the same declarations as `--help`
/// (`CommandSpec.all`, `OptionSpec.all`, `HelpText`) and the app's one key table
/// (`KeyMap.bindings`), so the page cannot drift from the program.
enum ManPage {
    /// Where each group of keys works, in the order the page lists them. A mode missing here
    /// (added later) is still listed, under its own name.
    static let modeTitles: [(InputMode, String)] = [
        (.listPane, "Survey list"), (.listPopover, "Survey list popover (narrow terminals)"),
        (.formBrowsing, "Form"), (.formEditing, "Editing a field"), (.filtering, "Find (/)"),
        (.help, "Help (F1)"), (.documents, "Documents list (F3)"), (.renamingDocument, "Renaming a document"),
        (.confirmingDelete, "Deleting a document"), (.confirmingRecordDelete, "Deleting a survey"),
        (.confirmingRecordCopy, "Adding a copy of a survey"), (.confirmingAnswersClear, "Clearing answers not in this form version"),
        (.namingDocument, "Saving records under a name"), (.offeringRecovery, "Recovered surveys"),
        (.documentInfo, "Document info (F4)"), (.unreadable, "Unreadable document"),
    ]

    static var page: String {
        var out: [String] = []
        out.append(".TH SURVEY 1 \"\" \"survey \(BuildInfo.version)\" \"User Commands\"")
        out.append(".nh")
        out.append(".ad l")
        out.append(".SH NAME")
        out.append("survey \\- " + escape(HelpText.summary))
        out.append(".SH SYNOPSIS")
        out.append(".nf")
        for spec in CommandSpec.all {
            out.append("\\fBsurvey\\fR" + (spec.words.isEmpty ? "" : " \\fB" + escape(spec.name) + "\\fR") + " " + escape(spec.synopsis))
        }
        out.append(".fi")
        out.append(".SH DESCRIPTION")
        out.append(paragraph(HelpText.description))
        out.append(".PP")
        out.append(paragraph(HelpText.recordCommands))
        out.append(".SH COMMANDS")
        for spec in CommandSpec.all where !spec.words.isEmpty {
            out.append(tagged("\\fB" + escape(Usage.commandLabel(spec)) + "\\fR", spec.help))
        }
        out.append(".SH OPTIONS")
        for option in OptionSpec.all {
            let names = option.names.map { "\\fB" + escape($0) + "\\fR" }.joined(separator: ", ")
            let label = names + (option.placeholder.map { " \\fI" + escape($0) + "\\fR" } ?? "")
            out.append(tagged(label, option.help))
        }
        out.append(".SH KEYS")
        out.append(paragraph("In the app. The bottom bar shows the keys that work at the moment, and F1 lists them."))
        out += keySections()
        out.append(".SH FORMATS")
        for (name, text) in HelpText.formats { out.append(tagged("\\fB" + name + "\\fR", text)) }
        out.append(".SH NAMES")
        out.append(paragraph(HelpText.names.replacingEvery("Names: ", with: "")))
        out.append(".SH FILES")
        out.append(paragraph("In the document folder, unless the name starts with $:"))
        for (name, text) in HelpText.files { out.append(tagged("\\fI" + escape(name) + "\\fR", text)) }
        out.append(".SH ENVIRONMENT")
        for (name, text) in HelpText.environment { out.append(tagged("\\fB" + escape(name) + "\\fR", text)) }
        out.append(".SH EXIT STATUS")
        for (code, text) in HelpText.exitStatus { out.append(tagged("\\fB" + code + "\\fR", text)) }
        out.append(".PP")
        out.append(paragraph(HelpText.earlyReader))
        out.append(".SH SEE ALSO")
        out.append("README.md, and the guides it links in docs/ (keying.md, xlsform.md, commands.md, team.md, encryption.md, files.md, speed.md), in /usr/share/doc/survey (or PREFIX/share/doc/survey).")
        return out.joined(separator: "\n") + "\n"
    }

    /// Keys that work on most screens first, then each screen's own keys.
    static func keySections() -> [String] {
        let everyday: InputModes = [.listPane, .formBrowsing, .formEditing]
        let withHelp = KeyMap.bindings.filter { $0.help != nil }
        let anywhere = withHelp.filter { everyday.isSubset(of: $0.modes) }
        var out = [".SS Anywhere"] + anywhere.map(keyEntry)
        let known = Set(modeTitles.map(\.0))
        let modes = modeTitles + InputMode.allCases.filter { !known.contains($0) }.map { ($0, "\($0)") }
        for (mode, title) in modes {
            let own = KeyMap.helpBindings(for: mode).filter { binding in
                !anywhere.contains { $0.keyLabel == binding.keyLabel && $0.help == binding.help }
            }
            guard !own.isEmpty else { continue }
            out.append(".SS " + escape(title))
            out += own.map(keyEntry)
        }
        return out
    }

    static func keyEntry(_ binding: KeyBinding) -> String {
        tagged("\\fB" + escape(binding.keyLabel) + "\\fR", binding.help ?? "")
    }

    static func tagged(_ label: String, _ text: String) -> String {
        ".TP\n" + label + "\n" + paragraph(text)
    }

    static func paragraph(_ text: String) -> String {
        escape(text)
    }

    /// Characters written as groff glyphs that also have an ASCII form, so `man` renders
    /// them without a warning under the C locale too.
    static let glyphs: [Unicode.Scalar: String] = [
        "←": "\\(<-", "→": "\\(->", "↑": "\\(ua", "↓": "\\(da", "…": "...", "–": "\\(en",
        "—": "\\(em", "“": "\\(lq", "”": "\\(rq", "‘": "\\(oq", "’": "\\(cq", "•": "\\(bu",
    ]

    /// Text safe in roff: backslashes and hyphens escaped, a leading dot or quote guarded,
    /// and every character beyond ASCII written as `\[uXXXX]`, so the page renders the same
    /// in any locale.
    static func escape(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": out += "\\e"
            case "-": out += "\\-"
            case "\n": out += " "
            case _ where glyphs[scalar] != nil: out += glyphs[scalar] ?? ""
            case _ where scalar.value > 0x7E || scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16, uppercase: true)
                out += "\\[u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex + "]"
            default: out.unicodeScalars.append(scalar)
            }
        }
        if out.hasPrefix(".") || out.hasPrefix("'") { out = "\\&" + out }
        return out
    }
}
