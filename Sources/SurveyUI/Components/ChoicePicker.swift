import FoundationEssentials
import SurveyValues
import SurveyForms

/// A choice question's answers, picked rather than typed (ODK's select widgets, CSPro's
/// value sets): the list `choice_filter` leaves, narrowed by what is typed (label or name,
/// any case or accent), with digits choosing the n-th choice for heads-down entry and Space
/// toggling choices of a multiple-choice question.
public struct ChoicePicker: Equatable, Sendable {
    public internal(set) var entry: EntryNumber
    public let title: String
    public let names: [String]
    public let labels: [String]
    public let multiple: Bool
    /// The code each choice is typed by, when the list's labels (else its names) are all
    /// whole numbers, as a paper form's codes are (years 2022…2028, `1 Yes` / `2 No` with
    /// names 1 and 2): digits then type that code, never a position, so `2022` is 2022 and
    /// not the second choice. nil: digits choose by position (1 = the first shown).
    public let codes: [String]?
    /// What was typed to narrow the list.
    public private(set) var filter = ""
    /// Digits typed so far towards a choice number (lists of ten or more wait for the next).
    public private(set) var digits = ""
    /// The highlighted row, among `visible`.
    public var highlighted = 0
    /// The names chosen so far (a multiple-choice question), in list order.
    public private(set) var selected: [String]
    public private(set) var visible: [Int]

    public init(entry: EntryNumber, title: String, choices: [XLSForm.Choice], labels: [String: String],
                multiple: Bool, current: String) {
        self.entry = entry
        self.title = title
        self.names = choices.map(\.name)
        self.labels = choices.map { labels[$0.name] ?? $0.name }
        self.multiple = multiple
        self.codes = Self.isCodes(self.labels) ? self.labels : Self.isCodes(self.names) ? self.names : nil
        let picked = current.split(separator: " ").map(String.init)
        self.selected = names.filter { picked.contains($0) }
        self.visible = Array(names.indices)
        if let first = names.firstIndex(where: { picked.contains($0) }) { highlighted = first }
    }

    /// The answer as stored: the chosen name, or the names separated by spaces.
    public var answer: String { selected.joined(separator: " ") }

    public var highlightedName: String? {
        visible.indices.contains(highlighted) ? names[visible[highlighted]] : nil
    }

    public mutating func move(by delta: Int) {
        guard !visible.isEmpty else { return }
        highlighted = min(max(0, highlighted + delta), visible.count - 1)
    }

    /// Space on a multiple-choice question.
    public mutating func toggleHighlighted() {
        guard let name = highlightedName else { return }
        if selected.contains(name) { selected.removeAll { $0 == name } } else { selected.append(name) }
        selected = names.filter { selected.contains($0) }
    }

    /// The highlighted choice as the whole answer of a single-choice question.
    public mutating func chooseHighlighted() {
        guard let name = highlightedName else { return }
        selected = [name]
    }

    public enum DigitOutcome: Equatable { case chose(Int), waiting, outOfRange, noSuchCode(String) }

    /// Whole numbers only (ASCII digits, as typed from paper), at least one.
    static func isCodes(_ texts: [String]) -> Bool {
        !texts.isEmpty && texts.allSatisfy { !$0.isEmpty && $0.utf8.allSatisfy { $0 >= 0x30 && $0 <= 0x39 } }
    }

    /// A digit with nothing typed to narrow the list: choice number n (1 = the first shown).
    /// With ten or more choices, "1" waits for a second digit unless no choice has a
    /// two-digit number starting with it. With `codes`, the digits typed so far are a code:
    /// chosen when no other code starts with them, waiting for more (or Enter) when one does,
    /// and refused, never taken for another, when no code starts with them.
    public mutating func typeDigit(_ d: Character) -> DigitOutcome {
        digits.append(d)
        if let codes {
            let typed = digits
            let starting = visible.indices.filter { codes[visible[$0]].hasPrefix(typed) }
            guard let first = starting.first else {
                digits = ""
                return .noSuchCode(typed)
            }
            let exact = starting.first { codes[visible[$0]] == typed }
            highlighted = exact ?? first
            guard let exact, starting.count == 1 else { return .waiting }
            digits = ""
            return .chose(exact + 1)
        }
        guard let n = Int(digits), n >= 1, n <= visible.count else {
            digits = ""
            return .outOfRange
        }
        if n * 10 <= visible.count {
            highlighted = n - 1
            return .waiting
        }
        digits = ""
        highlighted = n - 1
        return .chose(n)
    }

    /// Enter after a waiting digit: that number.
    public mutating func takePendingDigits() -> Bool {
        defer { digits = "" }
        if let codes {
            guard let exact = visible.indices.first(where: { codes[visible[$0]] == digits }) else { return false }
            highlighted = exact
            return true
        }
        guard let n = Int(digits), n >= 1, n <= visible.count else { return false }
        highlighted = n - 1
        return true
    }

    public var isTypingNumber: Bool { !digits.isEmpty }

    public mutating func type(_ c: Character) {
        filter.append(c)
        refilter()
    }

    public mutating func deleteBackward() {
        guard !filter.isEmpty else { return }
        filter.removeLast()
        refilter()
    }

    private mutating func refilter() {
        let words = Self.fold(filter).split(separator: " ").map(String.init)
        visible = names.indices.filter { i in
            let haystack = Self.fold(labels[i]) + " " + Self.fold(names[i])
            return words.allSatisfy { haystack.contains($0) }
        }
        highlighted = 0
    }

    static func fold(_ text: String) -> String {
        TextFolding.folded(text)
    }
}
