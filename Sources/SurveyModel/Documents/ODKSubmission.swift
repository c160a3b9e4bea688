/// A survey as an ODK submission: the XML instance of the form's XForm, as ODK Collect
/// sends it to Central and ODK Briefcase keeps it (`submission.xml`), so a team can push
/// terminal-keyed surveys into ODK Central with Briefcase.
///
/// The root element is the XForm's (`XLSForm.rootName`: the settings' `name`, else `data`,
/// as pyxform names it) with the form's `id` and the survey's `version` (the version it was
/// keyed with, else the form's; left out when neither has one, as pyxform leaves it out).
/// Inside, every question and group of the form in form order, groups as elements around
/// their questions, one element per instance of a repeat with its questions inside,
/// unanswered questions as empty elements (Collect writes them so; an answer kept under its
/// group path, `g1/q1`, is its element `q1` inside `g1`), and last
/// `<meta><instanceID>uuid:…</instanceID></meta>`, pyxform's own block. Keys a survey holds
/// that the form does not ask are left out: Central would refuse elements its form lacks.
public enum ODKSubmission {
    /// The XML text of one survey.
    public static func xml(_ record: Record, questionnaire: Questionnaire) -> String {
        let form = questionnaire.form
        let root = form?.rootName ?? "data"
        var attributes = " id=\"\(escape(form?.formID ?? root))\""
        if let version = record.text(forKey: Questionnaire.formVersionKey).nonEmpty ?? form?.version?.nonEmpty {
            attributes += " version=\"\(escape(version))\""
        }
        var out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<\(root)\(attributes)>"
        write(questionnaire.tree, answers: record.values, scope: questionnaire, into: &out)
        out += "<meta><instanceID>\(escape(record.instanceID ?? ""))</instanceID></meta></\(root)>\n"
        return out
    }

    /// The elements of `nodes`, answered from `answers` (the survey's or one instance's).
    private static func write(_ nodes: [FormNode], answers: [String: PropertyValue], scope: Questionnaire,
                              into out: inout String) {
        for node in nodes where !node.name.isEmpty {
            switch node.kind {
            case .group:
                out += "<\(node.element)>"
                write(node.children, answers: answers, scope: scope, into: &out)
                out += "</\(node.element)>"
            case .repeat:
                guard case .array(let items)? = answers[node.name] else { continue }
                let inner = scope.instanceQuestionnaire(for: node)
                for case .dictionary(let instance) in items {
                    out += "<\(node.element)>"
                    write(node.children, answers: instance, scope: inner, into: &out)
                    out += "</\(node.element)>"
                }
            case .question:
                let text = answers[node.name].map(FieldSpec.describe) ?? ""
                out += text.isEmpty ? "<\(node.element)/>" : "<\(node.element)>\(escape(text))</\(node.element)>"
            }
        }
    }

    /// Where ODK Briefcase keeps the submission inside its storage folder (`ODK Briefcase
    /// Storage`): `forms/TITLE/instances/uuidXXXX/submission.xml`, the form's folder named
    /// by its title (Briefcase's form name) with the characters a file name cannot hold
    /// dropped, the instance's by its id without the colon (Briefcase's own
    /// `instanceID.replaceAll(":", "")`).
    public static func briefcasePath(_ record: Record, questionnaire: Questionnaire, fallbackID: String) -> [String] {
        let instance = (record.instanceID ?? fallbackID).replacing(":", with: "")
        return ["ODK Briefcase Storage", "forms", formFolder(questionnaire), "instances", safeName(instance), "submission.xml"]
    }

    /// The form's folder in Briefcase's storage: its title, else its id.
    public static func formFolder(_ questionnaire: Questionnaire) -> String {
        let form = questionnaire.form
        return safeName(form?.title?.nonEmpty ?? form?.formID?.nonEmpty ?? "data")
    }

    /// A name without what no file name may hold (`/\?%*:|"<>`, control characters) and
    /// without trailing dots and blanks, as Briefcase's `stripIllegalChars`.
    static func safeName(_ text: String) -> String {
        var kept = String(String.UnicodeScalarView(text.unicodeScalars.filter {
            !"/\\?%*:|\"<>".unicodeScalars.contains($0) && !$0.isControlCharacter
        }))
        while let last = kept.last, last == "." || last == " " { kept.removeLast() }
        return kept.isEmpty ? "_" : kept
    }

    /// Text as XML element content or attribute value; a character XML cannot hold becomes
    /// U+FFFD, as the document's own writer does (`XMLCharacters`).
    static func escape(_ text: String) -> String {
        var out = ""
        for scalar in XMLCharacters.replacingForbidden(in: text).unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}

private extension String {
    var nonEmpty: String? { isEmpty ? nil : self }
}
