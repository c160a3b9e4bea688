import SurveyValues
/// The ordered questions every record answers. A value, not a global list of constants,
/// so the form, validation and file layout all follow one source and users can later bring
/// their own.
public struct Questionnaire: Equatable, Sendable {
    public let fields: [FieldSpec]
    /// What names a survey, worked out once: the list names every row at every frame.
    let naming: NamingKeys
    /// The designer's XLSForm the fields come from; nil for the original five, whose rules
    /// are all in their `FieldKind`s.
    public let form: XLSForm?
    /// The label language shown (nil: the form's default).
    public let language: String?
    /// The form as a tree: questions, groups and repeats, each with its path. `fields` is
    /// its top level, flat, as the form screen and the exports walk it. An instance's
    /// questionnaire holds the repeat's nodes, with their paths in the whole form.
    public internal(set) var tree: [FormNode]
    /// For each field, the `begin group` fields around it, outermost first: a group's
    /// `relevant` hides everything inside it.
    let enclosingGroups: [[Int]]
    /// The fields are the keys a document's surveys were found with, not a questionnaire:
    /// its form is missing or has errors (`DocumentForm`), so they are only read.
    public internal(set) var isStoredAnswers = false
    /// The original app's five questions (or a list of fields like them): no form, and not
    /// a form's surveys read without it.
    public var isOriginalFive: Bool { form == nil && !isStoredAnswers }
    /// Every scope of the form (the top level and each repeat) and the dependency graph over
    /// them, built once with the questionnaire and shared by its repeats' questionnaires;
    /// nil without a form.
    var outline: Derived<FormOutline>?
    /// Which of the outline's scopes this questionnaire's fields are (0: the top level).
    package internal(set) var scopeNumber = 0
    /// The answers of the last survey saved in the document, which `${last-saved#name}`
    /// reads (`withLastSaved(_:)`); empty for a new document, as in ODK Collect.
    public internal(set) var lastSaved: [String: PropertyValue] = [:]

    /// The same questionnaire with `record` as the last survey saved in its document: a
    /// caller that has the document supplies it (`SurveyDocument.lastSaved`).
    public func withLastSaved(_ record: Record?) -> Questionnaire {
        var copy = self
        copy.lastSaved = record?.values ?? [:]
        return copy
    }

    public init(fields: [FieldSpec]) {
        self.fields = fields
        self.naming = NamingKeys(fields)
        self.form = nil
        self.language = nil
        self.enclosingGroups = Array(repeating: [], count: fields.count)
        self.tree = fields.enumerated().map { i, field in
            FormNode(kind: .question, name: field.key, path: "/data/" + field.key, repeats: [], question: nil, fieldIndex: FieldIndex(i), children: [])
        }
    }

    init(fields: [FieldSpec], form: XLSForm, language: String?, outlined: Bool = true) {
        self.fields = fields
        self.naming = NamingKeys(fields)
        self.form = form
        self.language = language
        var stack: [Int] = []
        var groups: [[Int]] = []
        for (i, field) in fields.enumerated() {
            if field.kind == .groupEnd { _ = stack.popLast() }
            groups.append(stack)
            if field.kind == .groupStart { stack.append(i) }
        }
        self.enclosingGroups = groups
        self.tree = FormNode.nodes(form.questions, under: "/" + form.rootName, repeats: [])
        if outlined { self.outline = Derived(value: FormOutline(root: self)) }
    }

    public func field(forKey key: String) -> FieldSpec? {
        fields.first { $0.key == key }
    }

    /// The original app's five questions, with the plist keys it wrote.
    public static let standard = Questionnaire(fields: [
        FieldSpec(key: "firstName", label: "First name", kind: .text(maxLength: 100),
                  info: "The survey taker's given name."),
        FieldSpec(key: "lastName", label: "Last name", kind: .text(maxLength: 100),
                  info: "The survey taker's family name."),
        FieldSpec(key: "address", label: "Address", kind: .text(maxLength: 200),
                  info: "Where the survey taker lives: street, number and town."),
        FieldSpec(key: "phone", label: "Phone", kind: .text(maxLength: 40),
                  info: "A number to reach the survey taker, written any way."),
        FieldSpec(key: "age", label: "Age", kind: .wholeNumber(0...150),
                  info: "If the survey taker refuses, that is okay"),
    ])
}
