import FoundationEssentials
import SurveyModel

/// "Surveys were kept for you": shown at start when an earlier session had to stop with
/// surveys it could not save. It says whose they are, how many, when, and names the first
/// few, so the choice to put them back or discard them is an informed one.
struct RecoveryPopover {
    let recovery: Recovery
    let timeZone: TimeZoneRule

    func draw(into grid: inout CellGrid, layout: Layout) {
        let titles = recovery.records.prefix(3).map { recovery.questionnaire.title(of: $0) }
        let more = recovery.records.count > 3 ? ", …" : ""
        let lines = ["\(counted(recovery.records.count, "survey")) of “\(recovery.documentName)” kept on \(LocalTime.text(recovery.date, in: timeZone)), unsaved:",
                     titles.joined(separator: "; ") + more, "",
                     "Enter puts them back into “\(recovery.documentName)” as new records, d moves them to .trash, Esc asks again at the next start."]
        drawDialog(title: "Recovered surveys", lines: lines, into: &grid, layout: layout)
    }
}
