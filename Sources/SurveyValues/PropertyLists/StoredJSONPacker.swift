import FoundationEssentials

extension PropertyValue {
    /// A survey's answers from the JSON text the team's store keeps (`jsonObjectText`), packed
    /// as a `Record` keeps them, or refused (`DocumentError`) with the reason a pull sets the
    /// row aside for: what `answers(jsonObject:)` refuses, then answers nesting deeper than
    /// `SetAsideRow.maximumAnswerDepth`.
    ///
    /// Read straight into the packed bytes (`StoredJSONPacker`), without a `JSONValue` tree or a
    /// dictionary: a first pull of 100,000 surveys spent most of its reading time building and
    /// dropping both (issue 28). Anything the direct reader is not sure of (a refusal, a key
    /// spelled beyond ASCII, a `$dict` holding a tag, deep nesting) is read the old way, so
    /// the result and the reason are always the old ones.
    public static func storedAnswers(jsonObject bytes: UnsafeBufferPointer<UInt8>) throws -> Record {
        var reader = StoredAnswersReader()
        return try reader.answers(jsonObject: bytes)
    }

    /// The same through `answers(jsonObject:)`, a dictionary and `Record(_:)`: the old path,
    /// which the direct one falls back on and is compared with.
    public static func storedAnswersThroughDictionary(jsonObject bytes: UnsafeBufferPointer<UInt8>) throws -> Record {
        let answers = try answers(jsonObject: bytes)
        if let problem = SetAsideRow.problem(withAnswers: answers) { throw DocumentError(problem) }
        return Record(answers)
    }
}

/// `PropertyValue.storedAnswers(jsonObject:)` for one survey after another (a pull's batch),
/// its working buffers kept from one to the next: the survey's bytes are then its one
/// allocation.
public struct StoredAnswersReader {
    private var packer = StoredJSONPacker()

    public init() {}

    public mutating func answers(jsonObject bytes: UnsafeBufferPointer<UInt8>) throws -> Record {
        if let packed = packer.answers(bytes) { return Record(packed: packed) }
        return try PropertyValue.storedAnswersThroughDictionary(jsonObject: bytes)
    }
}

/// Reads the JSON text of a survey's answers straight into `PackedAnswers` bytes, converting
/// as `PropertyValue.answers(jsonObject:)` does (`$date`, `$data`, `$real`, `$dict`; a whole
/// number beyond 64 bits as a real) and measuring the nesting `SetAsideRow.problem(withAnswers:)`
/// measures. It answers only when it is sure: nil for anything the old path would refuse and
/// for what it leaves to it (keys beyond ASCII, whose order and equality are Unicode's; a
/// `$dict` whose body is itself a tag; nesting past `maximumDepth`; a surrogate `\u` escape),
/// and the caller reads those the old way. Recursion is bounded by `maximumDepth`.
struct StoredJSONPacker {
    private var bytes = UnsafeBufferPointer<UInt8>(start: nil, count: 0)
    private var i = 0
    private var depth = 0
    /// The packed bytes being written.
    private var out: [UInt8] = []
    /// The members of the objects being read, innermost last.
    private var members: [Member] = []
    /// Their keys' UTF-8.
    private var keys: [UInt8] = []
    /// Where a string with escapes is decoded.
    private var text: [UInt8] = []
    /// Where an object's entries are put in order.
    private var sorted: [UInt8] = []

    /// Raw JSON nesting past which the old reader decides (it takes 512, and refuses answers
    /// nesting past 50 levels as stored; a `$dict` wrapper is a raw level but no stored one).
    static let maximumDepth = 64

    /// How many levels a value counts for in `PropertyValue.storedNesting`, below its own
    /// depth: none for plain text, numbers and booleans.
    private static let noLevel = Int.min / 4

    private struct Member {
        var key: Range<Int>
        /// The whole entry, key and value, in `out`.
        var entry: Range<Int>
        var valueStart: Int
        var height: Int
        var wasTag: Bool
    }

    init() {}

