/// XML 1.0 cannot carry C0 controls (other than tab, LF, CR), U+FFFE or U+FFFF, not even
/// as character references, and Foundation writes them raw anyway, producing files that
/// plistlib and Foundation itself then refuse. These helpers find and replace them.
package enum XMLCharacters {
    static let replacement: Unicode.Scalar = "\u{FFFD}"

    package static func isForbidden(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x09, 0x0A, 0x0D: return false
        case 0x00..<0x20, 0xFFFE, 0xFFFF: return true
        default: return false
        }
    }

    /// `isForbidden` read off valid UTF-8: the length of the forbidden character starting at
    /// `i` (1 for a control, 3 for U+FFFE or U+FFFF), or 0. For saving and counting straight
    /// from a survey's packed bytes.
    static func forbiddenLength(at i: Int, in text: UnsafeBufferPointer<UInt8>) -> Int {
        let byte = text[i]
        if byte < 0x20 { return byte == 0x09 || byte == 0x0A || byte == 0x0D ? 0 : 1 }
        if byte == 0xEF, i + 2 < text.count, text[i + 1] == 0xBF, text[i + 2] >= 0xBE { return 3 }
        return 0
    }

    /// Forbidden characters in valid UTF-8.
    package static func forbiddenCount(in text: UnsafeBufferPointer<UInt8>) -> Int {
        var count = 0, i = 0
        while i < text.count {
            let length = forbiddenLength(at: i, in: text)
            if length > 0 { count += 1 }
            i += max(1, length)
        }
        return count
    }

    package static func forbiddenCount(in text: String) -> Int {
        var text = text
        return text.withUTF8 { forbiddenCount(in: $0) }
    }

    package static func replacingForbidden(in text: String) -> String {
        guard forbiddenCount(in: text) > 0 else { return text }
        var scalars = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            scalars.append(isForbidden(scalar) ? replacement : scalar)
        }
        return String(scalars)
    }
}

extension PropertyValue {
    /// Forbidden characters in every string, nested value and dictionary key.
    package var forbiddenCharacterCount: Int {
        switch self {
        case .string(let text):
            return XMLCharacters.forbiddenCount(in: text)
        case .array(let items):
            return items.reduce(0) { $0 + $1.forbiddenCharacterCount }
        case .dictionary(let entries):
            return entries.reduce(0) {
                $0 + XMLCharacters.forbiddenCount(in: $1.key) + $1.value.forbiddenCharacterCount
            }
        case .integer, .real, .bool, .date, .data:
            return 0
        }
    }

    /// This value with every forbidden character replaced by U+FFFD. Should two keys of one
    /// dictionary become equal, the one that sorts first (by original key) is kept, so the
    /// outcome never depends on hash order.
    func replacingForbiddenCharacters() -> PropertyValue {
        switch self {
        case .string(let text):
            return .string(XMLCharacters.replacingForbidden(in: text))
        case .array(let items):
            return .array(items.map { $0.replacingForbiddenCharacters() })
        case .dictionary(let entries):
            var cleaned: [String: PropertyValue] = [:]
            for key in entries.keys.sorted() {
                let newKey = XMLCharacters.replacingForbidden(in: key)
                if cleaned[newKey] == nil, let value = entries[key] {
                    cleaned[newKey] = value.replacingForbiddenCharacters()
                }
            }
            return .dictionary(cleaned)
        case .integer, .real, .bool, .date, .data:
            return self
        }
    }
}
