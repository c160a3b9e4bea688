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

    public mutating func moveCaretToStart() { caret = 0 }
    public mutating func moveCaretToEnd() { caret = characters.count }
}
