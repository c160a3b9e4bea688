import FoundationEssentials
import SurveyValues

/// How a survey is named wherever it is named: the list, `s` and F6, the recovery popover,
/// status messages, `survey list`, `survey deleted` and `survey undelete`. One rule per kind of
/// questionnaire, chosen by the questionnaire the survey's document has, so a survey is never
/// named by the original five's rule in a designer's document.
extension Questionnaire {
    /// A survey's title: its name, or "(no name)".
    /// - A designer's form: its `instance_name` (`concat(${lname}, ', ', ${fname})`), else
    ///   (or when it names nothing: no letter or digit, as `, ` for a survey without names)
    ///   its first two text answers.
    /// - The original five: "Last, First"; just the one that is non-empty when the other is
    ///   empty.
    /// - The answers as stored (the form is missing or has errors): see `storedAnswersName`.
    ///
    /// Names are trimmed and line breaks or tabs become spaces, so a title always fits on
    /// one list row. With `limit`, at most that many characters of each name (after its
    /// leading blanks) are used, for drawing: a list row then costs its width, not a 1 MB
    /// name's length. A cut name keeps its blanks, so the title still reads as longer than
    /// the row.
    public func title(of record: Record, limit: Int? = nil) -> String {
        let text = name(of: record, limit: limit)
        return text.isEmpty ? "(no name)" : text
    }

    /// The clock an `instance_name` reads: the moment the survey was finished (its `end`, else
    /// its `start`), in the local zone, as ODK Collect computes the name once at finalizing.
    /// So a name made with `today()` or `format-date-time(${start}, …)` says the survey's own
    /// day and local time, and is the same at every frame. A survey without either (the form
    /// asks for neither, or a New form not yet added) reads the wall clock, as before.
    func namingClock(for record: Record) -> Clock {
        for key in [naming.endKey, naming.startKey].compactMap({ $0 }) {
            if case .string(let text)? = record[key], let moment = FormDateTime.parse(text), moment.offset != nil {
                return Clock(now: Date(timeIntervalSince1970: moment.instant(in: .utc)))
            }
        }
        return Clock(now: Date())
    }

    /// The name the list shows for a survey, "" when it has none: what the list sorts and
    /// groups a form document by.
    public func name(of record: Record, limit: Int? = nil) -> String {
        if record.isSealed { return sealedName(of: record, limit: limit) }
        if isStoredAnswers { return storedAnswersName(of: record, limit: limit) }
        guard let form else { return originalFiveName(of: record, limit: limit) }
        var text = ""
        if let name = form.instanceName {
            text = name.evaluate(in: context(answers(namedBy: name, in: record), current: "", clock: namingClock(for: record))).string
        }
        if !Self.says(text) { text = keyedName(of: record) }
        text = String(String.UnicodeScalarView(text.unicodeScalars.map { $0.isControlCharacter ? " " : $0 }))
            .trimmingWhitespace()
        if let limit, text.count > limit { text = String(text.prefix(limit)) }
        return text
    }

    /// A name for a survey of a form without `instance_name` (or whose name came out empty),
    /// what a keyer tells papers apart by (issue 30): the answers to the form's ID items
    /// (`id_items`, CSPro's case ids: `P1, 3`); else the first two text answers, leaving out
    /// the questions about who keyed it (an enumerator's name or phone is the same on every
    /// plot); else the form's title and the time it was started (`Plot form 2026-03-04 11:00`),
    /// as ODK Collect lists a survey without a name.
    func keyedName(of record: Record) -> String {
        let ids = (form?.idItems ?? []).map { XLSForm.text(of: record[$0]).trimmingWhitespace() }.filter { !$0.isEmpty }
        if !ids.isEmpty { return ids.joined(separator: ", ") }
        let answers = naming.textKeys.lazy
            .map { XLSForm.text(of: record[$0]).trimmingWhitespace() }
            .filter { !$0.isEmpty }
        let text = answers.prefix(2).joined(separator: ", ")
        if Self.says(text) { return text }
        guard let started = startedText(of: record) else { return text }
        return [form?.title ?? form?.formID ?? "", started].filter { !$0.isEmpty }.joined(separator: " ")
    }

    /// Text with a letter or a digit in it: a name that says something.
    static func says(_ text: String) -> Bool {
        text.unicodeScalars.contains { $0.properties.isAlphabetic || $0.properties.numericType != nil }
    }

    /// When the survey was started (its `start`), as keyed there: `2026-03-04 11:00`.
    private func startedText(of record: Record) -> String? {
        guard let key = naming.startKey, case .string(let text)? = record[key], let moment = FormDateTime.parse(text) else { return nil }
        return String(printf: "%04d-%02d-%02d %02d:%02d", moment.year, moment.month, moment.day, moment.hour, moment.minute)
    }

    /// The answers an expression reads: each name it names, and the roster around a name
    /// inside one, read one by one out of the packed survey. A list's frame names forty
    /// surveys with `instance_name`, and reading each survey whole to do so was nine tenths of
    /// a designer's form's frame.
    func answers(namedBy expression: FormExpression, in record: Record) -> [String: PropertyValue] {
        var values: [String: PropertyValue] = [:]
        let outline = outline?.value
        for name in Set(expression.fieldReferences) {
            values[name] = record[name]
            for g in outline?.byName[name] ?? [] {
                if let top = outline?.scopes[outline!.scopeOf[g]].chain.first, values[top] == nil { values[top] = record[top] }
            }
        }
        return values
    }

