import FoundationEssentials
import SurveyValues
import SurveyForms
import SurveyStorage
import SurveyDatabase

/// `survey history ID [--format table|json] [--db URL]`: every version of a survey the team's
/// PostgreSQL keeps (issue 31, edit history), oldest first: its revision, when, by whom,
/// deleted or not, and what it changed from the version before, answer by answer (a roster's
/// members by path, `member[2]/age`), old → new. ID is the survey's id or any of its
/// versions' (`uuid:…~3`, `SurveyVersion`). `--format json` gives ODK Central's shapes: each
/// version as Central's `/versions` lists it, with the changes that made it as Central's
/// `/diffs` gives them (`{"new", "old", "path"}`).
///
/// Read a page of versions at a time and written as it goes: a survey edited ten thousand
/// times is never held whole.
struct HistoryCommand: Equatable {
    static let shape = "survey history ID [--format table|json] [--db URL]"
    static let page = 100

    var id: String
    var format: DataFormat
    var db: String?
    /// `--local`: this laptop's edit history of the survey (`.NAME.history.jsonl`).
    var local = false
    var doc: String?
    /// `--bring-back N`: the revision whose answers become the survey's again, as a new edit.
    var bringBack: Int64?
    /// `--reason TEXT`: why (asked when the form says `track-changes-reasons`, or the survey
    /// was approved).
    var reason: String?

    init(_ options: CommandLineOptions, _ words: ArraySlice<String>) throws {
        id = try ShellCommands.onlyID(words, shape: Self.shape)
        format = try DataFormat.parse(options.format, allowed: [.table, .json], command: "history") ?? .table
        db = options.db
        local = options.localHistory
        doc = options.doc
        if local, db != nil {
            throw CommandLineOptions.UsageError(description: "--local reads this laptop's history: no --db")
        }
        if let text = options.bringBack {
            guard let revision = Int64(text), revision >= 1 else {
                throw CommandLineOptions.UsageError(description: "--bring-back takes a revision number (survey history ID lists them), not \(text)")
            }
            guard !local else {
                throw CommandLineOptions.UsageError(description: "--bring-back takes a version the team's server keeps: no --local")
            }
            bringBack = revision
        }
        reason = options.reason?.trimmingWhitespace()
        if reason != nil, bringBack == nil {
            throw CommandLineOptions.UsageError(description: "--reason says why a version is brought back: with --bring-back N")
        }
    }

    /// `--bring-back N`: the survey's answers here set to revision N's, noted in this laptop's
    /// edit history with why; the next sync sends them as a new version (ODK Central's model:
    /// nothing is overwritten on the server). Refused, with nothing changed, for a version
    /// that cannot be read here or is the survey deleted, a survey that is not here, another
    /// enumerator's, in conflict, or already as that version; and without `--reason` when the
    /// form asks why (`track-changes-reasons`) or a supervisor approved the survey.
    func runBringBack(_ revision: Int64, store: DocumentStore, remembered: String?, environment: [String: String]) -> Int32 {
        let target: DocumentTarget
        let questionnaire: Questionnaire
        do {
            target = try store.commandTarget(requested: doc, remembered: remembered, creating: false)
            questionnaire = try store.commandQuestionnaire(for: target, changing: true)
        } catch {
            ShellOutput.failure(error)
            return 1
        }
        guard case .existing(let name) = target else { return 1 }
        return ServerSession.run(db: db, environment: environment, id: id) { server, where_ in
            guard let root = try server.surveyNamed(id) else {
                ShellOutput.error("\(id): no such survey on \(where_.shown)")
                return 1
            }
            guard let version = try server.versions(of: root, after: revision - 1, limit: 1).first, version.revision == revision else {
                ShellOutput.error("\(root) has no revision \(revision) on \(where_.shown) (survey history \(root) lists those kept)")
                return 1
            }
            if let problem = version.unreadable {
                ShellOutput.error("revision \(revision) of \(root) is not brought back: its answers cannot be read here (\(problem))")
                return 1
            }
            if version.deleted {
                ShellOutput.error("revision \(revision) of \(root) is the survey deleted: survey delete \(root) does that")
                return 1
            }
            let approved = try server.review(of: root)?.state == .approved
            let formAsks = AuditSettings(form: questionnaire.form)?.changeReasons == true
            if reason?.isEmpty ?? true, approved || formAsks {
                ShellOutput.error("say why with --reason TEXT: " + (approved ? "a supervisor approved \(root)" : "the form asks why a stored survey is changed")
                    + "; nothing changed")
                return 1
            }
            let brought = try store.bringBack(version.answers, of: root, in: name)
            let changes = brought.changes
            guard !changes.isEmpty else {
                ShellOutput.line("\(root) in “\(name)” already holds the answers of revision \(revision): nothing changed")
                return 0
            }
            let why = "brought back revision \(revision)" + (reason.map { $0.isEmpty ? "" : ": \($0)" } ?? "")
            let entry = EditHistoryEntry(survey: root, at: Date(), by: DeviceMetadata.current(environment: environment).username,
                                         changes: changes, reason: why)
            do {
                try store.appendHistory([entry], for: name)
            } catch {
                ShellOutput.error("warning: the edit history of “\(name)” could not note it: \(error)")
            }
            ShellOutput.line("Brought back revision \(revision) of \(questionnaire.title(of: brought.after)) (\(root)) in “\(name)”: "
                + counted(changes.count, "answer") + " changed; survey sync sends it as a new version")
            return 0
        }
    }