    /// The answers of `bytes` packed (entries sorted, no spare capacity), or nil: read them the
    /// old way. The bytes are only looked at during the call.
    mutating func answers(_ bytes: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
        self.bytes = bytes
        defer { self.bytes = UnsafeBufferPointer(start: nil, count: 0) }
        (i, depth) = (0, 0)
        out.removeAll(keepingCapacity: true)
        members.removeAll(keepingCapacity: true)
        keys.removeAll(keepingCapacity: true)
        skipSpace()
        guard i < bytes.count, bytes[i] == UInt8(ascii: "{"), object(topLevel: true) != nil else { return nil }
        skipSpace()
        guard i == bytes.count else { return nil }
        return PackedAnswers.exactCopy(out)
    }

    private mutating func skipSpace() {
        while i < bytes.count {
            switch bytes[i] {
            case 0x20, 0x09, 0x0A, 0x0D: i += 1
            default: return
            }
        }
    }

    /// One value at `i`, appended to `out`: its stored height, and whether it was a tag.
    private mutating func value() -> (height: Int, wasTag: Bool)? {
        guard i < bytes.count else { return nil }
        switch bytes[i] {
        case UInt8(ascii: "{"):
            return object(topLevel: false)
        case UInt8(ascii: "["):
            return array().map { ($0, false) }
        case UInt8(ascii: "\""):
            guard let content = string() else { return nil }
            if content.decoded {
                text.withUnsafeBufferPointer { PackedAnswers.appendText(UnsafeBufferPointer(rebasing: $0[content.range]), to: &out) }
            } else {
                PackedAnswers.appendText(UnsafeBufferPointer(rebasing: bytes[content.range]), to: &out)
            }
            return (Self.noLevel, false)
        case UInt8(ascii: "t"):
            guard word("true") else { return nil }
            out.append(PackedAnswers.trueTag)
            return (Self.noLevel, false)
        case UInt8(ascii: "f"):
            guard word("false") else { return nil }
            out.append(PackedAnswers.falseTag)
            return (Self.noLevel, false)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return number().map { ($0, false) }
        default:
            return nil   // null, or not JSON
        }
    }

    private mutating func word(_ spelling: StaticString) -> Bool {
        let count = spelling.utf8CodeUnitCount
        guard i + count <= bytes.count else { return false }
        for k in 0..<count where bytes[i + k] != spelling.utf8Start[k] { return false }
        i += count
        return true
    }

    // MARK: Objects

    private mutating func object(topLevel: Bool) -> (height: Int, wasTag: Bool)? {
        depth += 1
        defer { depth -= 1 }
        guard depth <= Self.maximumDepth else { return nil }
        let start = out.count
        let base = members.count
        let keyBase = keys.count
        defer {
            members.removeSubrange(base...)
            keys.removeSubrange(keyBase...)
        }
        i += 1
        skipSpace()
        if i < bytes.count, bytes[i] == UInt8(ascii: "}") {
            i += 1
        } else {
            while true {
                skipSpace()
                guard i < bytes.count, bytes[i] == UInt8(ascii: "\"") else { return nil }
                let keyStart = keys.count
                guard appendKey() else { return nil }
                let key = keyStart..<keys.count
                skipSpace()
                guard i < bytes.count, bytes[i] == UInt8(ascii: ":") else { return nil }
                i += 1
                skipSpace()
                let entryStart = out.count
                appendPackedKey(key)
                let valueStart = out.count
                guard let (height, wasTag) = value() else { return nil }
                members.append(Member(key: key, entry: entryStart..<out.count, valueStart: valueStart, height: height, wasTag: wasTag))
                skipSpace()
                guard i < bytes.count else { return nil }
                if bytes[i] == UInt8(ascii: ",") { i += 1; continue }
                guard bytes[i] == UInt8(ascii: "}") else { return nil }
                i += 1
                break
            }
        }
        let inPlace = sortMembers(from: base)
        let order = base..<members.count
        if !topLevel, order.count == 1 {
            let only = members[base]
            if keys[only.key].first == UInt8(ascii: "$") {
                if let tagged = tagged(only, replacingFrom: start) { return tagged }
                if isTag(only.key) { return nil }
            }
        }
        return finish(order, inPlace: inPlace, from: start, topLevel: topLevel)
    }

