import FoundationEssentials
import SurveyValues
import SurveyForms
import SurveyStorage

/// `survey add`: one survey from flags, judged by the document's questionnaire (its types
/// and the designer's rules), appended in one atomic save. Every refusal is printed at once,
/// so a script's author fixes them in one go.
struct AddCommand: Equatable {
    static let synopsis = "[--doc NAME] [--set NAME=VALUE]... [--first X --last Y] [--address A] [--phone P] [--age N] [--incomplete]"
    static let shape = "survey add " + synopsis

    /// Flag → questionnaire key, for the original five. Flags rather than `key=value` words:
    /// the shell completes them, and a value can never be mistaken for a field name.
    static let fieldFlags = [
        "--first": "firstName", "--last": "lastName", "--address": "address", "--phone": "phone", "--age": "age",
    ]

    var doc: String?
    /// Typed text keyed by questionnaire key.
    var answers: [String: String]
    /// The option that gave each answer (`--first`, `--set`), for messages.
    var givenBy: [String: String]
    /// `--incomplete`: kept as an incomplete survey (as Ctrl-S keeps a New form): answers the
    /// form lacks wait, every answer given is still judged.
    var incomplete = false

    init(_ options: CommandLineOptions, _ words: ArraySlice<String>) throws {
        if let word = words.first, word.contains("=") {
            throw CommandLineOptions.UsageError(description: "unexpected argument “\(word)”: an answer is given as --set \(word)")
        }
        try ShellCommands.expectNoArguments(words, shape: Self.shape)
        if options.sets.isEmpty, options.answers["--first"] == nil || options.answers["--last"] == nil {
            throw CommandLineOptions.UsageError(
                description: "survey add needs --set NAME=VALUE for each answer, or --first and --last: \(Self.shape)")
        }
        doc = options.doc
        incomplete = options.incomplete
        answers = [:]
        givenBy = [:]
        for (flag, value) in options.answers {
            guard let key = Self.fieldFlags[flag] else { continue }
            answers[key] = value
            givenBy[key] = flag
        }
        for item in options.sets {
            guard let equals = item.firstIndex(of: "=") else {
                throw CommandLineOptions.UsageError(description: "--set needs NAME=VALUE, got “\(item)”")
            }
            let name = item[..<equals].trimmingWhitespace()
            let value = String(item[item.index(after: equals)...])
            guard !name.isEmpty else {
                throw CommandLineOptions.UsageError(description: "--set needs a question name before “=”, got “\(item)”")
            }
            if let earlier = answers[name] {
                let other = givenBy[name] == "--set" ? "--set \(name)" : givenBy[name] ?? "--set"
                throw CommandLineOptions.UsageError(
                    description: "\(name) is answered twice (\(other) “\(earlier)” and --set \(name) “\(value)”): give it once")
            }
            answers[name] = value
            givenBy[name] = "--set"
        }
    }

    /// Why the answers cannot be given to `questionnaire` (a name it does not ask), or nil.
    func unknownNames(in questionnaire: Questionnaire, documentName: String) -> [String] {
        let asked = questionnaire.answerableFields.map(\.key)
        let refused = answers.keys.sorted().compactMap { key -> String? in
            guard let reason = questionnaire.unanswerableReason(key) else { return nil }
            if let flag = givenBy[key], flag != "--set" {
                return "\(flag) answers \(key), which “\(documentName)” does not ask: use --set NAME=VALUE"
            }
            return "--set \(key) in “\(documentName)”: \(reason)"
        }
        guard !refused.isEmpty else { return [] }
        return refused + ["“\(documentName)” asks: \(asked.joined(separator: ", ")) (survey form show lists them)"]
    }

    /// The record as the form would start it: every answer given as typed text. The original
    /// five hold a field without a flag as empty text (so text fields hold "" and there is no
    /// age); a designer's form leaves it out, or starts it at its `default`.
    func record(in questionnaire: Questionnaire, clock: Questionnaire.Clock) -> Record {
        guard questionnaire.form != nil else {
            var values = answers.mapValues(PropertyValue.string)
            for field in questionnaire.fields where values[field.key] == nil { values[field.key] = .string("") }
            return Record(values)
        }
        return questionnaire.withDefaultTexts(Record(answers.mapValues(PropertyValue.string)), clock: clock)
    }

    /// The answers to `image`, `audio`, `video` and `file` questions given as a path to a
    /// file on disk, by key; each answer becomes the file's name, judged as the form judges
    /// it, and the file is copied into the document's media folder once the survey is
    /// accepted. A value with no file at it is a file name already in the media folder.
    mutating func attachmentPaths(in questionnaire: Questionnaire) throws -> [String: String] {
        var paths: [String: String] = [:]
        for field in questionnaire.fields {
            guard case .attachment = field.kind, let value = answers[field.key], !value.isEmpty else { continue }
            if FileManager.default.fileExists(atPath: value) {
                paths[field.key] = value
                answers[field.key] = URL(fileURLWithPath: value).lastPathComponent
            } else if value.contains("/") {
                throw DocumentError("--set \(field.key): there is no file at \(value)")
            }
        }
        return paths
    }