    /// `--local`: every change made on this laptop to the survey, oldest first: when, by which
    /// login, why when the form asked, and each answer old → new.
    func runLocal(store: DocumentStore, remembered: String?) -> Int32 {
        do {
            let target = try store.commandTarget(requested: doc, remembered: remembered, creating: false)
            let (entries, unreadable) = try store.editHistory(for: target.name, survey: id)
            if format == .json {
                let list = PropertyValue.array(entries.map { entry in
                    var object: [String: PropertyValue] = [
                        "instanceId": .string(entry.survey), "submitter": .string(entry.by),
                        "createdAt": .string(CivilTime.iso8601(entry.at)),
                        "diff": .array(entry.changes.map { change in
                            var item: [String: PropertyValue] = ["path": .string(change.path.description)]
                            if let old = change.old { item["old"] = old }
                            if let new = change.new { item["new"] = new }
                            return .dictionary(item)
                        }),
                    ]
                    if let reason = entry.reason { object["reason"] = .string(reason) }
                    return .dictionary(object)
                })
                StandardOutput.write(list.jsonText() + "\n")
            } else if entries.isEmpty {
                ShellOutput.line("No change of \(id) made here in “\(target.name)” is recorded (changes are kept from the first one made after this version of survey)")
            } else {
                for entry in entries {
                    let time = CivilTime(entry.at, in: .current)
                    ShellOutput.line("\(time.dayText) \(time.secondText), by \(entry.by)" + (entry.reason.map { ": “\($0)”" } ?? ""))
                    for change in entry.changes {
                        ShellOutput.line("  \(change.path): \(Writer.cell(change.old)) → \(Writer.cell(change.new))")
                    }
                }
            }
            if unreadable > 0 { ShellOutput.error("warning: \(counted(unreadable, "line")) of the history could not be read and were passed over") }
            return 0
        } catch let error as DocumentError {
            ShellOutput.error(error.message)
            return 1
        } catch {
            ShellOutput.error("\(error)")
            return 1
        }
    }

    func run(environment: [String: String]) -> Int32 {
        ServerSession.run(db: db, environment: environment, id: id) { server, target in
            guard let root = try server.surveyNamed(id) else {
                ShellOutput.error("\(id): no such survey on \(target.shown)")
                return 1
            }
            var writer = Writer(format: format, root: root, asked: id)
            // The version the supervisor saw (the last one made by the time of the review), and
            // the newest: what changed since the review is between them (issue 31, send-back).
            let review = format == .table ? try server.review(of: root) : nil
            var reviewed: SurveyVersion?
            var newest: SurveyVersion?
            var after: Int64 = 0
            while true {
                let versions = try server.versions(of: root, after: after, limit: Self.page)
                for version in versions {
                    writer.write(version)
                    if let at = review?.at, version.at <= at { reviewed = version }
                    newest = version
                }
                guard versions.count == Self.page, let last = versions.last?.revision else { break }
                after = last
            }
            writer.finish()
            if let review { Self.reviewLines(review, reviewed: reviewed, newest: newest).forEach(ShellOutput.line) }
            return 0
        }
    }

