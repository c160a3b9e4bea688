import FoundationEssentials
import SurveyValues
import SurveyForms
import SurveyStorage
import SurveyUI

/// The `survey deleted` table: a header, then one row per deleted survey, in the order they
/// were deleted (most recent last, nearest the prompt):
///
///     DELETED           ID                                         NAME
///     2024-03-05 09:07  uuid:0f8fad5b-d9cb-469f-a165-70867728950e  Lima, Ana
///
/// Local times to the minute, as `survey docs` shows them; the id whole, since it is what
/// `survey undelete` takes; names as the app's list shows them ("Last, First", or the
/// form's `instance_name`). A survey
/// without an id (only in a file written by another tool) shows "-": it cannot be brought
/// back by id. The header is printed even when nothing was deleted.
enum DeletedTable {
    static func lines(_ deleted: [DeletedRecord], questionnaire: Questionnaire = .standard) -> [String] {
        let rows = deleted.map { entry in
            [DocumentTable.minute(entry.deletedAt), ShellOutput.printable(entry.record.instanceID ?? "-"),
             ShellOutput.printable(questionnaire.title(of: entry.record))]
        }
        return TextTable.lines([["DELETED", "ID", "NAME"]] + rows)
    }
}
