import FoundationEssentials
import SurveyValues
import SurveyForms

/// What F4 says about the current document, made from the state in one place.
extension DocumentInfoView {
    /// The facts F4 shows for `state`, in order; a label of "" continues the one above. Pure,
    /// and apart from the drawing so that the counting (rule breaks, answers not asked) is
    /// can be tested as values, without drawing.
    static func facts(of state: AppState) -> [(String, String)] {
        let summary = state.documents.first { $0.name == state.documentName }
        let path = state.environment.documentFolder.isEmpty ? "\(state.documentName).plist"
            : state.environment.documentFolder.pathAppending("\(state.documentName).plist")
        var facts: [(String, String)] = [("Name", state.documentName), ("File", path)]
        if state.session.documentMissing {
            facts.append(("Status", (state.session.missingReason.map { "unreadable now (\($0))" }
                                     ?? "deleted or renamed outside survey") + "; records in memory only"))
        }
        if let error = state.session.loadError {
            facts.append(("Status", "cannot be read: \(error)"))
        } else {
            facts.append(("Records", "\(state.recordCount)" + (state.session.loading.map { " so far (loading… \($0.percent)%)" } ?? "")))
            // Interviews kept before they passed the form's rules (`AppState+Incomplete`).
            if let incomplete = state.incompleteCount, incomplete > 0 {
                facts.append(("Incomplete", counted(incomplete, "survey") + ", marked … in the list: open one, [ Finish ] when it is done"))
            }
            // Double entry (`survey verify`, `v`).
            if let log = state.session.verification, !log.chosen.isEmpty {
                let progress = log.progressBySurvey
                let partly = log.chosen.filter { progress[$0] == .partly }.count
                facts.append(("Verified", "\(log.finished.count) of \(counted(log.chosen.count, "chosen survey"))"
                    + (partly > 0 ? " (\(partly) partly)" : "") + ": v on the list verifies the next"))
            }
        }
        if let summary {
            facts.append(("Size", bytes(summary.byteSize)))
            if let date = summary.modified {
                facts.append(("Last saved", LocalTime.text(date, in: state.environment.timeZone, seconds: true)))
            }
        }
        facts += syncFacts(of: state)
        facts += historyFacts(of: state)
        // The document's form: the list's rules and stored surveys are its (a New form under
        // way may keep an older version, said below).
        let questionnaire = state.session.questionnaire
        if let trouble = state.session.formTrouble {
            facts.append(("Status", "read-only: " + trouble.remark(document: state.documentName)))
            switch trouble {
            case .errors(let file, let errors):
                facts.append(("Form", "\(file): \(counted(errors.count, "error"))"))
                facts += errors.enumerated().map { ($0.offset == 0 ? "Errors" : "", $0.element) }
            case .missing(let id):
                facts.append(("Form", "missing: the surveys were keyed with formID \(id)"))
            }
            facts.append(("Shown", "each answer as stored, under its name in the file"))
        } else if let form = questionnaire.form {
            facts.append(("Form", [form.title, form.formID.map { "id \($0)" }, form.version.map { "version \($0)" }]
                                    .compactMap { $0 }.joined(separator: ", ")))
            facts.append(("Questions", "\(questionnaire.fields.filter(\.kind.isAnswered).count)"
                          + (form.languages.count > 1 ? "; languages " + form.languages.joined(separator: ", ") + " (F7)" : "")))
            if let kept = state.form.draftForm {
                // A sync took this version while the New form was under way (issue 28).
                facts.append(("New form", "keeps " + (kept.form?.version.map { "version \($0)" } ?? "the form it was started with")
                              + " until it is added or cleared"))
            }
            if case .record = state.shown {
                // Answers this version does not ask of the survey (dropped, skipped by its
                // relevant, a choice it no longer offers): kept on every save, listed here.
                let extra = questionnaire.answersNotAsked(in: state.formRecord, clock: state.ruleClock)
                if let keyedWith = state.formRecord[Questionnaire.formVersionKey] {
                    facts.append(("Keyed with", "version " + FieldSpec.describe(keyedWith)))
                }
                if !extra.isEmpty {
                    facts.append(("Not in this form version",
                                  extra.map { "\($0): \(FieldSpec.describe(state.formRecord[$0]!))" }.joined(separator: "; ")
                                  + " (kept and exported; x clears them)"))
                }
            }
        } else {
            facts.append(("Form", "the original five fields"))
        }
        if state.session.formTrouble != nil {
            // No rules to count by: the form that has them cannot be used.
        } else if state.document != nil, questionnaire.form != nil {
            // Every rule of every survey, drawn each frame: counted up to a size where that
            // stays quick (2,000 surveys of a 30-question form is about 20 ms).
            if state.recordCount * questionnaire.fields.count <= 60_000 {
                // Each survey that breaks a rule, named with its first problem (the field and
                // why), so the keyer can find it: the first few, the list marks them all (`!`).
                var named: [String] = []
                var breaking = 0
                for record in state.records {
                    // An incomplete survey lacks answers by design: counted above, marked `…`.
                    guard !record.isIncomplete, let first = FormInstance(questionnaire, record: record, clock: state.ruleClock).problems().first else { continue }
                    breaking += 1
                    if named.count < 3 { named.append("“\(state.session.title(of: record, limit: 40))”: \(first.message)") }
                }
                facts.append(("Rule breaks", counted(breaking, "record") + " (answers the form refuses or lacks)"
                              + (breaking > 0 ? ", marked ⚠ in the list" : "")))
                facts += named.map { ("", $0) }
                if breaking > named.count { facts.append(("", "and \(counted(breaking - named.count, "more record"))")) }
            } else {
                facts.append(("Rule breaks", "not counted for a document this size (each survey is checked when edited, added or imported)"))
            }
        } else if state.document != nil {
            let ageField = questionnaire.field(forKey: "age")
            let noAge = ageField.map { f in state.records.filter { f.displayText($0[f.key]).isEmpty }.count } ?? 0
            let breaking = state.records.filter { r in
                questionnaire.fields.contains { !$0.accepts(r[$0.key]) }
            }.count
            facts.append(("No age", counted(noAge, "record")))
            facts.append(("Rule breaks", counted(breaking, "record") + " (values the form refuses)"))
        }
        return facts
    }

