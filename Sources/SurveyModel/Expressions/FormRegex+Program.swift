import FoundationEssentials

/// One step of a compiled pattern (Thompson's construction).
enum RegexInstruction: Equatable, Sendable {
    case scalar(Unicode.Scalar)
    case set(Int)
    /// Go on at both places (which first does not matter: only whether it matches is asked).
    case split(Int, Int)
    case jump(Int)
    case assert(RegexAssertion)
    case match
}

/// A pattern compiled to instructions, and the search that runs them as a Pike VM: every
/// possible place in the pattern is followed at once, one character of the text at a time,
/// each place at most once per character. So a search takes at most (text length + 1) ×
/// program size steps, whatever the pattern, and never backtracks.
struct RegexProgram: Sendable {
    private(set) var instructions: [RegexInstruction] = []
    let sets: [ScalarSet]

    /// The most instructions a pattern may compile to, once its counts are written out
    /// (`[A-Z]{2,1000}` is about 2,000): a 10,000-character answer then takes at most 50
    /// million steps, a fraction of a second, and a real form's pattern a few hundred.
    static let maximumSize = 5_000

    init(compiling tree: RegexNode, sets: [ScalarSet]) throws(FormRegexError) {
        self.sets = sets
        let size = Self.size(of: tree)
        guard size <= Self.maximumSize else {
            throw .unsupported("the pattern is too large to check (over \(Self.maximumSize) steps once its counts are written out)")
        }
        instructions.reserveCapacity(size + 1)
        emit(tree)
        instructions.append(.match)
    }

    /// The instructions `node` compiles to, saturating far above the limit (so nested counts
    /// such as `((a{1000}){1000}){1000}` are measured without overflow).
    static func size(of node: RegexNode) -> Int {
        let ceiling = 1 << 40
        switch node {
        case .empty: return 0
        case .scalar, .set, .assertion: return 1
        case .sequence(let items): return min(ceiling, items.reduce(0) { min(ceiling, $0 + size(of: $1)) })
        case .alternatives(let branches):
            return min(ceiling, branches.reduce(2 * (branches.count - 1)) { min(ceiling, $0 + size(of: $1)) })
        case .repetition(let inner, let low, let high):
            let each = size(of: inner)
            let required = min(ceiling, low * each)
            let optional = high.map { min(ceiling, ($0 - low) * (each + 1)) } ?? each + 2
            return min(ceiling, required + optional)
        }
    }

    private mutating func emit(_ node: RegexNode) {
        switch node {
        case .empty: break
        case .scalar(let c): instructions.append(.scalar(c))
        case .set(let index): instructions.append(.set(index))
        case .assertion(let kind): instructions.append(.assert(kind))
        case .sequence(let items): items.forEach { emit($0) }
        case .alternatives(let branches):
            var jumps: [Int] = []
            for branch in branches.dropLast() {
                let split = instructions.count
                instructions.append(.split(split + 1, 0))
                emit(branch)
                jumps.append(instructions.count)
                instructions.append(.jump(0))
                instructions[split] = .split(split + 1, instructions.count)
            }
            emit(branches[branches.count - 1])
            for jump in jumps { instructions[jump] = .jump(instructions.count) }
        case .repetition(let inner, let low, let high):
            for _ in 0..<low { emit(inner) }
            if let high {
                // Each optional copy may be skipped, and skipping one skips the rest.
                var splits: [Int] = []
                for _ in low..<high {
                    splits.append(instructions.count)
                    instructions.append(.split(0, 0))
                    emit(inner)
                }
                for split in splits { instructions[split] = .split(split + 1, instructions.count) }
            } else {
                let loop = instructions.count
                instructions.append(.split(0, 0))
                emit(inner)
                instructions.append(.jump(loop))
                instructions[loop] = .split(loop + 1, instructions.count)
            }
        }
    }

    // MARK: Searching

    /// Whether the program matches `text` starting anywhere.
    func search(_ text: [Unicode.Scalar]) -> Bool {
        var current = ThreadList(capacity: instructions.count)
        var next = ThreadList(capacity: instructions.count)
        var stack: [Int] = []
        stack.reserveCapacity(instructions.count)
        // `^…`: once no thread is left, no later start can match either.
        let anchored = instructions.first == .assert(.inputStart)
        var i = 0
        while true {
            if !anchored || i == 0 {
                if follow(0, at: i, in: text, into: &current, stack: &stack) { return true }
            }
            guard i < text.count, current.count > 0 || !anchored else { return false }
            let c = text[i]
            next.clear()
            for pc in current.members {
                let takes: Bool
                switch instructions[pc] {
                case .scalar(let s): takes = s == c
                case .set(let index): takes = sets[index].contains(c)
                default: takes = false
                }
                if takes, follow(pc + 1, at: i + 1, in: text, into: &next, stack: &stack) { return true }
            }
            swap(&current, &next)
            i += 1
        }
    }

    /// Adds `start` and every place reached from it without reading a character (jumps,
    /// splits, assertions that hold at `i`) to `list`; true when one of them is the match.
    private func follow(_ start: Int, at i: Int, in text: [Unicode.Scalar], into list: inout ThreadList, stack: inout [Int]) -> Bool {
        stack.append(start)
        while let pc = stack.popLast() {
            guard !list.contains(pc) else { continue }
            list.insert(pc)
            switch instructions[pc] {
            case .match:
                stack.removeAll(keepingCapacity: true)
                return true
            case .jump(let target): stack.append(target)
            case .split(let a, let b):
                stack.append(b)
                stack.append(a)
            case .assert(let kind): if Self.holds(kind, at: i, in: text) { stack.append(pc + 1) }
            case .scalar, .set: break
            }
        }
        return false
    }

    static func holds(_ kind: RegexAssertion, at i: Int, in text: [Unicode.Scalar]) -> Bool {
        let n = text.count
        /// A line terminator starts at `j` (not the "\n" of a "\r\n").
        func terminatorAt(_ j: Int) -> Bool {
            j < n && ScalarSet.isLineTerminator(text[j]) && !(text[j] == "\n" && j > 0 && text[j - 1] == "\r")
        }
        switch kind {
        case .inputStart: return i == 0
        case .lineStart:
            return i == 0 || (i < n && ScalarSet.isLineTerminator(text[i - 1]) && !(text[i - 1] == "\r" && text[i] == "\n"))
        case .inputEnd:
            if i == n { return true }
            if i == n - 2 { return text[i] == "\r" && text[i + 1] == "\n" }
            return i == n - 1 && terminatorAt(i)
        case .lineEnd: return i == n || terminatorAt(i)
        case .absoluteEnd: return i == n
        case .wordBoundary, .notWordBoundary:
            let before = i > 0 && ScalarSet.isWord(text[i - 1])
            let after = i < n && ScalarSet.isWord(text[i])
            return (before != after) == (kind == .wordBoundary)
        }
    }
}

/// The places being followed, in a sparse set: insertion, membership and clearing in
/// constant time (Briggs and Torczon), so each character costs the places alive, not the
/// program's size.
private struct ThreadList {
    private var dense: [Int]
    private var sparse: [Int]
    private(set) var count = 0

    init(capacity: Int) {
        dense = Array(repeating: 0, count: capacity)
        sparse = Array(repeating: 0, count: capacity)
    }

    func contains(_ pc: Int) -> Bool {
        let slot = sparse[pc]
        return slot < count && dense[slot] == pc
    }

    mutating func insert(_ pc: Int) {
        sparse[pc] = count
        dense[count] = pc
        count += 1
    }

    mutating func clear() { count = 0 }

    var members: ArraySlice<Int> { dense[..<count] }
}
