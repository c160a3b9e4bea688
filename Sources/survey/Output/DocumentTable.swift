import FoundationEssentials
import SurveyValues
import SurveyForms
import SurveyStorage
import SurveyUI

/// The `survey docs` listing: a header line, then one aligned row per document:
///
///     NAME           RECORDS  MODIFIED
///     Market Street       12  2024-05-01 14:03
///     Broken               ?  2024-04-30 09:12  Broken.plist: not a property list: …
///
/// The header is printed even for an empty folder, so the output always has the same shape
/// (scripts skip one line) and an empty listing is visibly a listing. Names are padded by
/// their width on the terminal (TextWidth), so wide characters keep the columns straight;
/// records are right-aligned, "?" when the file cannot be read; times are local. A row ends
/// with why the file cannot be read, or what to know about it (a name that is not UTF-8).
enum DocumentTable {
    static func lines(_ summaries: [DocumentSummary]) -> [String] {
        let names = summaries.map { ShellOutput.printable($0.name) }
        let records = summaries.map { $0.recordCount.map(String.init) ?? "?" }
        let nameWidth = ([TextWidth.width(of: "NAME")] + names.map { TextWidth.width(of: $0) }).max() ?? 0
        let recordWidth = (["RECORDS".count] + records.map(\.count)).max() ?? 0
        func row(_ name: String, _ records: String, _ modified: String) -> String {
            let namePad = String(repeating: " ", count: max(0, nameWidth - TextWidth.width(of: name)))
            let recordPad = String(repeating: " ", count: max(0, recordWidth - records.count))
            return name + namePad + "  " + recordPad + records + "  " + modified
        }
        func note(_ summary: DocumentSummary) -> String {
            (summary.problem ?? summary.note).map { "  " + ShellOutput.printable($0) } ?? ""
        }
        return [row("NAME", "RECORDS", "MODIFIED")]
            + summaries.indices.map {
                row(names[$0], records[$0], summaries[$0].modified.map(minute) ?? "?") + note(summaries[$0])
            }
    }

    /// YYYY-MM-DD HH:MM in the local time zone.
    static func minute(_ date: Date) -> String {
        let c = CivilTime(date, in: .current)
        return "\(c.year)-\(CivilTime.padded(c.month, 2))-\(CivilTime.padded(c.day, 2)) \(c.minuteText)"
    }
}
