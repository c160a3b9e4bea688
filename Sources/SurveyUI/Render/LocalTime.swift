import FoundationEssentials
import SurveyValues
import SurveyForms

/// Local date and time as the documents list and info view show them
/// ("2026-11-18 11:06", or with seconds). Built from calendar components rather than a
/// `DateFormatter`, which is costly to create and these views draw every frame.
enum LocalTime {
    static func text(_ date: Date, in timeZone: TimeZoneRule, seconds: Bool = false) -> String {
        let c = CivilTime(date, in: timeZone)
        return c.dayText + " " + (seconds ? c.secondText : c.minuteText)
    }
}
