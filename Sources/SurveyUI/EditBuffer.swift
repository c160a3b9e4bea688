/// The text of the field being typed, with its caret, and the value it started from so Esc
/// can put it back. Kept apart from the record until committed, so a resize, a refused value
/// or a failed save never touches what is stored.
public struct EditBuffer: Equatable, Sendable {
    public var fieldIndex: Int
    public private(set) var characters: [Character]
    /// Caret position, in characters (0...count).
    public private(set) var caret: Int
    public let original: String

    public init(fieldIndex: Int, text: String, original: String? = nil) {
        self.fieldIndex = fieldIndex
        self.characters = Array(text)
        self.caret = characters.count
        self.original = original ?? text
    }

    public var text: String { String(characters) }
    public var isChanged: Bool { text != original }

    public mutating func insert(_ c: Character) {
        characters.insert(c, at: caret)
        caret += 1
    }

    public mutating func deleteBackward() {
        guard caret > 0 else { return }
        characters.remove(at: caret - 1)
        caret -= 1
    }

    public mutating func deleteForward() {
        guard caret < characters.count else { return }
        characters.remove(at: caret)
    }

    public mutating func moveCaret(by delta: Int) {
        caret = min(max(0, caret + delta), characters.count)
    }

    /// Ctrl-U: everything before the caret.
    public mutating func deleteToStart() {
        characters.removeSubrange(0..<caret)
        caret = 0
    }

    /// Ctrl-K: everything after the caret.
    public mutating func deleteToEnd() {
        characters.removeSubrange(caret..<characters.count)
    }

    /// Ctrl-W / Alt-Backspace: the word before the caret and the blanks after it, as readline.
    public mutating func deleteWordBackward() {
        let start = wordStart(before: caret)
        characters.removeSubrange(start..<caret)
        caret = start
    }

    /// Alt-B / Ctrl-←: to the start of this word, or of the previous one.
    public mutating func moveWordLeft() { caret = wordStart(before: caret) }

    /// Alt-F / Ctrl-→: to the end of this word, or of the next one.
    public mutating func moveWordRight() {
        var i = caret
        while i < characters.count, !Self.isWordCharacter(characters[i]) { i += 1 }
        while i < characters.count, Self.isWordCharacter(characters[i]) { i += 1 }
        caret = i
    }

    private func wordStart(before position: Int) -> Int {
        var i = position
        while i > 0, !Self.isWordCharacter(characters[i - 1]) { i -= 1 }
        while i > 0, Self.isWordCharacter(characters[i - 1]) { i -= 1 }
        return i
    }

    /// Letters and digits in any script; punctuation and blanks separate words.
    static func isWordCharacter(_ c: Character) -> Bool { c.isLetter || c.isNumber }

    public mutating func moveCaretToStart() { caret = 0 }
    public mutating func moveCaretToEnd() { caret = characters.count }
}
