/// An incomplete survey (issue 30): an interview the keyer left before it passed the form's
/// rules, kept in the document (so it is on disk at once, syncs and exports) and finished
/// later, as ODK Collect keeps a draft and CSEntry a partial save. It is marked by one key in
/// the survey itself, `incomplete` holding `true` (`<true/>`), so the mark travels wherever
/// the answers do: a sync, `survey merge`, an export and its import, a script reading the
/// file with plistlib. A survey without the key (every survey before this) is complete.
extension Record {
    /// The key of the mark; no question may be named so (`Questionnaire.reservedKeys`).
    public static let incompleteKey = "incomplete"

    /// Whether the survey is marked incomplete. Only `true` marks it: a file's `false` or
    /// text is what an import reads (`incompleteMark(from:)`), never a mark.
    public var isIncomplete: Bool { self[Self.incompleteKey] == .bool(true) }

    /// Marks the survey incomplete, or complete (the key goes).
    public mutating func setIncomplete(_ incomplete: Bool) {
        self[Self.incompleteKey] = incomplete ? .bool(true) : nil
    }

    /// The mark as a file gives it: `true` (a property list's or JSON's boolean, or the text a
    /// CSV export writes, `true`, any case, blanks around) marks the survey; `false`, empty
    /// text or no value leaves it complete; anything else is nil, to be refused by name.
    public static func incompleteMark(from value: PropertyValue?) -> Bool? {
        switch value {
        case nil: return false
        case .bool(let flag)?: return flag
        case .string(let text)?:
            switch text.trimmingWhitespace().lowercased() {
            case "true": return true
            case "false", "": return false
            default: return nil
            }
        default: return nil
        }
    }
}
