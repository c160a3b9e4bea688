import FoundationEssentials
import SurveyValues
import SurveyForms
import SurveyStorage

/// `survey verify`: which surveys of a document are verified by double entry, as CSPro's
/// verification `frequency` and `start` choose them (every Nth survey from the Kth) or at
/// random (a percentage, the same surveys for the same seed: `VerificationChoice`). The
/// choice is added to the document's verification record (`.NAME.verify.plist`), with who
/// chose and when; the app's `v` then verifies them one after another. Without a choice it
/// lists the surveys chosen and how far each is verified.
struct VerifyCommand: Equatable {
    static let shape = "survey verify [--doc NAME] [--every N [--start K] | --random PERCENT --seed S]"

    var doc: String?
    var choice: VerificationChoice?

    init(_ options: CommandLineOptions, _ words: ArraySlice<String>) throws {
        try ShellCommands.expectNoArguments(words, shape: Self.shape)
        doc = options.doc
        switch (options.verifyEvery, options.verifyRandom) {
        case (let every?, nil):
            guard options.verifySeed == nil else { throw Self.usage("--seed goes with --random") }
            choice = .every(every, start: options.verifyStart ?? 1)
        case (nil, let percent?):
            guard options.verifyStart == nil else { throw Self.usage("--start goes with --every") }
            guard let seed = options.verifySeed else {
                throw Self.usage("--random needs --seed S, so that the same surveys can be chosen again")
            }
            choice = .random(percent: percent, seed: seed)
        case (nil, nil):
            if options.verifyStart != nil { throw Self.usage("--start goes with --every") }
            if options.verifySeed != nil { throw Self.usage("--seed goes with --random") }
        case (_?, _?):
            throw Self.usage("choose by --every or by --random, not both")
        }
    }

    private static func usage(_ reason: String) -> CommandLineOptions.UsageError {
        CommandLineOptions.UsageError(description: "\(reason): \(shape)")
    }

    func run(store: DocumentStore, remembered: String?) -> Int32 {
        return ShellOutput.exitStatus {
            let target = try store.commandTarget(requested: doc, remembered: remembered, creating: false)
            let questionnaire = try store.commandQuestionnaire(for: target, changing: choice != nil)
            let document = try store.load(target.name).get()
            var log = try store.verificationLog(for: target.name)
            if let choice {
                // Complete surveys with an id, in entry order: an incomplete one is not keyed yet,
                // and an encrypted one cannot be read here to be keyed again.
                let candidates = document.records.filter { !$0.isIncomplete && !$0.isSealed }.compactMap(\.instanceID)
                let picked = choice.choose(candidates)
                let already = Set(log.chosen)
                let new = picked.filter { !already.contains($0) }
                let who = DeviceMetadata.current().username
                let now = Date()
                let entries = new.map { VerificationEntry(kind: .chosen, survey: $0, login: who, date: now) }
                try store.appendVerification(entries, for: target.name)
                log.append(entries)
                ShellOutput.line("Chose \(counted(new.count, "survey")) of \(candidates.count) for verification"
                    + (picked.count > new.count ? " (\(picked.count - new.count) more already chosen)" : ""))
            }
            let lines = Self.lines(log, document: document, questionnaire: questionnaire)
            if lines.count == 1 {
                ShellOutput.line("No survey of “\(target.name)” is chosen for verification: "
                    + "choose with --every N [--start K] or --random PERCENT --seed S")
            } else {
                lines.forEach(ShellOutput.line)
            }
            return 0
        }
    }

    /// The chosen surveys in entry order: number, name, id, how far verified. Surveys no
    /// longer in the document (deleted since) are left out.
    static func lines(_ log: VerificationLog, document: SurveyDocument, questionnaire: Questionnaire) -> [String] {
        let chosen = Set(log.chosen)
        let (progressBySurvey, settled) = (log.progressBySurvey, log.settledBySurvey)
        var rows = [["#", "Survey", "Id", "Verification"]]
        for (i, record) in document.records.enumerated() {
            guard let id = record.instanceID, chosen.contains(id) else { continue }
            let progress = progressBySurvey[id] ?? .waiting
            let state = progress == .partly ? "partly verified (\(counted(settled[id]?.count ?? 0, "question")))" : progress.rawValue
            rows.append([String(i + 1), TextTable.cut(questionnaire.title(of: record)), id, state])
        }
        return TextTable.lines(rows)
    }
}

extension VerifyCommand: ReadsItsWords {
    static let name = "verify"

    static let forms: [CommandSpec] = [
        CommandSpec(words: ["verify"], synopsis: "[--doc NAME] [--every N [--start K] | --random PERCENT --seed S]", arguments: [],
                    help: "choose surveys to verify by double entry (every Nth from the Kth, as CSPro's frequency and start, or a percentage at random, the same for the same seed), then list those chosen and how far each is verified; v in the app verifies them"),
    ]

    static let options: [OptionSpec] = [
        OptionSpec(names: ["--every"], placeholder: "N", completion: .none,
                   help: "verify: every Nth survey, in entry order") { options, text in
            guard let n = Int(text), n >= 1 else {
                throw CommandLineOptions.UsageError(description: "--every takes a whole number from 1, got “\(text)”")
            }
            options.verifyEvery = n
        },
        OptionSpec(names: ["--start"], placeholder: "K", completion: .none,
                   help: "verify --every: the first survey chosen (counted from 1; default 1)") { options, text in
            guard let k = Int(text), k >= 1 else {
                throw CommandLineOptions.UsageError(description: "--start takes a survey number from 1, got “\(text)”")
            }
            options.verifyStart = k
        },
        OptionSpec(names: ["--random"], placeholder: "PERCENT", completion: .none,
                   help: "verify: about PERCENT of the surveys (0 to 100), chosen at random by --seed") { options, text in
            guard let p = Double(text.hasSuffix("%") ? String(text.dropLast()) : text), p >= 0, p <= 100 else {
                throw CommandLineOptions.UsageError(description: "--random takes a percentage from 0 to 100, got “\(text)”")
            }
            options.verifyRandom = p
        },
        OptionSpec(names: ["--seed"], placeholder: "S", completion: .none,
                   help: "verify --random: the seed (a whole number); the same seed chooses the same surveys") { options, text in
            guard let s = UInt64(text) else {
                throw CommandLineOptions.UsageError(description: "--seed takes a whole number from 0, got “\(text)”")
            }
            options.verifySeed = s
        },
    ]

    func run(in context: CommandContext) -> Int32 { run(store: context.store, remembered: context.remembered) }

    var changesDocuments: Bool { choice != nil }
}
