import FoundationEssentials
import SurveyValues
import SurveyForms
import SurveyStorage

/// `survey merge FILE…`: another laptop's copy of the document (from a USB stick) merged
/// into this one by the sync's rules (`SyncPlan`): its companions beside it, when there,
/// give the common versions and the deletes. The FILEs are only read.
struct MergeCommand: Equatable {
    static let shape = "survey merge FILE... [--doc NAME] [--dry-run]"

    var files: [String]
    var doc: String?
    var dryRun: Bool

    init(_ options: CommandLineOptions, _ words: ArraySlice<String>) throws {
        guard !words.isEmpty else {
            throw CommandLineOptions.UsageError(description: "missing file: \(Self.shape)")
        }
        files = Array(words)
        doc = options.doc
        dryRun = options.dryRun
    }

    func run(store: DocumentStore, remembered: String?, at date: Date) -> Int32 {
        return ShellOutput.exitStatus {
            let target = try store.commandTarget(requested: doc, remembered: remembered, creating: false)
            let urls = files.map { URL(fileURLWithPath: $0) }
            // The form computes the calculations of the surveys merged from both sides; a
            // form that cannot be used leaves them as merged (and says so).
            let form = store.documentForm(for: target.name)
            let events: [SyncEvent], written: Bool
            let entityConflictsBefore = dryRun ? [:] : EntitiesCommand.conflictCounts(in: store)
            do {
                (events, written) = try store.mergeOtherCopies(urls, into: target.name, write: !dryRun,
                                                               questionnaire: form.trouble == nil ? form.questionnaire : nil, at: date)
            } catch let partly as MergedButEntityListsNot {
                // The surveys are merged; only the lists they change could not be written.
                for event in partly.events { ShellOutput.line(Self.line(event, would: false)) }
                ShellOutput.error("Merged into “\(target.name)”, but the entity lists were not updated: \(partly.reason)"
                    + "; once that is fixed, survey entities --rebuild writes them again")
                return 1
            }
            if let trouble = form.trouble, events.contains(where: { $0.kind == .merged || $0.kind == .conflicted }) {
                ShellOutput.error("note: \(trouble.remark(document: target.name)); the calculations of the surveys merged "
                    + "were not computed again")
            }
            let would = dryRun ? "would be " : ""
            for event in events { ShellOutput.line(Self.line(event, would: dryRun)) }
            let from = files.count == 1 ? files[0] : "\(files.count) files"
            let counts = Self.counts(events)
            if dryRun {
                ShellOutput.line("Dry run: merging \(from) into “\(target.name)”: "
                    + (counts.isEmpty ? "nothing would change" : counts.map { would + $0 }.joined(separator: ", "))
                    + "; nothing was written")
            } else if !written {
                ShellOutput.line("“\(target.name)” already has everything in \(from): nothing changed")
            } else {
                let conflicted = events.contains { $0.kind == .conflicted }
                ShellOutput.line("Merged \(from) into “\(target.name)”: "
                    + (counts.isEmpty ? "the common versions recorded" : counts.joined(separator: ", "))
                    + (conflicted ? " (survey conflicts lists them)" : ""))
                // Visits merged in that changed a household's property differently from here.
                for (list, count) in EntitiesCommand.conflictCounts(in: store).sorted(by: { $0.key < $1.key })
                where count > entityConflictsBefore[list, default: 0] {
                    ShellOutput.line("\(list).csv: \(counted(count - entityConflictsBefore[list, default: 0], "new entity conflict")) "
                        + "(survey entities --list \(list))")
                }
            }
            return 0
        }
    }

    static func line(_ event: SyncEvent, would: Bool) -> String {
        let verb: String
        switch event.kind {
        case .added: verb = "add"
        case .fastForwarded: verb = "update"
        case .merged: verb = "merge"
        case .conflicted: verb = "conflict"
        case .deleted: verb = "delete"
        case .agreed: verb = "same"
        case .reviewed: verb = "review"
        }
        let fields = event.fields.isEmpty ? "" : "  " + event.fields.map(\.description).joined(separator: ", ")
        return verb + String(repeating: " ", count: max(1, 10 - verb.count)) + event.id + fields
    }

    /// "1 added, 2 updated, …", leaving out what did not happen.
    static func counts(_ events: [SyncEvent]) -> [String] {
        let named: [(SyncEvent.Kind, String)] = [(.added, "added"), (.fastForwarded, "updated"), (.merged, "merged"),
                                                 (.conflicted, "in conflict"), (.deleted, "deleted")]
        return named.compactMap { kind, word in
            let count = events.filter { $0.kind == kind }.count
            return count == 0 ? nil : "\(count) \(word)"
        }
    }
}

extension MergeCommand: ReadsItsWords {
    static let name = "merge"

    static let forms: [CommandSpec] = [
        CommandSpec(words: ["merge"], synopsis: "FILE... [--doc NAME] [--dry-run]", arguments: [.file],
                    help: "merge another laptop's copy of the document (a .plist, with its .FILE.sync.plist, .FILE.sync-journal and .FILE.deleted.plist when beside it): one-sided changes are taken, clashes kept for survey conflicts; a survey merged from both sides gets the form's calculations (a clash on a calculation is settled by the form); FILE is only read"),
    ]

    static let options: [OptionSpec] = [
        OptionSpec(names: ["--dry-run"], placeholder: nil, completion: .none,
                   help: "merge: print what would happen, write nothing") { options, _ in options.dryRun = true },
    ]

    func run(in context: CommandContext) -> Int32 { run(store: context.store, remembered: context.remembered, at: context.clock.now) }

    var changesDocuments: Bool { true }
}
