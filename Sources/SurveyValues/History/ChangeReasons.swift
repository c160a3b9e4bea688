import FoundationEssentials

/// Why each survey was changed since a moment, from the laptop's edit history: what a push
/// sends with an edit, so the server's version says why it was made (issue 31). The reasons
/// of one survey are joined in the order given, each once ("misread the paper; brought back
/// revision 2"), cleaned as the server checks them: control characters but tab and line
/// breaks become spaces, and the whole is cut at `maximumLength` characters.
public enum ChangeReasons {
    /// The server's limit (`Schema.changeReasons`).
    public static let maximumLength = 1_000

    /// `pending` (by survey id, as kept between syncs) with the reasons of `entries` added:
    /// each once per survey, in order, the whole cut to `maximumLength`.
    public static func adding(_ entries: some Sequence<EditHistoryEntry>, to pending: [String: String]) -> [String: String] {
        var reasons = pending.mapValues { $0.components(separatedBy: separator) }
        for entry in entries {
            guard let reason = entry.reason.map(cleaned), !reason.isEmpty else { continue }
            if reasons[entry.survey]?.contains(reason) != true { reasons[entry.survey, default: []].append(reason) }
        }
        return reasons.mapValues { cut($0.joined(separator: separator)) }
    }

    static let separator = "; "

    /// Control characters (but tab, line feed, carriage return) as spaces, blanks trimmed.
    public static func cleaned(_ text: String) -> String {
        String(String.UnicodeScalarView(text.unicodeScalars.map { scalar in
            let value = scalar.value
            let control = value < 0x20 && value != 0x09 && value != 0x0A && value != 0x0D || value == 0x7F
            return control ? " " : scalar
        })).trimmingWhitespaceAndNewlines()
    }

    /// At most `maximumLength` characters as PostgreSQL counts them (code points, not what a
    /// reader sees as one: an emoji with a skin tone is two), an ellipsis where cut.
    public static func cut(_ text: String) -> String {
        let scalars = text.unicodeScalars
        guard scalars.count > maximumLength else { return text }
        var kept = String.UnicodeScalarView()
        kept.append(contentsOf: scalars.prefix(maximumLength - 1))
        kept.append("…")
        return String(kept)
    }
}
