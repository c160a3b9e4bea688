import FoundationEssentials
import SurveyValues

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
    /// Each set's verdict on the 128 ASCII characters, two words of bits: most answers are
    /// ASCII, and a set's arrays cost reference counting at every character.
    private let ascii: [(low: UInt64, high: UInt64)]

    /// The most instructions a pattern may compile to, once its counts are written out
    /// (`[A-Z]{2,1000}` is about 2,000): a 10,000-character answer then takes at most 50
    /// million steps, about a quarter of a second, and a real form's pattern (a few dozen
    /// steps) a millisecond.
    static let maximumSize = 5_000

    init(compiling tree: RegexNode, sets: [ScalarSet]) throws(FormRegexError) {
        self.sets = sets
        ascii = sets.map { set in
            var bits: (low: UInt64, high: UInt64) = (0, 0)
            for v in UInt32(0)..<128 where set.contains(Unicode.Scalar(v)!) {
                if v < 64 { bits.low |= 1 << UInt64(v) } else { bits.high |= 1 << UInt64(v - 64) }
            }
            return bits
        }
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
        // `^…`: once no thread is left, no later start can match either.
        let anchored = instructions.first == .assert(.inputStart)
        let size = instructions.count
        // Two thread lists (dense and sparse halves each) and the walk's stack, which holds
        // at most two places per place visited.
        let memory = UnsafeMutablePointer<Int>.allocate(capacity: 6 * size + 1)
        defer { memory.deallocate() }
        memory.initialize(repeating: 0, count: 6 * size + 1)
        return instructions.withUnsafeBufferPointer { program in
            text.withUnsafeBufferPointer { text in
                ascii.withUnsafeBufferPointer { ascii in
                    var vm = PikeVM(program: program, text: text, ascii: ascii, sets: sets, memory: memory)
                    return vm.run(anchored: anchored)
                }
            }
        }
    }

    static func holds(_ kind: RegexAssertion, at i: Int, in text: UnsafeBufferPointer<Unicode.Scalar>) -> Bool {
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

/// One search: the places being followed at the current character and the next, each a
/// sparse set (Briggs and Torczon: insertion, membership and clearing in constant time, so a
/// character costs the places alive, not the program's size), over memory `search` owns.
/// Unsafe buffers: with checked arrays, `[a-z]{0,1000}[a-z]{0,1000}b` (4,000 steps) on 10,000
/// characters took 1.2 s in a release build, most of it in bounds and uniqueness checks; 0.2 s
/// here.
private struct PikeVM {
    let program: UnsafeBufferPointer<RegexInstruction>
    let text: UnsafeBufferPointer<Unicode.Scalar>
    let ascii: UnsafeBufferPointer<(low: UInt64, high: UInt64)>
    let sets: [ScalarSet]
    /// The current list's dense and sparse halves, then the next list's.
    var current: (dense: UnsafeMutablePointer<Int>, sparse: UnsafeMutablePointer<Int>, count: Int)
    var next: (dense: UnsafeMutablePointer<Int>, sparse: UnsafeMutablePointer<Int>, count: Int)
    let stack: UnsafeMutablePointer<Int>

    init(program: UnsafeBufferPointer<RegexInstruction>, text: UnsafeBufferPointer<Unicode.Scalar>,
         ascii: UnsafeBufferPointer<(low: UInt64, high: UInt64)>, sets: [ScalarSet], memory: UnsafeMutablePointer<Int>) {
        self.program = program
        self.text = text
        self.ascii = ascii
        self.sets = sets
        let n = program.count
        current = (memory, memory + n, 0)
        next = (memory + 2 * n, memory + 3 * n, 0)
        stack = memory + 4 * n
    }

    mutating func run(anchored: Bool) -> Bool {
        var i = 0
        while true {
            if !anchored || i == 0 {
                if follow(0, at: i, intoNext: false) { return true }
            }
            guard i < text.count, current.count > 0 || !anchored else { return false }
            let c = text[i]
            let v = c.value
            next.count = 0
            for slot in 0..<current.count {
                let pc = current.dense[slot]
                let takes: Bool
                switch program[pc] {
                case .scalar(let s): takes = s == c
                case .set(let index):
                    if v < 64 { takes = ascii[index].low & (1 << UInt64(v)) != 0 }
                    else if v < 128 { takes = ascii[index].high & (1 << UInt64(v - 64)) != 0 }
                    else { takes = sets[index].contains(c) }
                default: takes = false
                }
                guard takes else { continue }
                // Most steps lead to another character to read: add it without the walk.
                switch program[pc + 1] {
                case .scalar, .set: if !Self.contains(next, pc + 1) { Self.insert(&next, pc + 1) }
                default: if follow(pc + 1, at: i + 1, intoNext: true) { return true }
                }
            }
            swap(&current, &next)
            i += 1
        }
    }

    /// Adds `start` and every place reached from it without reading a character (jumps,
    /// splits, assertions that hold at `i`) to a list; true when one of them is the match.
    private mutating func follow(_ start: Int, at i: Int, intoNext: Bool) -> Bool {
        var list = intoNext ? next : current
        defer { if intoNext { next = list } else { current = list } }
        var depth = 1
        stack[0] = start
        while depth > 0 {
            depth -= 1
            let pc = stack[depth]
            guard !Self.contains(list, pc) else { continue }
            Self.insert(&list, pc)
            switch program[pc] {
            case .match: return true
            case .jump(let target):
                stack[depth] = target
                depth += 1
            case .split(let a, let b):
                stack[depth] = b
                stack[depth + 1] = a
                depth += 2
            case .assert(let kind):
                if RegexProgram.holds(kind, at: i, in: text) {
                    stack[depth] = pc + 1
                    depth += 1
                }
            case .scalar, .set: break
            }
        }
        return false
    }

    private static func contains(_ list: (dense: UnsafeMutablePointer<Int>, sparse: UnsafeMutablePointer<Int>, count: Int), _ pc: Int) -> Bool {
        let slot = list.sparse[pc]
        return slot < list.count && list.dense[slot] == pc
    }

    private static func insert(_ list: inout (dense: UnsafeMutablePointer<Int>, sparse: UnsafeMutablePointer<Int>, count: Int), _ pc: Int) {
        list.sparse[pc] = list.count
        list.dense[list.count] = pc
        list.count += 1
    }
}
