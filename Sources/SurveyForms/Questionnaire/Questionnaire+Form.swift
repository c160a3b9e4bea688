import FoundationEssentials
import SurveyValues

/// A designer's XLSForm as the questionnaire the app runs: every row becomes a field, in the
/// spreadsheet's order, so the form, the list, `add` and `import` all read one description.
extension Questionnaire {
    /// The form's questions with labels, hints and choices in `language` (nil: the form's
    /// `default_language`, else the unnamed `label` column, else the first language).
    public init(form: XLSForm, language: String? = nil) {
        self.init(form: form, language: language, outlined: true)
    }

    /// `outlined: false` for a repeat's rows, whose outline is the whole form's.
    init(form: XLSForm, language: String?, outlined: Bool) {
        let chosen = language ?? form.defaultLanguage
        func pick(_ texts: [String: String]) -> String? {
            if let chosen, let t = texts[chosen] { return t }
            if let t = texts[""] { return t }
            if let d = form.defaultLanguage, let t = texts[d] { return t }
            return form.languages.lazy.compactMap { texts[$0] }.first ?? texts.values.sorted().first
        }
        var fields: [FieldSpec] = []
        for q in form.questions {
            let kind: FieldKind
            switch q.kind {
            case .text: kind = .text(maxLength: Int.max)
            case .integer: kind = .wholeNumber(Int.min...Int.max)
            case .decimal: kind = .decimal
            case .date: kind = .date
            case .time: kind = .time
            case .dateTime: kind = .dateTime
            case .selectOne(let list, _), .selectMultiple(let list, _):
                let multiple = if case .selectMultiple = q.kind { true } else { false }
                kind = .choice(list: list, names: (form.choices[list] ?? []).map(\.name), multiple: multiple)
            case .note: kind = .note
            case .calculate: kind = .calculated
            case .acknowledge: kind = .acknowledge
            case .beginGroup: kind = .groupStart
            case .endGroup: kind = .groupEnd
            // A roster is one row here, not keyed yet; its questions are the repeat's own
            // (`Questionnaire.tree`, `instanceQuestionnaire(for:)`), never top-level fields.
            case .beginRepeat: kind = .notCollected("begin repeat")
            case .endRepeat: kind = .notCollected("end repeat")
            case .geo(let g): kind = .geo(g)
            case .barcode: kind = .text(maxLength: Int.max)
            case .attachment(let a): kind = .attachment(a)
            case .range:
                let (start, end, step) = XLSFormReader.rangeParameters(q)
                kind = .range(start: start ?? 1, end: end ?? 10, step: step ?? 1)
            case .rank(let list): kind = .rank(list: list, names: (form.choices[list] ?? []).map(\.name))
            case .metadata(let m): kind = .metadata(m)
            case .notCollected(let t): kind = .notCollected(t)
            }
            let label = pick(q.labels)?.trimmingWhitespaceAndNewlines()
            var field = FieldSpec(key: q.name, label: (label?.isEmpty == false ? label : nil) ?? FormNode.element(q.name), kind: kind,
                                  info: pick(q.hints) ?? "")
            field.hint = pick(q.hints) ?? ""
            field.isRequired = q.required != nil
            field.storesEmptyText = false
            field.isVerified = q.verify
            field.isPublishable = q.publishable
            if let list = q.kind.listName {
                for choice in form.choices[list] ?? [] { field.choiceLabels[choice.name] = pick(choice.labels) ?? choice.name }
            }
            if kind == .acknowledge { field.choiceLabels["OK"] = "OK" }
            fields.append(field)
        }
        self.init(fields: fields, form: form, language: chosen, outlined: outlined)
    }

    /// Languages a key can switch between, in column order. An unnamed `label` column beside
    /// named ones is a language too, named as pyxform names it: the form's `default_language`,
    /// else "default".
    public var languages: [String] {
        guard let form else { return [] }
        var names = form.languages
        if let unnamed = unnamedLanguage, !names.isEmpty, !names.contains(unnamed) { names.insert(unnamed, at: 0) }
        return names
    }

    /// The name of the unnamed `label` column's language, when the form has one. The text
    /// question `or_other` adds ("Specify other.") is pyxform's, not the designer's, and
    /// does not count.
    private var unnamedLanguage: String? {
        guard let form else { return nil }
        let questions = form.questions
        let hasUnnamed = questions.indices.contains { i in
            let added = i > 0 && questions[i - 1].row == questions[i].row
            return !added && (questions[i].labels[""] != nil || questions[i].hints[""] != nil)
        }
        return hasUnnamed ? form.defaultLanguage ?? "default" : nil
    }

    /// A designer's text in the language shown (a message of `required_message::English (en)`
    /// columns), nil when it has none there.
    func shownText(_ texts: [String: String]) -> String? {
        guard !texts.isEmpty else { return nil }
        if let shown = shownLanguage, let text = texts[shown] { return text }
        return texts[""]
    }

    /// The language whose words are shown: the one chosen when the form has it, else the
    /// default (the unnamed column's, `default_language`, or the first).
    private var shownLanguage: String? {
        let names = languages
        if let language, names.contains(language) { return language }
        if let unnamed = unnamedLanguage { return unnamed }
        if let d = form?.defaultLanguage, names.contains(d) { return d }
        return names.first
    }

    /// The same form in the next language (wrapping), or nil when it has one or none.
    public func nextLanguage() -> Questionnaire? {
        guard let form else { return nil }
        let names = languages
        guard names.count > 1 else { return nil }
        let current = shownLanguage.flatMap { names.firstIndex(of: $0) } ?? -1
        return Questionnaire(form: form, language: names[(current + 1) % names.count])
    }

    /// The XLSForm question behind a field.
    func question(_ index: Int) -> XLSForm.Question? {
        guard let form, form.questions.indices.contains(index) else { return nil }
        return form.questions[index]
    }
}
