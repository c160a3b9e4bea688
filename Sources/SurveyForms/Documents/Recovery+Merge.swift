import FoundationEssentials
import SurveyValues

/// Putting kept surveys back into their document. A survey the document still has (by id)
/// is merged into it answer by answer (`AnswerMerge`, three ways against `Recovery.bases`,
/// the version both sides started from when a save clash kept it aside): an answer changed
/// only in the kept survey is taken, one changed only in the document stays, and one
/// changed in both keeps the document's (or, asked, the kept survey's) and is named, so
/// the person sees every answer that clashed. Any other kept survey (its document
/// vanished, or the survey was deleted since) goes back as a new survey. The form then
/// computes its calculations again in the surveys merged, as `survey merge` does.
///
/// Rejected: appending a kept survey the document still has as a new one (two surveys with
/// one id: refused, so a clash could only be thrown away), and recording the clashes as the
/// sync's conflicts (the ledger's bases and conflicts speak of the other laptop and the
/// server; a local clash there would be sent, or settled against the wrong base).
public struct RecoveryMerge: Equatable, Sendable {
    /// An answer both the document and the kept survey changed, differently.
    public struct Clash: Equatable, Sendable {
        /// The survey, as the document's list names it.
        public var survey: String
        /// The question's label (its path inside a roster, `member[2]/age`).
        public var field: String
        /// The document's answer and the kept survey's (nil: none).
        public var yours: PropertyValue?
        public var theirs: PropertyValue?
    }

    /// The document with the kept surveys in.
    public var document: SurveyDocument
    /// Kept surveys merged into one the document has, and those added as new surveys.
    public var merged: Int
    public var added: Int
    /// Answers taken from the kept surveys where the document had not changed them.
    public var taken: [String]
    public var clashes: [Clash]
    /// Whether the kept surveys' answers were taken where both changed.
    public var theirsWhereBothChanged: Bool
    /// The document's surveys as they were where a kept answer replaced one of theirs
    /// (`theirsWhereBothChanged`): kept in `.trash` so nothing is lost.
    public var replaced: [Record]

    /// One line saying what the merge did: the clashes named with the answer not kept.
    public func summary(into name: String) -> String {
        var parts: [String] = []
        if merged > 0 { parts.append("merged \(counted(merged, "kept survey")) into “\(name)”") }
        if added > 0 { parts.append("put \(counted(added, "survey")) back into “\(name)” as new") }
        var text = parts.joined(separator: ", ")
        text = text.prefix(1).uppercased() + text.dropFirst()
        if !taken.isEmpty { text += "; took theirs for \(Self.listed(taken))" }
        if !clashes.isEmpty {
            let shown = clashes.prefix(3).map { clash in
                let other = theirsWhereBothChanged ? clash.yours : clash.theirs
                return "\(clash.field) (\(theirsWhereBothChanged ? "yours" : "theirs") was \(ConflictListing.cellText(other, wholeSurvey: false)))"
            }
            let more = clashes.count > 3 ? " and \(clashes.count - 3) more" : ""
            text += theirsWhereBothChanged ? "; theirs where both changed: " : "; kept yours where both changed: "
            text += shown.joined(separator: ", ") + more + "; the other version is in .trash"
        }
        return text
    }

    private static func listed(_ names: [String]) -> String {
        var unique: [String] = []
        for name in names where !unique.contains(name) { unique.append(name) }
        return unique.prefix(4).joined(separator: ", ") + (unique.count > 4 ? " and \(unique.count - 4) more" : "")
    }
}

extension Recovery {
    /// `document` with these kept surveys put back (see `RecoveryMerge`). `questionnaire`
    /// is the document's: it names the surveys and fields and computes calculations.
    public func merge(into document: SurveyDocument, questionnaire: Questionnaire, theirsWhereBothChanged: Bool,
                      clock: Questionnaire.Clock) -> RecoveryMerge {
        var result = RecoveryMerge(document: document, merged: 0, added: 0, taken: [], clashes: [],
                                   theirsWhereBothChanged: theirsWhereBothChanged, replaced: [])
        var places: [String: Int] = [:]
        let wanted = Set(records.compactMap(\.instanceID))
        if !wanted.isEmpty {
            for (i, record) in document.records.enumerated() {
                if let id = record.instanceID, wanted.contains(id), places[id] == nil { places[id] = i }
            }
        }
        var added: [Record] = []
        for theirs in records {
            guard let id = theirs.instanceID, let place = places[id] else {
                added.append(theirs.withEmptyTextAnswers(in: questionnaire))
                continue
            }
            let mine = result.document.records[place]
            let base = bases[id]
            let outcome = AnswerMerge.merge(base: base?.values, mine: mine.values, theirs: theirs.values)
            // A calculation is the form's to compute from the answers now joined: no clash.
            let clashes = outcome.conflicts.filter { !questionnaire.isCalculation(at: $0.path) }
            var answers = PropertyValue.dictionary(outcome.answers)
            if theirsWhereBothChanged {
                for clash in clashes { _ = answers.setValue(clash.theirs, at: clash.path) }
                if !clashes.isEmpty { result.replaced.append(mine) }
            }
            guard case .dictionary(let values) = answers else { continue }
            let merged = questionnaire.settledAfterMerge(Record(values), before: mine, clock: clock)
            // What came in from the kept survey: answers that now differ from the document's,
            // but those that clashed (named below) and the form's calculations.
            let clashedKeys = Set(clashes.compactMap { clash -> String? in
                if case .key(let key)? = clash.path.steps.first { return key } else { return nil }
            })
            for key in Set(merged.keys).union(mine.keys).sorted()
            where key != Record.instanceIDKey && !clashedKeys.contains(key) && merged[key] != mine[key] {
                let path = SyncFieldPath([.key(key)])
                if !questionnaire.isCalculation(at: path) { result.taken.append(Self.label(path, in: questionnaire)) }
            }
            let title = questionnaire.title(of: merged)
            for clash in clashes {
                result.clashes.append(.init(survey: title, field: Self.label(clash.path, in: questionnaire),
                                            yours: clash.mine, theirs: clash.theirs))
            }
            result.document.records[place] = merged
            result.merged += 1
        }
        if !added.isEmpty {
            result.document.records += added
            result.added = added.count
        }
        return result
    }

    /// A field as the person knows it: its label at the top level, its path in a roster.
    static func label(_ path: SyncFieldPath, in questionnaire: Questionnaire) -> String {
        if path.steps.count == 1, case .key(let key) = path.steps[0] {
            return questionnaire.field(forKey: key)?.label ?? key
        }
        return path.description
    }
}
