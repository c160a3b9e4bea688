import FoundationEssentials

/// A survey the team's store holds that this laptop cannot keep (answers that are not a JSON
/// object, a `null`, a number beyond a double, nesting deeper than the ledger keeps; an empty
/// or control-character id): not applied, never stopping the rest of a pull, named by
/// `survey sync` and counted in F4, kept in the ledger until a good version of it comes.
/// Every text is printable (control characters written as `\u{7}`) and bounded, so the
/// ledger that keeps it is always one the next sync reads.
public struct SetAsideRow: Equatable, Sendable {
    /// The id as the server has it, made printable; "" for an empty id.
    public var id: String
    /// The login role that wrote it.
    public var owner: String
    public var reason: String

    /// Nesting of a survey's answers, the answers object counted as 1, that the team keeps:
    /// the ledger puts a conflict's answers four levels below its root, and the fast reader
    /// (`PropertyListScanner`) takes 64 levels, leaf included; a deeper ledger would go to
    /// Foundation's decoder on every read, seconds for one 500-level survey and for a large
    /// ledger (DECISIONS.md). The schema's check (Migrations) is the same.
    public static let maximumAnswerDepth = 50
    /// The longest instance id kept, in characters; the schema's check is the same.
    public static let maximumIDLength = 1_000
    /// At most this many are kept in the ledger, the newest.
    public static let kept = 1_000

    public init(id: String, owner: String, reason: String) {
        self.id = Self.printable(id, limit: Self.maximumIDLength + 10)
        self.owner = Self.printable(owner, limit: 200)
        self.reason = Self.printable(reason, limit: 500)
    }

    /// "uuid:x by ana: the answers are not a JSON object", one line.
    public var line: String {
        (id.isEmpty ? "a survey with an empty id" : id) + " by \(owner): \(reason)"
    }

    /// Why `id` cannot key a survey here, or nil when it can.
    public static func problem(withID id: String) -> String? {
        // Printable ASCII, as survey's own ids are: no control character, a character a byte.
        var id = id
        if id.withUTF8({ !$0.isEmpty && $0.count <= maximumIDLength && $0.allSatisfy { $0 >= 0x20 && $0 < 0x7F } }) { return nil }
        if id.isEmpty { return "its instance id is empty" }
        if id.unicodeScalars.contains(where: { $0.isControlCharacter }) { return "its instance id holds a control character" }
        // Code points, as PostgreSQL's char_length counts them, so the laptop never sends an
        // id the schema's check refuses (a refused row would fail its whole push batch).
        if id.unicodeScalars.count > maximumIDLength { return "its instance id is longer than \(maximumIDLength) characters" }
        return nil
    }

    /// Why `answers` cannot be kept here, or nil when they can. Counted as the team's store
    /// keeps them (`PropertyValue.jsonObjectText`), where a date, data, NaN or an infinity is
    /// an object of its own, so nothing this laptop sends is refused by the schema's check.
    public static func problem(withAnswers answers: [String: PropertyValue]) -> String? {
        PropertyValue.storedNesting(of: answers, exceeds: maximumAnswerDepth)
            ? "its answers nest deeper than \(maximumAnswerDepth) levels" : nil
    }

    static func printable(_ text: String, limit: Int) -> String {
        var out = ""
        for (count, scalar) in text.unicodeScalars.enumerated() {
            if count >= limit { return out + "…" }
            if scalar.isControlCharacter || scalar == "\u{FFFE}" || scalar == "\u{FFFF}" {
                out += "\\u{" + String(scalar.value, radix: 16) + "}"
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
