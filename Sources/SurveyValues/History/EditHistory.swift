import FoundationEssentials

/// One change made on this laptop to a survey already stored (issue 31, edit history): who
/// (the login), when, each answer from what to what (`AnswerChanges`' paths, `member[2]/age`),
/// and why when the form asked (`track-changes-reasons`). The server keeps every version it
/// receives (`survey history ID`); this is the laptop's own record, for every form, kept
/// before any sync.
public struct EditHistoryEntry: Equatable, Sendable {
    public var survey: String
    public var at: Date
    public var by: String
    public var changes: [AnswerChange]
    public var reason: String?

    public init(survey: String, at: Date, by: String, changes: [AnswerChange], reason: String? = nil) {
        self.survey = survey
        self.at = at
        self.by = by
        self.changes = changes
        self.reason = reason
    }

    /// One line of `.NAME.history.jsonl`: a JSON object on one line, keys sorted, `at` in
    /// milliseconds since 1970 (UTC); an answer absent on a side is an absent key.
    public var jsonLine: String {
        var entry: [String: PropertyValue] = [
            "survey": .string(survey), "at": .integer(Int((at.timeIntervalSince1970 * 1000).rounded())), "by": .string(by),
            "changes": .array(changes.map { change in
                var item: [String: PropertyValue] = ["path": .string(change.path.description)]
                if let old = change.old { item["old"] = old }
                if let new = change.new { item["new"] = new }
                return .dictionary(item)
            }),
        ]
        if let reason { entry["reason"] = .string(reason) }
        // Every newline in the text is the formatting's (a string's own are escaped `\n`).
        return PropertyValue.dictionary(entry).jsonText().split(separator: "\n")
            .map { $0.drop(while: { $0 == " " }) }.joined()
    }

    /// A line read back; nil when it is not one (a line cut short by a crash, or written by hand).
    public init?(jsonLine line: Substring) {
        var text = String(line)
        guard let object = try? text.withUTF8({ try PropertyValue.answers(jsonObject: $0) }),
              case .string(let survey)? = object["survey"], case .integer(let at)? = object["at"],
              case .string(let by)? = object["by"],
              case .array(let items)? = object["changes"] else { return nil }
        var changes: [AnswerChange] = []
        for item in items {
            guard case .dictionary(let fields) = item, case .string(let path)? = fields["path"],
                  let parsed = SyncFieldPath(text: path) else { return nil }
            changes.append(AnswerChange(path: parsed, old: fields["old"], new: fields["new"]))
        }
        var reason: String?
        if case .string(let text)? = object["reason"] { reason = text }
        self.init(survey: survey, at: Date(timeIntervalSince1970: Double(at) / 1000), by: by, changes: changes, reason: reason)
    }
}