    /// Puts the members from `base` in key order, in place, a repeated key's last value kept
    /// (as the reader and a dictionary keep it); whether they were so already.
    private mutating func sortMembers(from base: Int) -> Bool {
        var inPlace = true
        keys.withUnsafeBufferPointer { k in
            func key(_ member: Member) -> UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(rebasing: k[member.key]) }
            // Insertion sort, stable: a survey's keys are few, and often in order already.
            var a = base + 1
            while a < members.count {
                let moving = members[a]
                var b = a
                while b > base, PackedAnswers.precedes(key(moving), key(members[b - 1])) {
                    members[b] = members[b - 1]
                    b -= 1
                }
                if b != a {
                    members[b] = moving
                    inPlace = false
                }
                a += 1
            }
            var kept = base
            for m in base..<members.count {
                if kept > base, !PackedAnswers.precedes(key(members[kept - 1]), key(members[m])) {
                    members[kept - 1] = members[m]   // the same key: the later value
                    inPlace = false
                } else {
                    members[kept] = members[m]
                    kept += 1
                }
            }
            members.removeSubrange(kept...)
        }
        return inPlace
    }

    /// Writes the object from `start` on as a dictionary (the answers' own entries when
    /// `topLevel`) with its members in `order`; its stored height.
    private mutating func finish(_ order: Range<Int>, inPlace: Bool, from start: Int, topLevel: Bool) -> (height: Int, wasTag: Bool)? {
        var children = Self.noLevel
        for m in order { children = max(children, members[m].height) }
        if topLevel {
            // The answers object is level 1; each answer is checked at level 2.
            guard 2 + children <= SetAsideRow.maximumAnswerDepth else { return nil }
            if !inPlace { rewrite(order, from: start, header: []) }
            return (Self.noLevel, false)
        }
        var header: [UInt8] = [PackedAnswers.dictionaryTag]
        PackedAnswers.appendNumber(UInt64(order.count), to: &header)
        if inPlace {
            out.insert(contentsOf: header, at: start)
        } else {
            rewrite(order, from: start, header: header)
        }
        let needsTag = order.count == 1 && keys[members[order.lowerBound].key].first == UInt8(ascii: "$")
        let own = needsTag ? 1 : 0
        return (max(own, own + 1 + children), false)
    }

    /// Replaces `out[start...]` with `header` then the members' entries in `order`.
    private mutating func rewrite(_ order: Range<Int>, from start: Int, header: [UInt8]) {
        sorted.removeAll(keepingCapacity: true)
        sorted.append(contentsOf: header)
        for m in order { sorted.append(contentsOf: out[members[m].entry]) }
        out.replaceSubrange(start..<out.count, with: sorted)
    }

    private func isTag(_ key: Range<Int>) -> Bool {
        let spelling = keys[key]
        return [PropertyValue.StoredTag.date, PropertyValue.StoredTag.data, PropertyValue.StoredTag.real,
                PropertyValue.StoredTag.dictionary].contains { spelling.elementsEqual($0.utf8) }
    }

    /// `{"$tag": body}` written at `start` as the value it stands for; nil when the key is no
    /// tag, or when the body is not what its tag says (then the caller gives up, as the old
    /// path refuses it).
    private mutating func tagged(_ only: Member, replacingFrom start: Int) -> (height: Int, wasTag: Bool)? {
        let spelling = keys[only.key]
        let body = only.valueStart..<only.entry.upperBound
        func bodyText() -> String? {
            guard out[body.lowerBound] == PackedAnswers.stringTag else { return nil }
            return out.withUnsafeBufferPointer { buffer in
                var at = body.lowerBound + 1
                let length = Int(PackedAnswers.readNumber(buffer, &at))
                return String(decoding: UnsafeBufferPointer(rebasing: buffer[at..<(at + length)]), as: UTF8.self)
            }
        }
        var value: [UInt8] = []
        if spelling.elementsEqual(PropertyValue.StoredTag.date.utf8) {
            guard let text = bodyText(), let date = try? PropertyListDate.date(text) else { return nil }
            PackedAnswers.appendValue(.date(date), to: &value)
        } else if spelling.elementsEqual(PropertyValue.StoredTag.data.utf8) {
            guard let text = bodyText(), let data = Data(base64Encoded: text) else { return nil }
            PackedAnswers.appendValue(.data(data), to: &value)
        } else if spelling.elementsEqual(PropertyValue.StoredTag.real.utf8) {
            let number: Double
            switch bodyText() {
            case "NaN": number = .nan
            case "Infinity": number = .infinity
            case "-Infinity": number = -.infinity
            case "-0.0": number = -0.0
            default: return nil
            }
            PackedAnswers.appendValue(.real(number), to: &value)
        } else if spelling.elementsEqual(PropertyValue.StoredTag.dictionary.utf8) {
            // The body's members are the dictionary; a body that was itself read as a tag
            // would have to be read again as members: left to the old path.
            guard out[body.lowerBound] == PackedAnswers.dictionaryTag, !only.wasTag else { return nil }
            let bodyBytes = Array(out[body])
            out.replaceSubrange(start..<out.count, with: bodyBytes)
            return (only.height, true)
        } else {
            return nil
        }
        out.replaceSubrange(start..<out.count, with: value)
        return (0, true)   // a date, data or a tagged real: a level of its own
    }

    /// A key's UTF-8 appended to `keys`; false (give up) for one beyond ASCII.
    private mutating func appendKey() -> Bool {
        guard let content = string() else { return false }
        let start = keys.count
        if content.decoded {
            keys.append(contentsOf: text[content.range])
        } else {
            keys.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[content.range]))
        }
        return !keys[start...].contains { $0 >= 0x80 }
    }

    /// The key at `key` in `keys` appended to `out` as `PackedAnswers.appendKey` writes it
    /// (an ASCII key's byte is found by its bytes alone).
    private mutating func appendPackedKey(_ key: Range<Int>) {
        let code = keys.withUnsafeBufferPointer { PackedAnswers.code(forKeyBytes: UnsafeBufferPointer(rebasing: $0[key])) }
        if code != 0 {
            out.append(code)
        } else {
            out.append(0)
            PackedAnswers.appendNumber(UInt64(key.count), to: &out)
            out.append(contentsOf: keys[key])
        }
    }

    // MARK: Arrays

    private mutating func array() -> Int? {
        depth += 1
        defer { depth -= 1 }
        guard depth <= Self.maximumDepth else { return nil }
        let start = out.count
        i += 1
        var count = 0
        var children = Self.noLevel
        skipSpace()
        if i < bytes.count, bytes[i] == UInt8(ascii: "]") {
            i += 1
        } else {
            while true {
                skipSpace()
                guard let (height, _) = value() else { return nil }
                children = max(children, height)
                count += 1
                skipSpace()
                guard i < bytes.count else { return nil }
                if bytes[i] == UInt8(ascii: ",") { i += 1; continue }
                guard bytes[i] == UInt8(ascii: "]") else { return nil }
                i += 1
                break
            }
        }
        var header: [UInt8] = [PackedAnswers.arrayTag]
        PackedAnswers.appendNumber(UInt64(count), to: &header)
        out.insert(contentsOf: header, at: start)
        return max(0, 1 + children)
    }

    // MARK: Numbers

    /// A number appended as the old path reads it: a whole number that fits 64 bits as an
    /// integer, any other as a finite real; its stored height (a negative zero is a level).
    private mutating func number() -> Int? {
        let start = i
        var negative = false
        if bytes[i] == UInt8(ascii: "-") { negative = true; i += 1 }
        let whole = i
        while i < bytes.count, bytes[i] >= 0x30, bytes[i] <= 0x39 { i += 1 }
        let digits = i - whole
        guard digits > 0, bytes[whole] != UInt8(ascii: "0") || digits == 1 else { return nil }
        var isInteger = true
        if i < bytes.count, bytes[i] == UInt8(ascii: ".") {
            i += 1
            isInteger = false
            let from = i
            while i < bytes.count, bytes[i] >= 0x30, bytes[i] <= 0x39 { i += 1 }
            guard i > from else { return nil }
        }
        if i < bytes.count, bytes[i] == UInt8(ascii: "e") || bytes[i] == UInt8(ascii: "E") {
            i += 1
            isInteger = false
            if i < bytes.count, bytes[i] == UInt8(ascii: "+") || bytes[i] == UInt8(ascii: "-") { i += 1 }
            let from = i
            while i < bytes.count, bytes[i] >= 0x30, bytes[i] <= 0x39 { i += 1 }
            guard i > from else { return nil }
        }
        if isInteger, digits <= 18 {
            var magnitude = 0
            for k in whole..<i { magnitude = magnitude * 10 + Int(bytes[k] - 0x30) }
            PackedAnswers.appendValue(.integer(negative ? -magnitude : magnitude), to: &out)
            return Self.noLevel
        }
        let spelled = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<i]), as: UTF8.self)
        if isInteger, let number = Int(spelled) {
            PackedAnswers.appendValue(.integer(number), to: &out)
            return Self.noLevel
        }
        guard let number = Double(spelled), number.isFinite else { return nil }
        PackedAnswers.appendValue(.real(number), to: &out)
        return PropertyValue.needsRealTag(number) ? 0 : Self.noLevel
    }

    // MARK: Strings

    /// The string at `i` (its opening quote), as valid UTF-8: where its bytes are, in the
    /// input when it has no escape, else `decoded` into `text`. nil when the old reader would
    /// refuse it, or for a surrogate `\u` escape (left to it).
    private mutating func string() -> (decoded: Bool, range: Range<Int>)? {
        i += 1
        let from = i
        var ascii = true
        // Most strings have no escape: their bytes are the text.
        while i < bytes.count {
            let byte = bytes[i]
            if byte == UInt8(ascii: "\"") {
                i += 1
                guard ascii || Self.isValidUTF8(UnsafeBufferPointer(rebasing: bytes[from..<(i - 1)])) else { return nil }
                return (false, from..<(i - 1))
            }
            if byte == UInt8(ascii: "\\") { break }
            guard byte >= 0x20 else { return nil }
            if byte >= 0x80 { ascii = false }
            i += 1
        }
        guard i < bytes.count else { return nil }
        text.removeAll(keepingCapacity: true)
        text.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[from..<i]))
        while true {
            guard i < bytes.count else { return nil }
            let byte = bytes[i]
            if byte == UInt8(ascii: "\"") { i += 1; break }
            guard byte >= 0x20 else { return nil }
            guard byte == UInt8(ascii: "\\") else { text.append(byte); i += 1; continue }
            i += 1
            guard i < bytes.count else { return nil }
            let escape = bytes[i]
            i += 1
            switch escape {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): text.append(escape)
            case UInt8(ascii: "b"): text.append(0x08)
            case UInt8(ascii: "f"): text.append(0x0C)
            case UInt8(ascii: "n"): text.append(0x0A)
            case UInt8(ascii: "r"): text.append(0x0D)
            case UInt8(ascii: "t"): text.append(0x09)
            case UInt8(ascii: "u"):
                guard let code = hex4(), !(0xD800...0xDFFF).contains(code), let scalar = Unicode.Scalar(code) else { return nil }
                text.append(contentsOf: UTF8.encode(scalar)!)
            default:
                return nil
            }
        }
        return Self.isValidUTF8(text) ? (true, 0..<text.count) : nil
    }

    private mutating func hex4() -> UInt32? {
        guard i + 4 <= bytes.count else { return nil }
        var code: UInt32 = 0
        for _ in 0..<4 {
            let c = bytes[i]
            let digit: UInt8
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = c - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = c - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = c - UInt8(ascii: "A") + 10
            default: return nil
            }
            code = code << 4 | UInt32(digit)
            i += 1
        }
        return code
    }

    /// Whether `bytes` are well-formed UTF-8 (no overlong form, no surrogate, nothing past
    /// U+10FFFF), as `String(validating:)` asks.
    static func isValidUTF8(_ bytes: some Collection<UInt8>) -> Bool {
        var iterator = bytes.makeIterator()
        var decoder = UTF8()
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue: continue
            case .emptyInput: return true
            case .error: return false
            }
        }
    }
}
