import FoundationEssentials

/// Rules for document names, which double as file names. Kept apart from file access so
/// the UI can validate a name as it is typed (rename, new) with the very same rules.
public enum DocumentName {
    static let maxCharacters = 100
    static let maxUTF8Bytes = 200
    package static let fileSuffix = ".plist"

    /// What the person meant to type: surrounding blanks and a typed ".plist" removed.
    /// Used for names that are looked up (rename OLD, rm, restore) as well as new ones.
    package static func cleaned(_ raw: String) -> String {
        var name = raw.trimmingWhitespaceAndNewlines()
        if name.lowercased().hasSuffix(fileSuffix) {
            name = String(name.dropLast(fileSuffix.count))
                .trimmingWhitespaceAndNewlines()
        }
        return name
    }

    /// The cleaned name in composed form (NFC), so a name typed with a combining accent and
    /// one typed with a precomposed letter produce the same file name bytes.
    package static func validate(_ raw: String) -> Result<String, DocumentError> {
        let name = TextFolding.composed(cleaned(raw))
        if name.isEmpty {
            return .failure(DocumentError("A document name cannot be empty"))
        }
        if name.contains("/") {
            return .failure(DocumentError("A document name cannot contain \"/\""))
        }
        if name.hasPrefix(".") {
            return .failure(DocumentError("A document name cannot start with \".\""))
        }
        if name.unicodeScalars.contains(where: isRefused) {
            return .failure(DocumentError("A document name cannot contain control characters"))
        }
        if name.count > maxCharacters {
            return .failure(DocumentError("A document name is limited to \(maxCharacters) characters"))
        }
        if name.utf8.count > maxUTF8Bytes {
            return .failure(DocumentError(
                "A document name is limited to \(maxUTF8Bytes) bytes (accented and non-Latin letters take more than one)"))
        }
        return .success(name)
    }

    /// Unlike field answers, a file name has no use for tabs or line breaks either.
    private static func isRefused(_ scalar: Unicode.Scalar) -> Bool {
        scalar.isControlCharacter || XMLCharacters.isForbidden(scalar)
    }

    /// Whether `name` can be used as a file name inside the folder at all. Looser than
    /// `validate`: names of files that already exist may be blank-padded or long, but must
    /// never reach outside the folder or look like a hidden/temporary file.
    package static func isUsable(_ name: String) -> Bool {
        !name.isEmpty && !name.contains("/") && !name.hasPrefix(".") && !name.contains("\0")
    }

    /// Names that a person would consider "the same" (different case or Unicode
    /// composition) compare equal under this key.
    package static func matchKey(_ name: String) -> String {
        TextFolding.composed(TextFolding.caseFolded(TextFolding.composed(name)))
    }

    /// Case-insensitive with numbers in numeric order ("Untitled 2" before "Untitled 10");
    /// ties broken by plain comparison so the order never depends on the directory.
    package static func sortsBefore(_ lhs: String, _ rhs: String) -> Bool {
        switch lhs.compareIgnoringCaseNumerically(rhs) {
        case .some(true): return true
        case .some(false): return false
        case nil: return lhs < rhs
        }
    }

    /// The document to show after deleting `name` from `names` (sorted, including it): the
    /// next one, else the previous; nil when it was the only one. When `name` is not in the
    /// list, the first name sorting after it, else the last.
    public static func neighbour(of name: String, in names: [String]) -> String? {
        guard let index = names.firstIndex(of: name) else {
            return names.first { sortsBefore(name, $0) } ?? names.last
        }
        if index + 1 < names.count { return names[index + 1] }
        if index > 0 { return names[index - 1] }
        return nil
    }
}
