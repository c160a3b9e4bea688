import FoundationEssentials
import SurveyValues

/// ODK's string functions (xforms-spec, "String Functions"). Positions and lengths count
/// characters as a reader sees them (grapheme clusters), where JavaRosa counts UTF-16 units:
/// the two agree on every text without emoji or combining marks.
extension FormFunction {
    static let strings: [FormFunction] = [
        FormFunction(name: "string", arity: 1...1) { .string($0.string(0)) },
        // All values of node-set arguments, concatenated (spec: "Deviates from XPath 1.0").
        FormFunction(name: "concat", arity: 0...unbounded) { call in
            .string(call.allNodes().map(\.string).joined())
        },
        FormFunction(name: "join", arity: 1...unbounded) { call in
            .string(call.allNodes(from: 1).map(\.string).joined(separator: call.string(0)))
        },
        // 0-based start, end exclusive; negative counts from the end (JavaRosa).
        FormFunction(name: "substr", arity: 2...3) { call in
            let text = Array(call.string(0))
            func index(_ n: Double) -> Int {
                guard !n.isNaN else { return 0 }
                let i = n.isInfinite ? (n > 0 ? text.count : -text.count - 1) : Int(max(min(n, 1e9), -1e9).rounded(.towardZero))
                return i < 0 ? text.count + i : i
            }
            let start = min(max(0, index(call.number(1))), text.count)
            let end = call.count > 2 ? min(max(0, index(call.number(2))), text.count) : text.count
            return .string(start <= end ? String(text[start..<end]) : "")
        },
        FormFunction(name: "substring-before", arity: 2...2) { call in
            let text = call.string(0), part = call.string(1)
            guard let range = text.firstRange(of: part) else { return .string("") }
            return .string(String(text[..<range.lowerBound]))
        },
        FormFunction(name: "substring-after", arity: 2...2) { call in
            let text = call.string(0), part = call.string(1)
            guard let range = text.firstRange(of: part) else { return .string("") }
            return .string(String(text[range.upperBound...]))
        },
        // Each character of the second string becomes the one at its place in the third, or
        // is dropped when the third is shorter (XPath 1.0).
        FormFunction(name: "translate", arity: 3...3) { call in
            let from = Array(call.string(1)), to = Array(call.string(2))
            var result = ""
            for c in call.string(0) {
                if let i = from.firstIndex(of: c) { if i < to.count { result.append(to[i]) } }
                else { result.append(c) }
            }
            return .string(result)
        },
        FormFunction(name: "contains", arity: 2...2) { call in
            let needle = call.string(1)
            return .boolean(needle.isEmpty || call.string(0).contains(needle))
        },
        FormFunction(name: "starts-with", arity: 2...2) { .boolean($0.string(0).hasPrefix($0.string(1))) },
        FormFunction(name: "ends-with", arity: 2...2) { .boolean($0.string(0).hasSuffix($0.string(1))) },
        // Without an argument, the question's own answer (XPath 1.0; JavaRosa too).
        FormFunction(name: "string-length", arity: 0...1) { call in
            .number(Double((call.count == 1 ? call.string(0) : call.context.current.string).count))
        },
        FormFunction(name: "normalize-space", arity: 0...1) { call in
            let text = call.count == 1 ? call.string(0) : call.context.current.string
            return .string(text.split(whereSeparator: { $0.isWhitespace }).joined(separator: " "))
        },
        // A version 4 UUID, or (with a length) that many random letters and digits.
        FormFunction(name: "uuid", arity: 0...1) { call in
            let random = call.context.random
            if call.count == 1 {
                let n = call.number(0)
                let length = n.isNaN || n < 0 ? 0 : Int(min(n, 10_000))
                let alphabet = Array("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz")
                return .string(String((0..<length).map { _ in alphabet[min(alphabet.count - 1, Int(random() * Double(alphabet.count)))] }))
            }
            var bytes = (0..<16).map { _ in UInt8(min(255, Int(random() * 256))) }
            bytes[6] = bytes[6] & 0x0F | 0x40   // version 4
            bytes[8] = bytes[8] & 0x3F | 0x80   // RFC 4122 variant
            let hex = bytes.map { String(printf: "%02x", $0) }.joined()
            let cut = [8, 4, 4, 4, 12]
            var parts: [String] = [], rest = Substring(hex)
            for n in cut { parts.append(String(rest.prefix(n))); rest = rest.dropFirst(n) }
            return .string(parts.joined(separator: "-"))
        },
    ]
}
