import Foundation

/// Local date and time as the documents list and info view show them
/// ("2026-11-18 11:06", or with seconds). Built from calendar components rather than a
/// `DateFormatter`, which is costly to create and these views draw every frame.
enum LocalTime {
    static func text(_ date: Date, in timeZone: TimeZone, seconds: Bool = false) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let c = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        let minutes = String(printf: "%04d-%02d-%02d %02d:%02d", c.year ?? 0, c.month ?? 0, c.day ?? 0,
                             c.hour ?? 0, c.minute ?? 0)
        return seconds ? minutes + String(printf: ":%02d", c.second ?? 0) : minutes
    }
}