    /// "Last, First", "First" or "Last" (a name of any type shows as text: `7`).
    private func originalFiveName(of record: Record, limit: Int?) -> String {
        let first = record["firstName"].map { Self.oneLine(FieldSpec.describe($0), limit: limit) } ?? ""
        let last = record["lastName"].map { Self.oneLine(FieldSpec.describe($0), limit: limit) } ?? ""
        switch (first.isEmpty, last.isEmpty) {
        case (true, true): return ""
        case (false, true): return first
        case (true, false): return last
        case (false, false): return "\(last), \(first)"
        }
    }

    /// Without its form, a survey is named by its own text answers (keys in sorted order, as
    /// files hold them): the first two under a key with "name" in it (`fname`, `lname`,
    /// `hh_head_name`), else the first two that start with a letter (choice names and dates
    /// usually start otherwise, or are under the metadata keys, which are left out).
    private func storedAnswersName(of record: Record, limit: Int?) -> String {
        var named: [String] = []
        var worded: [String] = []
        for key in record.keys.sorted() where !Self.storedMetadataKeys.contains(key) {
            guard case .string(let raw)? = record[key] else { continue }
            let text = Self.oneLine(raw, limit: limit)
            guard let first = text.unicodeScalars.first, first.properties.isAlphabetic else { continue }
            if key.lowercased().contains("name") { named.append(text) } else { worded.append(text) }
        }
        return (named.isEmpty ? worded : named).prefix(2).joined(separator: ", ")
    }

    /// Keys survey and ODK fill in themselves: never a survey's name.
    static let storedMetadataKeys: Set<String> = [
        Record.instanceIDKey, formIDKey, formVersionKey, "start", "end", "today", "deviceid",
    ]

    private static func isBlank(_ s: Unicode.Scalar) -> Bool { s.properties.isWhitespace || s.value < 0x20 }

    /// Called for every visible list row on every frame, so no Foundation: printable ASCII
    /// (nearly every name) is cut and trimmed as bytes; anything else goes by scalars.
    private static func oneLine(_ text: String, limit: Int?) -> String {
        if text.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) {
            // One character per byte, and the space is the only blank.
            var bytes = text.utf8[...]
            if let limit {
                bytes = bytes.drop { $0 == 0x20 }
                if bytes.count > limit { return String(Substring(bytes.prefix(limit))) }
            }
            bytes = bytes.drop { $0 == 0x20 }
            while bytes.last == 0x20 { bytes = bytes.dropLast() }
            return String(Substring(bytes))
        }
        var source = text[...]
        if let limit {
            source = source.drop { $0.unicodeScalars.allSatisfy(isBlank) }
            let cut = source.prefix(limit)
            if cut.endIndex < source.endIndex {
                return String(String.UnicodeScalarView(cut.unicodeScalars.map { isBlank($0) ? " " : $0 }))
            }
        }
        // Blanks become spaces, then the ends are trimmed scalar by scalar as Foundation's
        // `.whitespaces` did: every member is a blank (so now a space) but U+200B.
        let trimmed: (Unicode.Scalar) -> Bool = { $0 == " " || $0 == "\u{200B}" }
        if let first = source.unicodeScalars.first, let last = source.unicodeScalars.last, !trimmed(first),
           !trimmed(last), !source.unicodeScalars.contains(where: isBlank) {
            return String(source)   // nothing to change (most names in other scripts): no copy made scalar by scalar
        }
        var scalars = String.UnicodeScalarView(source.unicodeScalars.map { isBlank($0) ? " " : $0 })[...]
        while let first = scalars.first, trimmed(first) { scalars = scalars.dropFirst() }
        while let last = scalars.last, trimmed(last) { scalars = scalars.dropLast() }
        return String(String.UnicodeScalarView(scalars))
    }
}

/// The questions that name a survey without an `instance_name`, found once per questionnaire
/// (the list names every row at every frame): the text questions in order, but those about
/// who keyed it, and the `end` and `start` metadata a name's clock and its fallback read.
struct NamingKeys: Equatable, Sendable {
    let textKeys: [String]
    let endKey: String?
    let startKey: String?

    init(_ fields: [FieldSpec]) {
        textKeys = fields.compactMap { if case .text = $0.kind, !Self.namesWhoKeyed($0.key) { $0.key } else { nil } }
        endKey = fields.first { $0.kind == .metadata("end") && !$0.key.isEmpty }?.key
        startKey = fields.first { $0.kind == .metadata("start") && !$0.key.isEmpty }?.key
    }

    /// A question about who keyed the survey, by its name: the same answer on every paper a
    /// team keys, so no name for one of them.
    static func namesWhoKeyed(_ key: String) -> Bool {
        let name = key.lowercased()
        return ["enumerator", "interviewer", "surveyor", "collector", "leader", "supervisor", "staff", "keyer",
                "phone", "mobile", "email", "deviceid", "username"].contains { name.contains($0) }
    }
}

extension Questionnaire {
    /// An encrypted survey's name (issue 31): its `publishable` answers in form order, else
    /// "(encrypted)"; the rest of its answers are not readable here.
    func sealedName(of record: Record, limit: Int?) -> String {
        let words = recordFields.filter(\.isPublishable).map { record.text(for: $0) }.filter { !$0.isEmpty }
        var text = words.isEmpty ? "(encrypted)" : words.joined(separator: " ")
        text = String(String.UnicodeScalarView(text.unicodeScalars.map { $0.isControlCharacter ? " " : $0 }))
        if let limit, text.count > limit { text = String(text.prefix(limit)) }
        return text
    }
}
