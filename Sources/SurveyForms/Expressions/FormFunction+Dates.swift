import FoundationEssentials
import SurveyValues

/// ODK's date and time functions (xforms-spec, "Date and Time Functions"). Answers are text,
/// so a date function returns text (`2026-01-15`, `2026-01-15T10:00:00+01:00`) and a number
/// of days where the spec says number. The clock is the context's; nothing reads the system
/// clock here.
extension FormFunction {
    static let dates: [FormFunction] = [
        FormFunction(name: "today", arity: 0...0) { .string(LocalDay.text($0.context.now, in: $0.context.timeZone)) },
        FormFunction(name: "now", arity: 0...0) { .string(LocalDay.dateTimeText($0.context.now, in: $0.context.timeZone)) },
        // A number of days (its fraction dropped) or a date-time, as a date.
        FormFunction(name: "date", arity: 1...1) { call in
            guard let value = dateTime(call.value(0), in: call.context, keepTime: false) else { return .string("") }
            return .string(value.dateText)
        },
        FormFunction(name: "date-time", arity: 1...1) { call in
            guard let value = dateTime(call.value(0), in: call.context, keepTime: true) else { return .string("") }
            return .string(LocalDay.dateTimeText(Date(timeIntervalSince1970: value.instant(in: call.context.timeZone)), in: call.context.timeZone))
        },
        // Days since 1970-01-01T00:00Z (spec), with the fraction: a written offset is
        // honoured, a value without one is local time.
        FormFunction(name: "decimal-date-time", arity: 1...1) { call in
            let value = call.value(0)
            if case .number(let n) = value { return .number(n) }
            guard let parsed = dateTime(value, in: call.context, keepTime: true) else { return .number(.nan) }
            return .number(parsed.instant(in: call.context.timeZone) / 86400)
        },
        // Days since 1970 of the date as written on the local calendar (what `number()` makes
        // of a date); not in the spec, but JavaRosa-era forms call it.
        FormFunction(name: "decimal-date", arity: 1...1) { call in
            let value = call.value(0)
            if case .number(let n) = value { return .number(n) }
            guard let parsed = dateTime(value, in: call.context, keepTime: true) else { return .number(.nan) }
            return .number(parsed.localDays)
        },
        // The fraction of the local day a time is: noon is 0.5 (spec).
        FormFunction(name: "decimal-time", arity: 1...1) { call in
            let value = call.value(0)
            if case .number(let n) = value { return .number(n - n.rounded(.down)) }
            let text = value.string
            if let full = FormDateTime.parse(text) {
                let local = full.local(in: call.context.timeZone)
                return .number(local.localDays - local.localDays.rounded(.down))
            }
            guard let t = FormDateTime.parseTime(text) else { return .number(.nan) }
            var seconds = Double(t.hour * 3600 + t.minute * 60 + t.second) + Double(t.millisecond) / 1000
            if let offset = t.offset {
                seconds += Double(call.context.timeZone.secondsFromGMT(for: call.context.now) - offset)
            }
            let day = 86400.0
            return .number((seconds.truncatingRemainder(dividingBy: day) + day).truncatingRemainder(dividingBy: day) / day)
        },
        FormFunction(name: "format-date", arity: 2...2, check: constant(1, FormDateTime.checkFormat)) { call in
            guard let value = dateTime(call.value(0), in: call.context, keepTime: true) else { return .string("") }
            return .string(value.formatted(call.string(1)))
        },
        FormFunction(name: "format-date-time", arity: 2...2, check: constant(1, FormDateTime.checkFormat)) { call in
            guard let value = dateTime(call.value(0), in: call.context, keepTime: true) else { return .string("") }
            return .string(value.formatted(call.string(1)))
        },
    ]

    /// A value as a local date-time: days since 1970 (a number, or text that is one), or a
    /// date or date-time written in ISO 8601; nil for empty text, NaN and anything else.
    static func dateTime(_ value: FormValue, in context: FormContext, keepTime: Bool) -> FormDateTime? {
        var days: Double?
        switch value {
        case .number(let n): days = n
        case .boolean: return nil
        case .string(let s):
            if let parsed = FormDateTime.parse(s) {
                let local = parsed.local(in: context.timeZone)
                return keepTime ? local : FormDateTime(year: local.year, month: local.month, day: local.day)
            }
            let n = FormValue.string(s).number
            days = n.isNaN ? nil : n
        }
        guard let days else { return nil }
        return FormDateTime(days: keepTime ? days : days.rounded(.down))
    }
}
