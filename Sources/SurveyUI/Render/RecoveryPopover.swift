import FoundationEssentials
import SurveyValues
import SurveyForms

/// "Surveys were kept for you": kept surveys offered back, at the start or as soon as a save
/// clash kept another program's version aside. It says whose they are, how many, when, and
/// names the first few; for a clash on the open document it also shows, before anything is
/// chosen, which answers a merge takes from them and which both sides changed (yours and
/// theirs), so the choice is an informed one and no clashing answer goes unseen.
struct RecoveryPopover {
    let recovery: Recovery
    let timeZone: TimeZoneRule
    /// What `m` would do to the open document (nil: the surveys belong to another one).
    let preview: RecoveryMerge?

    static func make(_ recovery: Recovery, from state: AppState) -> RecoveryPopover {
        var preview: RecoveryMerge?
        if recovery.keptFromClash, recovery.documentName == state.documentName, let document = state.document {
            preview = recovery.merge(into: document, questionnaire: state.questionnaire, theirsWhereBothChanged: false,
                                     clock: state.ruleClock)
        }
        return RecoveryPopover(recovery: recovery, timeZone: state.environment.timeZone, preview: preview)
    }

    func draw(into grid: inout CellGrid, layout: Layout) {
        let titles = recovery.records.prefix(3).map { recovery.questionnaire.title(of: $0) }
        let more = recovery.records.count > 3 ? ", …" : ""
        let count = counted(recovery.records.count, "survey")
        let when = LocalTime.text(recovery.date, in: timeZone)
        var lines: [String]
        if recovery.keptFromClash {
            lines = ["Another program's version of \(count) of “\(recovery.documentName)”, kept aside on \(when) (you had changed the same answers):",
                     titles.joined(separator: "; ") + more]
            if let preview {
                for clash in preview.clashes.prefix(3) {
                    lines.append("\(clash.field): yours \(ConflictListing.cellText(clash.yours, wholeSurvey: false)), theirs \(ConflictListing.cellText(clash.theirs, wholeSurvey: false))")
                }
                if preview.clashes.count > 3 { lines.append("and \(preview.clashes.count - 3) more answers both changed") }
                if !preview.taken.isEmpty { lines.append("Only theirs changed: " + preview.taken.prefix(4).joined(separator: ", ")) }
            }
            lines += ["", "m merges them into “\(recovery.documentName)” (yours where both changed), t takes theirs there, d moves them to .trash, Esc asks again at the next start."]
        } else {
            lines = ["\(count) of “\(recovery.documentName)” kept on \(when), unsaved:",
                     titles.joined(separator: "; ") + more, "",
                     "m puts them back into “\(recovery.documentName)” (merged into any survey it still has), d moves them to .trash, Esc asks again at the next start."]
        }
        drawDialog(title: "Recovered surveys", lines: lines, into: &grid, layout: layout)
    }
}
