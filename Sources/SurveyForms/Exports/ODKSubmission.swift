import SurveyValues
/// A survey as an ODK submission: the XML instance of the form's XForm, as ODK Collect
/// sends it to Central and ODK Briefcase keeps it (`submission.xml`), so a team can push
/// terminal-keyed surveys into ODK Central with Briefcase.
///
/// The root element is the XForm's (`XLSForm.rootName`: the settings' `name`, else `data`,
/// as pyxform names it) with the form's `id` and the survey's `version` (the version it was
/// keyed with, else the form's; left out when neither has one, as pyxform leaves it out;
/// a day count survey once read from the form's date cell is written as pyxform writes that
/// date, `XLSForm.isVersion`).
/// Inside, every question and group of the form in form order, groups as elements around
/// their questions, one element per instance of a repeat with its questions inside,
/// unanswered questions as empty elements (Collect writes them so; an answer kept under its
/// group path, `g1/q1`, is its element `q1` inside `g1`), and last
/// `<meta><instanceID>uuid:…</instanceID></meta>`, pyxform's own block. An answer the
/// survey holds that this version of the form does not ask (a question or a roster an older
/// version had: the survey's `version` is then that older version's, whose form Central
/// holds) follows the form's elements in its scope, in the order of its key, a roster as one
/// element per instance with its answers inside; the servers' bookkeeping kept from an
/// import (`SubmissionDate`…) is no answer and stays out. A key no XML element can be named
/// (`hh size`), a list that is no roster or a dictionary is refused (`UncarriedAnswer`):
/// an element cannot hold it.
public enum ODKSubmission {
    /// The XML text of one survey.
    public static func xml(_ record: Record, questionnaire: Questionnaire) throws -> String {
        let form = questionnaire.form
        let root = form?.rootName ?? "data"
        var attributes = " id=\"\(escape(form?.formID ?? root))\""
        // A version survey read from a date cell as its day count is the one pyxform wrote.
        let keyed = record.text(forKey: Questionnaire.formVersionKey).nonEmpty
        if let version = keyed.map({ form?.isVersion($0) ?? false ? form?.version ?? $0 : $0 }) ?? form?.version?.nonEmpty {
            attributes += " version=\"\(escape(version))\""
        }
        var out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<\(root)\(attributes)>"
        // The entity an update started from is survey's note, not an answer (Collect's `meta/entity` is not written yet).
        let skipped = Set(Questionnaire.identityKeys + [EntityBase.recordKey]).union(ImportHeader.serverColumns)
        try write(questionnaire.tree, answers: record.values, scope: questionnaire, skipping: skipped, path: "", into: &out)
        out += "<meta><instanceID>\(escape(record.instanceID ?? ""))</instanceID></meta></\(root)>\n"
        return out
    }

    /// The elements of `nodes`, answered from `answers` (the survey's or one instance's),
    /// then the answers no node places but those `skipping` names. `path` says where
    /// (`member[2]/`), for a refusal.
    private static func write(_ nodes: [FormNode], answers: [String: PropertyValue], scope: Questionnaire,
                              skipping: Set<String> = [], path: String, into out: inout String) throws {
        var placed = skipping
        func walk(_ nodes: [FormNode]) throws {
            for node in nodes where !node.name.isEmpty {
                switch node.kind {
                case .group:
                    out += "<\(node.element)>"
                    try walk(node.children)
                    out += "</\(node.element)>"
                case .repeat:
                    placed.insert(node.name)
                    guard case .array(let items)? = answers[node.name] else { continue }
                    let inner = scope.instanceQuestionnaire(for: node)
                    for (i, item) in items.enumerated() {
                        guard case .dictionary(let instance) = item else { continue }
                        out += "<\(node.element)>"
                        try write(node.children, answers: instance, scope: inner, path: "\(path)\(node.name)[\(i + 1)]/", into: &out)
                        out += "</\(node.element)>"
                    }
                case .question:
                    placed.insert(node.name)
                    if let value = answers[node.name], UncarriedAnswer.isNested(value) {
                        throw UncarriedAnswer(path: path + node.name, reason: .nested, format: "An ODK submission")
                    }
                    let text = answers[node.name].map(FieldSpec.describe) ?? ""
                    out += text.isEmpty ? "<\(node.element)/>" : "<\(node.element)>\(escape(text))</\(node.element)>"
                }
            }
        }
        try walk(nodes)
        try writeUnasked(answers, placed: placed, path: path, into: &out)
    }

    /// The answers of `answers` that no node placed, by key: a value as text, a roster as
    /// its instances.
    private static func writeUnasked(_ answers: [String: PropertyValue], placed: Set<String>, path: String,
                                     into out: inout String) throws {
        for key in answers.keys.sorted() where !placed.contains(key) {
            let value = answers[key]!
            guard XLSFormReader.isXMLName(key), !key.contains(":") else {
                throw UncarriedAnswer(path: path + key, reason: .notAnElementName, format: "An ODK submission")
            }
            if ODKTables.isRoster(value), case .array(let items) = value {
                for (i, item) in items.enumerated() {
                    guard case .dictionary(let instance) = item else { continue }
                    out += "<\(key)>"
                    try writeUnasked(instance, placed: [], path: "\(path)\(key)[\(i + 1)]/", into: &out)
                    out += "</\(key)>"
                }
            } else if UncarriedAnswer.isNested(value) {
                throw UncarriedAnswer(path: path + key, reason: .nested, format: "An ODK submission")
            } else {
                let text = FieldSpec.describe(value)
                out += text.isEmpty ? "<\(key)/>" : "<\(key)>\(escape(text))</\(key)>"
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
    /// without trailing dots and blanks, as Briefcase's `stripIllegalChars`; then made one
    /// plain file name as every export's (`FileNames.safe`: a leading dot is `_`, so
    /// a title `..` is never the folder above).
    static func safeName(_ text: String) -> String {
        let kept = String(String.UnicodeScalarView(text.unicodeScalars.filter {
            !"/\\?%*:|\"<>".unicodeScalars.contains($0) && !$0.isControlCharacter
        }))
        return FileNames.safe(kept)
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
