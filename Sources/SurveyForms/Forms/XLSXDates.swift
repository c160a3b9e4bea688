import FoundationEssentials
import SurveyValues

/// A workbook's dates read as pyxform reads them. Excel keeps a date as a number of days
/// (`44662.6850575292`) and says it is a date only by the cell's number format (styles.xml);
/// pyxform reads an .xlsx through openpyxl, which turns a number whose format is a date's
/// into a `datetime` (`from_excel`), and pyxform then takes `str()` of it:
/// `2022-04-11 16:26:28.971000`. A settings `version` typed as a date (or `=NOW()`) is the
/// usual case: ODK Central keeps the version pyxform wrote, and a submission must carry the
/// same text to be matched to its form. The same happens to any cell of the workbook, as in
/// pyxform.
///
/// Followed exactly (openpyxl 3.1 `is_date_format`, `is_timedelta_format`, `from_excel`;
/// Python's `str` of `datetime`, `time` and `timedelta`): a format is a date's when its
/// first section, without quoted text and bracketed codes other than `[h]`, `[mm]`, `[s]`
/// and their doubles, holds one of `dmhysDMHYS` not after `_` or `\`; a day count from 0
/// up to 1 whose time does not reach the next day is a time (`16:26:28`); from 1900-01-01
/// to 1900-02-28 a day is added (Excel's false 1900-02-29); milliseconds are rounded half
/// to even; `[h]:mm:ss` is a duration (`1 day, 2:00:00`). A date before year 1 or after 9999
/// is `#VALUE!`, as openpyxl makes it. The 1904 date system (`date1904` in workbook.xml) counts
/// from 1904-01-01.
struct XLSXDates {
    /// The cell styles (`s="16"`) whose number format is a date's, and a duration's.
    let dateStyles: Set<Int>
    let durationStyles: Set<Int>
    let epoch1904: Bool

    /// From the workbook's styles.xml and workbook.xml (either may be missing: no dates).
    init(styles: Data?, workbook: Data) {
        epoch1904 = XMLTagScanner.events(Array(workbook)).contains {
            if case .start("workbookPr", let attributes, _) = $0 { return ["1", "true"].contains(attributes["date1904"]?.lowercased() ?? "") }
            return false
        }
        var custom: [Int: String] = [:]
        var formats: [Int] = []
        var inCellXfs = false
        for event in XMLTagScanner.events(Array(styles ?? Data())) {
            switch event {
            case .start("numFmt", let attributes, _):
                if let id = attributes["numFmtId"].flatMap(Int.init), let code = attributes["formatCode"] { custom[id] = code }
            case .start("cellXfs", _, let closed): inCellXfs = !closed
            case .end("cellXfs"): inCellXfs = false
            case .start("xf", let attributes, _) where inCellXfs:
                formats.append(attributes["numFmtId"].flatMap(Int.init) ?? 0)
            default: break
            }
        }
        var dates: Set<Int> = []
        var durations: Set<Int> = []
        for (style, id) in formats.enumerated() {
            guard let code = custom[id] ?? Self.builtinDateFormats[id] else { continue }
            if Self.isDateFormat(code) { dates.insert(style) }
            if Self.isDurationFormat(code) { durations.insert(style) }
        }
        dateStyles = dates
        durationStyles = durations
    }

    /// The built-in formats openpyxl counts as dates (the others are numbers or text).
    static let builtinDateFormats: [Int: String] = [
        14: "mm-dd-yy", 15: "d-mmm-yy", 16: "d-mmm", 17: "mmm-yy", 18: "h:mm AM/PM", 19: "h:mm:ss AM/PM",
        20: "h:mm", 21: "h:mm:ss", 22: "m/d/yy h:mm", 45: "mm:ss", 46: "[h]:mm:ss", 47: "mmss.0",
    ]

    /// The text pyxform makes of a number cell `value` (the `<v>` text) of `style`; nil when
    /// the style is no date's or the text no number.
    func text(of value: String, style: Int) -> String? {
        guard dateStyles.contains(style), let number = Double(value), number.isFinite else { return nil }
        if durationStyles.contains(style) { return Self.durationText(number) }
        return Self.dateText(number, epoch1904: epoch1904)
    }

    // MARK: openpyxl's tests of a format

