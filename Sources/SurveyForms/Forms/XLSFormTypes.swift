import FoundationEssentials
import SurveyValues

/// The question types XLSForm has, as pyxform spells them, so a row survey does not collect
/// is told apart from a typo. A real type a terminal cannot collect (a geopoint, a photo) is
/// a warning: the form opens and the row is shown as not collected here. Anything else is
/// refused, as pyxform refuses it ("Unknown question type"), with the nearest type offered:
/// a typo such as `interger` would otherwise be a question nobody is ever asked.
enum XLSFormTypes {
    /// Every spelling in pyxform's question type dictionary (4.5), lowercased, beyond those
    /// `XLSFormReader.kind(of:)` collects.
    static let known: Set<String> = [
        "acknowledge", "add acknowledge prompt", "add audio prompt", "add barcode prompt", "add calculate prompt",
        "add date prompt", "add date time prompt", "add datetime prompt", "add decimal prompt", "add file prompt",
        "add image prompt", "add integer prompt", "add location prompt", "add note prompt", "add text prompt",
        "add video prompt", "audio", "audit", "background-audio", "background-geopoint", "barcode", "calculate",
        "csv-external", "date", "date time", "datetime", "decimal", "device id", "deviceid", "email", "end", "end time",
        "file", "geopoint", "geoshape", "geotrace", "get device id", "get end time", "get phone number", "get sim id",
        "get start time", "get subscriber id", "get today", "gps", "hidden", "image", "imei", "int", "integer",
        "location", "note", "number of days in last month", "number of days in last six months",
        "number of days in last year", "osm", "percentage", "phone number", "phonenumber", "photo", "q acknowledge",
        "q audio", "q barcode", "q calculate", "q date", "q date time", "q datetime", "q decimal", "q geopoint",
        "q geoshape", "q geotrace", "q image", "q int", "q location", "q note", "q picture", "q string", "q video",
        "range", "sim id", "simserial", "start", "start time", "start-geopoint", "string", "subscriber id",
        "subscriberid", "text", "time", "today", "trigger", "uri:deviceid", "uri:email", "uri:phonenumber",
        "uri:simserial", "uri:subscriberid", "uri:username", "username", "video", "xml-external",
        "begin_repeat", "end_repeat", "begin repeat", "end repeat", "begin loop", "end loop",
    ]

    /// Types written with a list or file after them (`rank fruits`, `select_one_from_file x.csv`).
    static let withArgument: Set<String> = [
        "rank", "osm", "select_one_from_file", "select_multiple_from_file", "select_one_external", "begin_repeat", "begin",
    ]

    /// Types not collected here that the interviewer would see, so pyxform wants a label or hint.
    static let shownUncollected: Set<String> = [
        "geopoint", "geotrace", "geoshape", "image", "photo", "audio", "video", "file", "barcode", "range", "rank", "osm",
        "location", "gps", "select_one_from_file", "select_multiple_from_file",
    ]

    /// What the nearest type is looked for among: the types designers write.
    private static let common = [
        "text", "integer", "decimal", "date", "time", "dateTime", "note", "calculate", "acknowledge", "select_one",
        "select_multiple", "start", "end", "today", "deviceid", "geopoint", "geotrace", "geoshape", "image", "audio",
        "video", "file", "barcode", "range", "rank", "hidden", "username", "email", "phonenumber", "audit",
    ]

    static func normalized(_ type: String) -> String {
        type.lowercased().split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    static func isKnown(_ type: String) -> Bool {
        // pyxform trims the cell and joins runs of spaces, of spaces alone ("( )+"): `select_one
        // yn` with two spaces is a select of yn, one with a tab or a line break between the
        // words a type it does not know.
        if type.trimmingWhitespace().contains(where: { $0.isWhitespace && $0 != " " }) { return false }
        let text = normalized(type)
        if known.contains(text) { return true }
        let words = text.split(separator: " ").map(String.init)
        guard words.count >= 2 else { return false }
        if words[0] == "begin" || words[0] == "end" { return ["repeat", "loop"].contains(words[1]) }
        return withArgument.contains(words[0])
    }

    /// Why the type is refused, in pyxform's words, with the nearest type when one is close.
    static func unknownTypeMessage(_ type: String) -> String {
        let lower = normalized(type)
        if lower == "select_one" || lower == "select_multiple" {
            return "unknown question type “\(type)”: it needs the list_name of its choices, as in “\(lower) yesno”"
        }
        return "unknown question type “\(type)”" + (suggestion(for: type).map { ": did you mean “\($0)”?" } ?? "")
    }

    /// The type the designer most likely meant, or nil when nothing is close.
    static func suggestion(for type: String) -> String? {
        let words = type.split(whereSeparator: \.isWhitespace).map(String.init)
        guard let first = words.first else { return nil }
        let lower = first.lowercased()
        let rest = words.dropFirst()
        // `select_one_yesno`: the list name run into the type.
        for select in ["select_one", "select_multiple"] where lower.hasPrefix(select + "_") && lower.count > select.count + 1 {
            let list = first.dropFirst(select.count + 1)
            return ([select, String(list)] + rest).joined(separator: " ")
        }
        if (lower == "begin" || lower == "end"), words.count == 2,
           let kind = nearest(words[1], among: ["group", "repeat"]) {
            return "\(lower) \(kind)"
        }
        guard let type = nearest(first, among: common) else { return nil }
        return type.hasPrefix("select_") ? ([type] + rest).joined(separator: " ") : type
    }

    /// The candidate fewest edits away, when that is at most two edits and fewer than half
    /// the word (so `txt` finds `text` but `xyz` finds nothing).
    private static func nearest(_ word: String, among candidates: [String]) -> String? {
        let scored = candidates.map { ($0, distance(word.lowercased(), $0.lowercased())) }
        guard let best = scored.min(by: { $0.1 < $1.1 }), best.1 <= 2, best.1 * 2 < word.count else { return nil }
        return best.0
    }

    /// Levenshtein distance.
    static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a.unicodeScalars), b = Array(b.unicodeScalars)
        var previous = Array(0...b.count)
        for i in 1...max(a.count, 1) where !a.isEmpty {
            var current = [i] + Array(repeating: 0, count: b.count)
            for j in 1...max(b.count, 1) where !b.isEmpty {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            previous = current
        }
        return a.isEmpty ? b.count : previous[b.count]
    }
}
