/// The unresolved conflicts as `survey conflicts` prints them: a value in one line for the
/// table, or JSON (the values as `export --format json` writes answers) for programs.
public enum ConflictListing {
    /// One line: text as it is, numbers as written, containers as compact JSON; an absent
    /// value as "-", empty text as "", and for a whole survey or a `member` of a roster
    /// (`member[2]`), a deleted side as "(deleted)".
    ///
    /// A roster (a list of members) is told by its members, each named by its first text
    /// answer and marked `*` where it is not one of `base`'s members as they were (`2: Ana*,
    /// Bo` against `1: Bo`), so two sides of a roster conflict never print as the same cut
    /// text: what differs comes first (issue 27).
    public static func cellText(_ value: PropertyValue?, wholeSurvey: Bool, base: PropertyValue? = nil,
                                member: Bool = false) -> String {
        guard let value else { return wholeSurvey || member ? "(deleted)" : "-" }
        if wholeSurvey { return "(kept)" }
        if case .string(let text) = value { return text.isEmpty ? "\"\"" : text }
        if let members = value.members {
            let known = base?.members ?? []
            let named = members.enumerated().map { i, member in
                memberName(member, place: i + 1) + (base != nil && !known.contains(member) ? "*" : "")
            }
            return "\(members.count): " + named.joined(separator: ", ")
        }
        return compactJSON(value)
    }

    /// A member's first text answer by key (its name, in most rosters), else `#place`.
    private static func memberName(_ member: [String: PropertyValue], place: Int) -> String {
        for key in member.keys.sorted() where key != "instanceID" {
            if case .string(let text)? = member[key], !text.isEmpty { return text.count > 20 ? String(text.prefix(19)) + "…" : text }
        }
        return "#\(place)"
    }

    package static func compactJSON(_ value: PropertyValue) -> String {
        value.jsonText().split(separator: "\n").map { $0.trimmingWhitespace() }.joined(separator: " ")
    }
}
