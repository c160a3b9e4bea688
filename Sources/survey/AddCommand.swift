import Foundation
import SurveyModel

/// `survey add`: one survey from flags, judged by the form's rules, appended in one atomic
/// save. Every refusal is printed at once, so a script's author fixes them in one go.
struct AddCommand: Equatable {
    static let shape = "survey add [--doc NAME] --first X --last Y [--address A] [--phone P] [--age N]"

    /// Flag → questionnaire key. Flags rather than `key=value` words: the shell completes
    /// them, and a value can never be mistaken for a field name.
    static let fieldFlags = [
        "--first": "firstName", "--last": "lastName", "--address": "address", "--phone": "phone", "--age": "age",
    ]

    var doc: String?
    /// Keyed by questionnaire key.
    var answers: [String: String]

    init(_ options: CommandLineOptions, _ words: ArraySlice<String>) throws {
        try Command.expectNoArguments(words, shape: Self.shape)
        guard options.answers["--first"] != nil, options.answers["--last"] != nil else {
            throw CommandLineOptions.UsageError(description: "survey add needs --first and --last: \(Self.shape)")
        }
        doc = options.doc
        answers = Dictionary(uniqueKeysWithValues: options.answers.compactMap { flag, value in
            Self.fieldFlags[flag].map { ($0, value) }
        })
    }

    /// The record as the form would build it: every field given as typed text, a field
    /// without a flag as empty text (so text fields hold "" and there is no age).
    func record(in questionnaire: Questionnaire) -> Record {
        Record(Dictionary(uniqueKeysWithValues: questionnaire.fields.map {
            ($0.key, PropertyValue.string(answers[$0.key] ?? ""))
        }))
    }

    func run(store: DocumentStore, remembered: String?) -> Int32 {
        let check = Questionnaire.standard.checkImport([record(in: .standard)])
        guard check.problems.isEmpty, let record = check.records.first else {
            for problem in check.problems {
                ShellOutput.error(problem.field == nil ? "Nothing to add: \(problem.reason)" : problem.reason)
            }
            return 1
        }
        do {
            let target = try store.commandTarget(requested: doc, remembered: remembered, creating: true)
            let count = try store.append([record], to: target)
            ShellOutput.line("Added survey \(count): \(record.listTitle)")
            return 0
        } catch {
            ShellOutput.error("\(error)")
            return 1
        }
    }
}
