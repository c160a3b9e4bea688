/// One text box (bubbles' `textinput.Model`): its text, its caret, the value it started
/// from, and the shell's editing keys. Every text box of the app is one: the form's field
/// being typed (`EditBuffer`), the rename field, the save-as name and the `/` filter line;
/// `TextFieldView` draws any of them.
public struct TextInput: Equatable, Sendable {
    public private(set) var characters: [Character]
    /// Caret position, in characters (0...count).
    public private(set) var caret: Int
    public let original: String
    /// The whole text is selected, as a field arrived at heads-down shows its answer: the
    /// first character typed or pasted replaces it (a keyer correcting from paper types the
    /// new value, CSPro's way), and any other key drops the selection and acts as usual, so
    /// changing part of an answer stays deliberate.
    public private(set) var selectsAll: Bool

    public init(text: String, original: String? = nil, selectingAll: Bool = false) {
        self.characters = Array(text)
        self.caret = characters.count
        self.original = original ?? text
        self.selectsAll = selectingAll && !characters.isEmpty
    }

    public var text: String { String(characters) }
    public var isChanged: Bool { text != original }

    /// A key typed into the box: a character (already judged typable by whoever owns the
    /// box), pasted text, or one of the shell's editing keys.
    public mutating func apply(_ action: TextAction) {
        switch action {
        case .insert, .paste: break
        default: selectsAll = false
        }
        switch action {
        case .insert(let c): insert(c)
        case .paste(let text): for c in text { insert(c) }
        case .deleteBackward: deleteBackward()
        case .deleteForward: deleteForward()
        case .caretLeft: moveCaret(by: -1)
        case .caretRight: moveCaret(by: 1)
        case .caretHome: moveCaretToStart()
        case .caretEnd: moveCaretToEnd()
        case .caretWordLeft: moveWordLeft()
        case .caretWordRight: moveWordRight()
        case .deleteWordBackward: deleteWordBackward()
        case .deleteToStart: deleteToStart()
        case .deleteToEnd: deleteToEnd()
        }
    }

    public mutating func insert(_ c: Character) {
        if selectsAll {
            characters.removeAll()
            caret = 0
            selectsAll = false
        }
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

/// The form's field being typed: its text box, and which field it is. Kept apart from the
/// record until committed, so a resize, a refused value or a failed save never touches what
/// is stored; `original` is what Esc puts back.
public struct EditBuffer: Equatable, Sendable {
    /// The walk's entry being typed.
    public var entry: EntryNumber
    public var input: TextInput

    public init(entry: EntryNumber, text: String, original: String? = nil, selectingAll: Bool = false) {
        self.entry = entry
        self.input = TextInput(text: text, original: original, selectingAll: selectingAll)
    }

    public var text: String { input.text }
    public var isChanged: Bool { input.isChanged }
    public var original: String { input.original }
    public var caret: Int { input.caret }
    public var selectsAll: Bool { input.selectsAll }
}