    func run(store: DocumentStore, remembered: String?, clock: Questionnaire.Clock) -> Int32 {
        return ShellOutput.exitStatus {
            let target = try store.commandTarget(requested: doc, remembered: remembered, creating: true)
            let questionnaire = try store.commandQuestionnaire(for: target, changing: true)
            let unknown = unknownNames(in: questionnaire, documentName: target.name)
            guard unknown.isEmpty else {
                unknown.forEach(ShellOutput.error)
                return 2
            }
            if incomplete, questionnaire.form == nil {
                ShellOutput.error("--incomplete: “\(target.name)” has no designer's form, so every survey it takes is complete; nothing was added")
                return 1
            }
            var command = self
            let paths = try command.attachmentPaths(in: questionnaire)
            // As the form's [ Add ]: completed (defaults, calculations, the members
            // `repeat_count` asks for, metadata, the form's id and version), then judged.
            let arrival = Questionnaire.Arrival.keyed(started: clock.now, device: .current())
            var given = command.record(in: questionnaire, clock: clock)
            // Marked before the gate, which then waives only what an incomplete survey may lack.
            if incomplete { given.setIncomplete(true) }
            let check = questionnaire.checkImport([given], arriving: arrival, clock: clock)
            guard check.problems.isEmpty, let checked = check.records.first else {
                for problem in check.problems {
                    if problem.field == nil {
                        ShellOutput.error("Nothing to add: \(problem.reason)")
                    } else {
                        // The original five's messages name their field; a designer's may not.
                        ShellOutput.error(questionnaire.form == nil ? problem.reason : problem.withoutPlace)
                    }
                }
                return 1
            }
            // The attachments' files, copied only once every answer is accepted.
            var attached = checked
            for (key, path) in paths.sorted(by: { $0.key < $1.key }) {
                attached[key] = .string(try store.copyAttachment(from: path, for: target.name))
            }
            // A file stored under another name (one of that name was there): what reads it
            // is computed again.
            var record = attached == checked ? checked : questionnaire.stored(attached, arriving: arrival, clock: clock).record
            // Its id given here, not by the save: the entity it registers is named from it.
            if record.instanceID == nil { record[Record.instanceIDKey] = .string(Record.newInstanceID()) }
            // An update carries the entity as the list holds it now (ODK's baseVersion).
            var stamped = [record]
            _ = store.stampEntityBases(&stamped, changed: [(0, nil)], questionnaire: questionnaire, clock: clock)
            record = stamped[0]
            let count = try store.append([record], to: target, questionnaire: questionnaire, leftInPlaintext: ShellOutput.error)
            ShellOutput.line("Added survey \(count): \(questionnaire.title(of: record))"
                + (record.isIncomplete ? " (incomplete: … in the list; [ Finish ] in the app when it is done)" : ""))
            return EntitiesCommand.recordEntities(of: [record], in: store, questionnaire: questionnaire, clock: clock, stored: "The survey was added")
        }
    }
}

extension AddCommand: ReadsItsWords {
    static let name = "add"

    static let forms: [CommandSpec] = [
        CommandSpec(words: ["add"], synopsis: AddCommand.synopsis, arguments: [],
                    help: "append one survey: --set NAME=VALUE for each answer (NAME a question of the document's questionnaire: survey form show lists them; firstName, lastName, address, phone and age without one), or --first and --last with the other answer options. Every answer is checked as the form checks it, after the form computes its calculations and the members its repeat_count asks for, as [ Add ] does (its type; a questionnaire's required, constraint, relevant and choice_filter, in the designer's words, in every member too; without one, age a whole number from 0 to 150 or empty, text within its length, no control characters but tab and line breaks, which the form cannot type but XML keeps; blanks around text are dropped, and a survey with no answer is refused); all refusals are printed and nothing is saved. An image, audio, video or file question takes a path to a file, copied into NAME.media/ and stored by its file name; a location is typed “lat lon [alt [acc]]” (points separated by “;” for a geotrace or geoshape). A NAME the questionnaire does not ask is a usage error. Each option but --set may be given once"),
    ]

    static let options: [OptionSpec] = [
        OptionSpec(names: ["--set"], placeholder: "NAME=VALUE", completion: .none,
                   help: "with add: the answer VALUE to the question NAME of the document's questionnaire (survey form show lists them; firstName, lastName, address, phone and age without a form); repeat it for each answer",
                   repeatable: true) { $0.sets.append($1) },
        answer("--first", "X", "the first name"),
        answer("--last", "Y", "the last name"),
        answer("--address", "A", "the address"),
        answer("--phone", "P", "the phone number"),
        answer("--age", "N", "the age: a whole number from 0 to 150"),
        OptionSpec(names: ["--incomplete"], placeholder: nil, completion: .none,
                   help: "add: keep it as an incomplete survey (… in the list, finished in the app), as Ctrl-S keeps a New form: answers the form still lacks may wait, every answer given is judged") { options, _ in
            options.incomplete = true
        },
    ]

    func run(in context: CommandContext) -> Int32 { run(store: context.store, remembered: context.remembered, clock: context.clock) }

    var changesDocuments: Bool { true }

    /// A `survey add` answer: stored by flag, mapped to its field by `fieldFlags`.
    private static func answer(_ flag: String, _ placeholder: String, _ help: String) -> OptionSpec {
        OptionSpec(names: [flag], placeholder: placeholder, completion: .none, help: help + " (add)") { $0.answers[flag] = $1 }
    }
}