    static func isDateFormat(_ code: String) -> Bool {
        let first = Array(code.split(separator: ";", omittingEmptySubsequences: false).first.map(String.init) ?? "")
        // Without quoted text and bracketed codes but [h], [hh], [m], [mm], [s], [ss].
        var kept: [Character] = []
        var i = 0
        while i < first.count {
            if first[i] == "\"", let close = first[(i + 1)...].firstIndex(of: "\"") {
                i = close + 1
                continue
            }
            if first[i] == "[", let close = first[(i + 1)...].firstIndex(of: "]") {
                let inside = String(first[(i + 1)..<close])
                if !["h", "hh", "m", "mm", "s", "ss"].contains(inside) {
                    i = close + 1
                    continue
                }
            }
            kept.append(first[i])
            i += 1
        }
        for (j, c) in kept.enumerated() where "dmhysDMHYS".contains(c) {
            if j == 0 || (kept[j - 1] != "_" && kept[j - 1] != "\\") { return true }
        }
        return false
    }

    static func isDurationFormat(_ code: String) -> Bool {
        let first = (code.split(separator: ";", omittingEmptySubsequences: false).first.map(String.init) ?? "").lowercased()
        return ["[h]", "[hh]", "[m]", "[mm]", "[s]", "[ss]"].contains { first.contains($0) }
    }

    // MARK: openpyxl's from_excel, Python's str

    static func dateText(_ value: Double, epoch1904: Bool) -> String {
        var day = value.rounded(.down)
        let milliseconds = Int64(((value - day) * 86400 * 1000).rounded(.toNearestOrEven))
        if value >= 0, value < 1, milliseconds < 86_400_000 { return timeText(milliseconds) }
        if !epoch1904, value > 0, value < 60 { day += 1 }
        guard abs(day) < 4_000_000 else { return "#VALUE!" }
        let epoch = epoch1904 ? CivilTime.days(year: 1904, month: 1, day: 1) : CivilTime.days(year: 1899, month: 12, day: 30)
        // The milliseconds may round up to a whole day.
        let civil = CivilTime.civil(fromDays: epoch + Int64(day) + milliseconds / 86_400_000)
        guard (1...9999).contains(civil.year) else { return "#VALUE!" }
        return "\(CivilTime.padded(civil.year, 4))-\(CivilTime.padded(civil.month, 2))-\(CivilTime.padded(civil.day, 2)) "
            + timeText(milliseconds % 86_400_000)
    }

    /// `HH:MM:SS`, then `.ffffff` when there are milliseconds, as Python writes a time.
    static func timeText(_ milliseconds: Int64) -> String {
        let seconds = milliseconds / 1000
        var text = "\(CivilTime.padded(Int(seconds / 3600), 2)):\(CivilTime.padded(Int(seconds / 60 % 60), 2)):"
            + CivilTime.padded(Int(seconds % 60), 2)
        if milliseconds % 1000 != 0 { text += "." + CivilTime.padded(Int(milliseconds % 1000) * 1000, 6) }
        return text
    }

    /// Python's `str(timedelta(days=value))`, rounded to milliseconds as openpyxl rounds it:
    /// `2:00:00`, `1 day, 2:00:00`, `3 days, 0:00:00.500000`. A negative one, and one of a
    /// hundred million days or more, is left as the number it is.
    static func durationText(_ value: Double) -> String? {
        guard value >= 0, value < 100_000_000 else { return nil }
        // timedelta(days=value) keeps microseconds (rounded half to even); openpyxl then
        // rounds them to milliseconds.
        var micro = Int64((value * 86_400_000_000).rounded(.toNearestOrEven))
        let fraction = micro % 1_000_000
        if fraction != 0 { micro = micro - fraction + Int64((Double(fraction) / 1000).rounded(.toNearestOrEven)) * 1000 }
        let days = micro / 86_400_000_000
        let rest = micro % 86_400_000_000
        let seconds = rest / 1_000_000
        var text = days == 0 ? "" : "\(days) day\(days == 1 ? "" : "s"), "
        text += "\(seconds / 3600):\(CivilTime.padded(Int(seconds / 60 % 60), 2)):\(CivilTime.padded(Int(seconds % 60), 2))"
        if rest % 1_000_000 != 0 { text += "." + CivilTime.padded(Int(rest % 1_000_000), 6) }
        return text
    }
}

extension XLSForm {
    /// Whether a survey's `formVersion` names this form's version: the same text, or the day
    /// count survey read from a date cell before it read dates as pyxform does
    /// (`44662.6850575292` for `2022-04-11 16:26:28.971000`, in either date system), which
    /// surveys keyed then carry. So those surveys still belong to the same form file: a
    /// submission says the version pyxform wrote, and a team's sync does not take the same
    /// form again.
    public func isVersion(_ text: String) -> Bool {
        guard let version, !version.isEmpty else { return false }
        if text == version { return true }
        guard SpreadsheetFormula.isPlainNumber(text), let number = Double(text), number.isFinite else { return false }
        return [XLSXDates.dateText(number, epoch1904: false), XLSXDates.dateText(number, epoch1904: true),
                XLSXDates.durationText(number)].contains(version)
    }
}