    /// The team's database: what is unsent, when the last sync was, what is in conflict, and
    /// the supervisor's verdict on the survey shown.
    static func syncFacts(of state: AppState) -> [(String, String)] {
        var facts: [(String, String)] = []
        let summary = state.session.sync
        // One person's document never synced: nothing to say (F1 lists F9).
        guard summary != nil || state.session.syncing != nil else { return [] }
        var line: [String] = []
        if state.session.syncing == state.documentName { line.append("syncing now") }
        if let last = summary?.lastSync {
            line.append("last " + LocalTime.text(last, in: state.environment.timeZone, seconds: false))
        } else {
            line.append("never synced (F9 syncs with the database SURVEY_DB names)")
        }
        if let summary {
            line.append(counted(summary.unsent, "change") + " not sent")
            if !summary.conflicts.isEmpty { line.append(counted(summary.conflicts.count, "conflict") + ": c shows them") }
        }
        facts.append(("Sync", line.joined(separator: "; ")))
        if let n = summary?.setAside, n > 0 { facts.append(("Set aside", counted(n, "survey") + " on the server this laptop cannot keep (survey sync names them)")) }
        if case .record(let i) = state.shown, let owner = state.session.othersOwner(of: state.records[i]) {
            facts.append(("Owner", SurveyOwner.possessive(owner) + ": read-only here"))
        }
        if case .record(let i) = state.shown, let id = state.records[i].instanceID, let review = summary?.reviews[id] {
            let words: String = switch review.state {
            case .approved: "approved"
            case .hasIssues: "has issues"
            case .rejected: "rejected"
            case .edited: "edited since review"
            }
            facts.append(("Review", words + (review.comment.map { ": “\($0)”" } ?? "")))
        }
        return facts
    }

    /// The shown survey's edit history (issue 31): what was changed in it here, the last three
    /// changes with who and when, and `survey history ID --local` for all of them.
    static func historyFacts(of state: AppState) -> [(String, String)] {
        guard case .record(let i) = state.shown, let id = state.records[i].instanceID,
              let edits = state.session.edits, edits.survey == id, !edits.entries.isEmpty else { return [] }
        var facts = [("History", counted(edits.entries.count, "change") + " made here (survey history ID --local lists them)")]
        for entry in edits.entries.suffix(3).reversed() {
            let what = entry.changes.prefix(2).map { change in
                "\(change.path) \(shortText(change.old)) → \(shortText(change.new))"
            }.joined(separator: ", ") + (entry.changes.count > 2 ? " (and \(entry.changes.count - 2) more)" : "")
            facts.append(("", LocalTime.text(entry.at, in: state.environment.timeZone, seconds: false) + " \(entry.by): " + what
                + (entry.reason.map { " (“\($0)”)" } ?? "")))
        }
        facts.append(("", "b brings it back as it was before the last one"))
        return facts
    }

    private static func shortText(_ value: PropertyValue?) -> String {
        guard value != nil else { return "—" }
        let text = ConflictListing.cellText(value, wholeSurvey: false)
        return text.count > 24 ? String(text.prefix(23)) + "…" : text
    }

    static func bytes(_ n: Int) -> String {
        n < 1024 ? counted(n, "byte") : String(printf: "%.1f KB (%d bytes)", Double(n) / 1024, n)
    }
}
