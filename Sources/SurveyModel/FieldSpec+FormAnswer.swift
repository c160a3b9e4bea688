import Foundation

/// The rules of an XLSForm question's own type, as ODK stores answers: integer as integer,
/// decimal as real, dates and times as ISO 8601 text, choices by name. One place, so the
/// form, `survey add` and imports refuse exactly the same answers with the same words.
extension FieldSpec {
    func parseFormAnswer(_ text: String) -> Result<PropertyValue?, FieldError> {
        if text.unicodeScalars.contains(where: Self.isRefusedWhenTyped) {
            return .failure(FieldError("\(label) cannot hold control characters"))
        }
        let t = text.trimmingCharacters(in: .whitespacesAndNewlines)
        if t.isEmpty { return .success(nil) }
        switch kind {
        case .decimal:
            guard t.unicodeScalars.allSatisfy({ "0123456789.-+eE".unicodeScalars.contains($0) }),
                  let d = Double(t), d.isFinite else {
                return .failure(FieldError("\(label) must be a number"))
            }
            return .success(.real(d))
        case .date:
            guard Self.isDate(t) else { return .failure(FieldError("\(label) must be a date, YYYY-MM-DD")) }
            return .success(.string(t))
        case .time:
            guard t.range(of: #"^([01]\d|2[0-3]):[0-5]\d(:[0-5]\d)?$"#, options: .regularExpression) != nil else {
                return .failure(FieldError("\(label) must be a time, HH:MM"))
            }
            return .success(.string(t))
        case .dateTime:
            guard Self.isDateTime(t) else {
                return .failure(FieldError("\(label) must be a date and time, YYYY-MM-DDTHH:MM:SS±HH:MM"))
            }
            return .success(.string(t))
        case .choice(_, let names, let multiple):
            let picked = multiple ? t.split(separator: " ").map(String.init) : [t]
            if let stray = picked.first(where: { !names.contains($0) }) {
                return .failure(FieldError("“\(stray)” is not one of the choices of \(label)"))
            }
            var unique: [String] = []
            for p in picked where !unique.contains(p) { unique.append(p) }
            return .success(.string(unique.joined(separator: " ")))
        case .acknowledge:
            guard t == "OK" || t.lowercased() == "ok" else { return .failure(FieldError("\(label) is answered OK, or left empty")) }
            return .success(.string("OK"))
        case .note, .calculated, .groupStart, .groupEnd, .metadata, .notCollected, .text, .wholeNumber:
            return .success(.string(t))
        }
    }

    static func isDate(_ text: String) -> Bool {
        guard text.range(of: #"^\d{4}-\d{2}-\d{2}$"#, options: .regularExpression) != nil else { return false }
        let parts = text.split(separator: "-").compactMap { Int($0) }
        var c = DateComponents(year: parts[0], month: parts[1], day: parts[2])
        c.calendar = Calendar(identifier: .gregorian)
        return c.isValidDate
    }

    static func isDateTime(_ text: String) -> Bool {
        let withZone = ISO8601DateFormatter()
        if withZone.date(from: text) != nil { return true }
        let fractional = ISO8601DateFormatter()
        fractional.formatOptions.insert(.withFractionalSeconds)
        return fractional.date(from: text) != nil
    }
}