    /// `reviewed has-issues by sofia, 2026-12-05 10:00:00, on revision 2: “age missing”`, then
    /// what changed since, from that revision to the newest (a supervisor checking a fix).
    static func reviewLines(_ review: SurveyServer.ReviewStamp, reviewed: SurveyVersion?, newest: SurveyVersion?) -> [String] {
        // A fix since replaced the verdict with `edited` (ODK Central's states): the words stay.
        var line = review.state == .edited ? "reviewed" : "reviewed " + (review.state == .hasIssues ? "has-issues" : review.state.rawValue)
        if let by = review.by { line += " by \(by)" }
        if let at = review.at {
            let time = CivilTime(at, in: .current)
            line += ", \(time.dayText) \(time.secondText)"
        }
        if let reviewed { line += ", on revision \(reviewed.revision)" }
        if let comment = review.comment { line += ": “\(comment)”" }
        if review.state == .edited { line += "; edited since, waiting for a review" }
        var lines = [line]
        guard let reviewed, let newest else { return lines }
        if newest.revision == reviewed.revision {
            lines.append("no change since the review")
        } else if reviewed.unreadable != nil || newest.unreadable != nil {
            lines.append("since the review (revision \(reviewed.revision) → \(newest.revision)): the changes cannot be told here")
        } else {
            lines.append("since the review (revision \(reviewed.revision) → \(newest.revision)):")
            let changes = AnswerChanges.between(reviewed.answers, newest.answers)
            if changes.isEmpty { lines.append("  (no answer changed)") }
            for change in changes {
                lines.append("  \(change.path): \(Writer.cell(change.old)) → \(Writer.cell(change.new))")
            }
        }
        return lines
    }

    /// Writes the versions as they come, each against the one before it.
    struct Writer {
        let format: DataFormat
        let root: String
        let asked: String
        private var previous: SurveyVersion?
        private var count = 0

        init(format: DataFormat, root: String, asked: String) {
            self.format = format
            self.root = root
            self.asked = asked
        }

        mutating func write(_ version: SurveyVersion) {
            if format == .json {
                StandardOutput.write((count == 0 ? "{\n  \"instanceId\": \(PropertyValue.string(root).jsonText()),\n  \"versions\": [\n" : ",\n")
                                     + "    " + Self.json(version, after: previous).jsonText(indent: "    "))
            } else {
                if count == 0 { lead(version) }
                Self.lines(version, after: previous).forEach(ShellOutput.line)
            }
            previous = version
            count += 1
        }

        func finish() {
            guard format == .json else { return }
            // No version at all (the survey went between two questions): an empty list.
            StandardOutput.write(count == 0 ? "{\n  \"instanceId\": \(PropertyValue.string(root).jsonText()),\n  \"versions\": []\n}\n" : "\n  ]\n}\n")
        }

        /// What the table says before the first version: which survey a version's id named,
        /// and the versions replaced before the server kept them.
        private func lead(_ first: SurveyVersion) {
            if asked != root { ShellOutput.line("\(asked) is a version of \(root)") }
            if first.revision > 1 {
                let replaced = first.revision == 2 ? "revision 1 was" : "revisions 1 to \(first.revision - 1) were"
                ShellOutput.line("\(replaced) replaced before the server kept versions (schema version 6, survey db init)")
            }
        }

        /// `revision 2, 2024-05-01 10:02:40, by ana on laptop-1, deleted (current)`, then each
        /// change from `before`, indented.
        static func lines(_ version: SurveyVersion, after before: SurveyVersion?) -> [String] {
            let time = CivilTime(version.at, in: .current)
            var heading = "revision \(version.revision), \(time.dayText) \(time.secondText), by \(version.by)"
            if let device = version.device { heading += " on \(device)" }
            if before == nil || before?.formID != version.formID || before?.formVersion != version.formVersion {
                heading += ", form \(version.formID ?? "-") version \(version.formVersion ?? "-")"
            }
            if version.deleted != (before?.deleted ?? false) { heading += version.deleted ? ", deleted" : ", undeleted" }
            if version.isCurrent { heading += " (current)" }
            if let reason = version.reason { heading += ": “\(TextTable.cut(reason.replacingEvery("\n", with: " "), to: 200))”" }
            var lines = [heading]
            if let problem = version.unreadable {
                lines.append("  its answers cannot be read here: \(problem)")
            } else if let before {
                if before.unreadable != nil {
                    lines.append("  (its changes cannot be told: the version before cannot be read here)")
                } else {
                    let changes = AnswerChanges.between(before.answers, version.answers)
                    if changes.isEmpty { lines.append("  (no answer changed)") }
                    for change in changes {
                        lines.append("  \(change.path): \(cell(change.old)) → \(cell(change.new))")
                    }
                }
            }
            return lines
        }

        /// A value on one line, cut at 60 characters; "-" where there was none.
        static func cell(_ value: PropertyValue?) -> String {
            TextTable.cut(ConflictListing.cellText(value, wholeSurvey: false), to: 60)
        }

