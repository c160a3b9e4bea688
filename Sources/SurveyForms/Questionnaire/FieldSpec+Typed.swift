import FoundationEssentials
import SurveyValues

/// The rules of the types ODK collects with a device's sensors or files, as a keyboard can
/// give them: a location typed as ODK stores it, a range's number on its steps, a rank's
/// order, an attachment's file name. Each refusal says why, and the typed text stays on the
/// form (the caller keeps it), so a keyer mends one digit rather than typing it all again.
extension FieldSpec {
    func parseGeo(_ text: String, _ geometry: FieldKind.Geometry) -> Result<PropertyValue?, FieldError> {
        let parts = geometry == .point ? [Substring(text)] : text.split(separator: ";", omittingEmptySubsequences: false)
        var points: [String] = []
        for (i, part) in parts.enumerated() {
            let place = geometry == .point ? "" : " (point \(i + 1))"
            switch GeoAnswer.point(part) {
            case .success(let point): points.append(point)
            case .failure(let why): return .failure(FieldError("\(label)\(place): \(why.message)"))
            }
        }
        switch geometry {
        case .point: break
        case .trace:
            if points.count < 2 { return .failure(FieldError("\(label) is a line: at least 2 points, separated by “;”")) }
        case .shape:
            if points.count < 4 {
                return .failure(FieldError("\(label) is a closed shape: at least 4 points separated by “;”, the last the first again"))
            }
            if GeoAnswer.latLon(points[0]) != GeoAnswer.latLon(points[points.count - 1]) {
                return .failure(FieldError("\(label) is a closed shape: its last point must be its first again"))
            }
        }
        return .success(.string(points.joined(separator: "; ")))
    }

    func parseRange(_ text: String, start: Double, end: Double, step: Double) -> Result<PropertyValue?, FieldError> {
        let whole = [start, end, step].allSatisfy { $0 == $0.rounded() }
        let low = min(start, end), high = max(start, end)
        let bounds = "from \(FormValue.number(start).string) to \(FormValue.number(end).string)"
        let steps = step == 1 && whole ? "" : " in steps of \(FormValue.number(step).string)"
        let problem = FieldError("\(label) must be a number \(bounds)\(steps)")
        guard text.unicodeScalars.allSatisfy({ "0123456789.-+".unicodeScalars.contains($0) }), let number = Double(text),
              number.isFinite, number >= low, number <= high else { return .failure(problem) }
        let offset = (number - start) / step
        guard abs(offset - offset.rounded()) < 1e-9 else { return .failure(problem) }
        if whole {
            guard let integer = Int(exactly: number) else { return .failure(problem) }
            return .success(.integer(integer))
        }
        return .success(.real(number))
    }

    func parseRank(_ text: String, names: [String]) -> Result<PropertyValue?, FieldError> {
        let picked = text.split(whereSeparator: \.isWhitespace).map(String.init)
        if let stray = picked.first(where: { !names.contains($0) }) {
            return .failure(FieldError("“\(stray)” is not one of the choices of \(label)"))
        }
        var seen: Set<String> = []
        if let twice = picked.first(where: { !seen.insert($0).inserted }) {
            return .failure(FieldError("\(label) ranks “\(twice)” twice: each choice once, in order"))
        }
        if let missing = names.first(where: { !seen.contains($0) }) {
            return .failure(FieldError("\(label) ranks every choice, in order: “\(missing)” is missing"))
        }
        return .success(.string(picked.joined(separator: " ")))
    }

    func parseAttachment(_ text: String) -> Result<PropertyValue?, FieldError> {
        if let why = MediaFolder.problem(withName: text) {
            return .failure(FieldError("\(label) is the name of a file in the document’s media folder: \(why)"))
        }
        return .success(.string(text))
    }
}

/// A location as ODK writes it: `lat lon [alt [acc]]`, numbers separated by spaces.
enum GeoAnswer {
    /// The point written plainly (blanks collapsed), or why it is not one.
    static func point(_ text: Substring) -> Result<String, FieldError> {
        let numbers = text.split(whereSeparator: \.isWhitespace)
        guard (2...4).contains(numbers.count) else {
            return .failure(FieldError("a location is “latitude longitude [altitude [accuracy]]”, numbers separated by spaces"))
        }
        var values: [Double] = []
        for n in numbers {
            guard n.unicodeScalars.allSatisfy({ "0123456789.-+eE".unicodeScalars.contains($0) }), let d = Double(n), d.isFinite else {
                return .failure(FieldError("“\(n)” is not a number"))
            }
            values.append(d)
        }
        if !(-90...90).contains(values[0]) { return .failure(FieldError("the latitude \(numbers[0]) is not between -90 and 90")) }
        if !(-180...180).contains(values[1]) { return .failure(FieldError("the longitude \(numbers[1]) is not between -180 and 180")) }
        if values.count == 4, values[3] < 0 { return .failure(FieldError("the accuracy \(numbers[3]) cannot be negative")) }
        return .success(numbers.joined(separator: " "))
    }

    static func latLon(_ point: String) -> [Double] {
        point.split(separator: " ").prefix(2).compactMap { Double($0) }
    }
}