        /// A version as ODK Central's `/versions` lists one (`instanceId`, `submitter`,
        /// `deviceId`, `createdAt`, `current`, `formVersion`), with survey's `revision`,
        /// `deprecatedId`, `deleted` and `formId`, and `diff`: the changes that made it, as
        /// Central's `/diffs` gives them, the version's `meta/instanceID` and
        /// `meta/deprecatedID` among them. No `diff` for the first version kept, nor where a
        /// side cannot be read here (`unreadable` says why).
        static func json(_ version: SurveyVersion, after before: SurveyVersion?) -> PropertyValue {
            var object: [String: PropertyValue] = [
                "instanceId": .string(version.versionID), "revision": .integer(Int(version.revision)),
                "current": .bool(version.isCurrent), "submitter": .string(version.by),
                "createdAt": .string(CivilTime.iso8601(version.at)), "deleted": .bool(version.deleted),
            ]
            object["deprecatedId"] = version.deprecatedID.map(PropertyValue.string)
            object["deviceId"] = version.device.map(PropertyValue.string)
            object["formId"] = version.formID.map(PropertyValue.string)
            object["formVersion"] = version.formVersion.map(PropertyValue.string)
            object["unreadable"] = version.unreadable.map(PropertyValue.string)
            object["reason"] = version.reason.map(PropertyValue.string)
            if let before, before.unreadable == nil, version.unreadable == nil {
                var changes = AnswerChanges.between(before.answers, version.answers).map { change in
                    centralChange(path: centralPath(change.path), old: change.old, new: change.new)
                }
                changes.append(centralChange(path: [.string("meta"), .string("instanceID")],
                                             old: .string(before.versionID), new: .string(version.versionID)))
                changes.append(centralChange(path: [.string("meta"), .string("deprecatedID")],
                                             old: before.deprecatedID.map(PropertyValue.string),
                                             new: version.deprecatedID.map(PropertyValue.string)))
                object["diff"] = .array(changes)
            }
            return .dictionary(object)
        }

        /// `{"new": …, "old": …, "path": […]}`; a side that did not hold it is left out, as
        /// Central leaves it out.
        private static func centralChange(path: [PropertyValue], old: PropertyValue?, new: PropertyValue?) -> PropertyValue {
            var change: [String: PropertyValue] = ["path": .array(path)]
            change["old"] = old
            change["new"] = new
            return .dictionary(change)
        }

        /// Central's path: names, and a repeat's instance as `[name, place from 0]`
        /// (`member[2]/age` is `[["member", 1], "age"]`).
        static func centralPath(_ path: SyncFieldPath) -> [PropertyValue] {
            var out: [PropertyValue] = []
            var name = ""
            for step in path.steps {
                switch step {
                case .key(let key):
                    name = key
                    out.append(.string(key))
                case .index(let place):
                    if case .string(let last)? = out.last, last == name { out.removeLast() }
                    out.append(.array([.string(name), .integer(place)]))
                }
            }
            return out
        }
    }
}

extension HistoryCommand: ReadsItsWords {
    static let name = "history"

    static let forms: [CommandSpec] = [
        CommandSpec(words: ["history"], synopsis: "ID [--format table|json] [--db URL]", arguments: [.none],
                    help: "every version of a survey the team's PostgreSQL keeps, oldest first: when, by whom, and what each changed (members by path), old → new; ID is the survey's or a version's (ID~3); json in ODK Central's diff shape"),
        CommandSpec(words: ["history"], synopsis: "ID --local [--doc NAME] [--format table|json]", arguments: [.none],
                    help: "every change made on this laptop to a stored survey, oldest first: when, by which login, why when the form asked, each answer old → new"),
        CommandSpec(words: ["history"], synopsis: "ID --bring-back N [--reason TEXT] [--doc NAME] [--db URL]", arguments: [.none],
                    help: "set the survey's answers here to those of its revision N on the team's server, noted in this laptop's history; the next sync sends them as a new version (a reason is needed when the form asks why or a supervisor approved it)"),
    ]

    static let options: [OptionSpec] = [.format] + DatabaseCommand.options + [
        OptionSpec(names: ["--local"], placeholder: nil, completion: .none,
                   help: "history: this laptop's edit history of the survey, not the server's versions") { options, _ in
            options.localHistory = true
        },
        OptionSpec(names: ["--bring-back"], placeholder: "N", completion: .none,
                   help: "history: the revision whose answers the survey takes again, as a new edit") { options, value in
            options.bringBack = value
        },
        OptionSpec(names: ["--reason"], placeholder: "TEXT", completion: .none,
                   help: "history --bring-back: why, kept in the edit history") { options, value in
            options.reason = value
        },
    ]

    func run(in context: CommandContext) -> Int32 {
        let environment = ProcessInfo.processInfo.environment
        if let bringBack { return runBringBack(bringBack, store: context.store, remembered: context.remembered, environment: environment) }
        return local ? runLocal(store: context.store, remembered: context.remembered) : run(environment: environment)
    }

    var changesDocuments: Bool { bringBack != nil }
}
