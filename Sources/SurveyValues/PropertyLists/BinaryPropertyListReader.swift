import FoundationEssentials

/// Binary property lists (`bplist00`) read exactly: integers and reals keep their types, which
/// `PropertyListDecoder` cannot tell (it answers `Int` for a whole real). Objects are read from
/// the offset table; a reference to an object already being read (a cycle) and nesting beyond
/// `PropertyListReader.maximumDepth` are refused.
struct BinaryPropertyListReader {
    private let bytes: [UInt8]
    private let offsets: [Int]
    private let referenceSize: Int

    static func isBinary(_ data: Data) -> Bool { data.starts(with: Array("bplist00".utf8)) }

    static func read(_ data: Data) throws -> PropertyValue {
        let bytes = [UInt8](data)
        guard bytes.count >= 8 + 32 else { throw PropertyListReader.Failure(description: "a binary property list too short to hold its trailer") }
        let trailer = bytes.count - 32
        let offsetSize = Int(bytes[trailer + 6]), referenceSize = Int(bytes[trailer + 7])
        func number(_ at: Int, _ size: Int) -> Int { bytes[at..<(at + size)].reduce(0) { $0 << 8 | Int($1) } }
        let count = number(trailer + 8, 8), top = number(trailer + 16, 8), table = number(trailer + 24, 8)
        guard (1...8).contains(offsetSize), (1...8).contains(referenceSize), count > 0, count < bytes.count, top < count,
              table >= 8, table + count * offsetSize <= trailer else {
            throw PropertyListReader.Failure(description: "a binary property list with a damaged trailer")
        }
        let offsets = (0..<count).map { number(table + $0 * offsetSize, offsetSize) }
        guard offsets.allSatisfy({ $0 >= 8 && $0 < table }) else {
            throw PropertyListReader.Failure(description: "a binary property list with an object outside the file")
        }
        var open = Set<Int>()
        return try BinaryPropertyListReader(bytes: bytes, offsets: offsets, referenceSize: referenceSize).object(top, open: &open)
    }

    private func failure(_ text: String) -> PropertyListReader.Failure {
        PropertyListReader.Failure(description: "a binary property list with \(text)")
    }

    private func unsigned(_ at: Int, _ size: Int) throws -> UInt64 {
        guard at >= 0, at + size <= bytes.count else { throw failure("an object running past the end") }
        return bytes[at..<(at + size)].reduce(0) { $0 << 8 | UInt64($1) }
    }

    /// The length in a marker's low nibble, or in the integer object after it when it is 15.
    private func length(_ marker: UInt8, at start: Int) throws -> (count: Int, body: Int) {
        guard marker & 0x0F == 0x0F else { return (Int(marker & 0x0F), start + 1) }
        guard start + 1 < bytes.count, bytes[start + 1] >> 4 == 0x1 else { throw failure("a bad length") }
        let size = 1 << Int(bytes[start + 1] & 0x0F)
        guard size <= 8 else { throw failure("a bad length") }
        let count = try unsigned(start + 2, size)
        guard count < UInt64(bytes.count) else { throw failure("a length longer than the file") }
        return (Int(count), start + 2 + size)
    }

    private func object(_ index: Int, open: inout Set<Int>) throws -> PropertyValue {
        guard index < offsets.count else { throw failure("a reference to a missing object") }
        guard open.count < PropertyListReader.maximumDepth else {
            throw PropertyListReader.Failure(description: "nesting deeper than \(PropertyListReader.maximumDepth) levels")
        }
        guard open.insert(index).inserted else { throw failure("an object that contains itself") }
        defer { open.remove(index) }
        let start = offsets[index]
        let marker = bytes[start]
        switch marker >> 4 {
        case 0x0:
            switch marker {
            case 0x08: return .bool(false)
            case 0x09: return .bool(true)
            default: throw failure("an object of an unknown kind (\(marker))")
            }
        case 0x1:
            let size = 1 << Int(marker & 0x0F)
            switch size {
            case 1, 2, 4: return .integer(Int(try unsigned(start + 1, size)))
            case 8: return .integer(Int(Int64(bitPattern: try unsigned(start + 1, 8))))
            case 16:
                // Written only for values beyond Int64: the high half is zero for an unsigned one.
                let high = try unsigned(start + 1, 8), low = try unsigned(start + 9, 8)
                if high == 0, low <= UInt64(Int.max) { return .integer(Int(low)) }
                throw PropertyListReader.Unrepresentable()
            default: throw failure("an integer of \(size) bytes")
            }
        case 0x2:
            switch marker & 0x0F {
            case 2: return .real(Double(Float(bitPattern: UInt32(try unsigned(start + 1, 4)))))
            case 3: return .real(Double(bitPattern: try unsigned(start + 1, 8)))
            default: throw failure("a real of an unknown size")
            }
        case 0x3:
            guard marker == 0x33 else { throw failure("a bad date") }
            let seconds = Double(bitPattern: try unsigned(start + 1, 8))
            let date = Date(timeIntervalSinceReferenceDate: seconds)
            // Another date could not be written back as XML (`PropertyListDate`).
            guard PropertyListDate.isRepresentable(date) else {
                throw PropertyListDate.outOfRange(seconds.isFinite ? "\(seconds) seconds from 2001-01-01" : "\(seconds)")
            }
            return .date(date)
        case 0x4:
            let (count, body) = try length(marker, at: start)
            guard body + count <= bytes.count else { throw failure("data running past the end") }
            return .data(Data(bytes[body..<(body + count)]))
        case 0x5:
            let (count, body) = try length(marker, at: start)
            guard body + count <= bytes.count, bytes[body..<(body + count)].allSatisfy({ $0 < 0x80 }) else { throw failure("a bad ASCII string") }
            return .string(String(decoding: bytes[body..<(body + count)], as: UTF8.self))
        case 0x6:
            let (count, body) = try length(marker, at: start)
            guard body + 2 * count <= bytes.count else { throw failure("a string running past the end") }
            let units = (0..<count).map { UInt16(bytes[body + 2 * $0]) << 8 | UInt16(bytes[body + 2 * $0 + 1]) }
            guard let text = String(validating: units, as: UTF16.self) else { throw failure("a string that is not valid UTF-16") }
            return .string(text)
        case 0xA:
            let (count, body) = try length(marker, at: start)
            var items: [PropertyValue] = []
            for i in 0..<count {
                items.append(try object(Int(try unsigned(body + i * referenceSize, referenceSize)), open: &open))
            }
            return .array(items)
        case 0xD:
            let (count, body) = try length(marker, at: start)
            var entries: [String: PropertyValue] = [:]
            for i in 0..<count {
                guard case .string(let key) = try object(Int(try unsigned(body + i * referenceSize, referenceSize)), open: &open) else {
                    throw failure("a dictionary key that is not a string")
                }
                entries[key] = try object(Int(try unsigned(body + (count + i) * referenceSize, referenceSize)), open: &open)
            }
            return .dictionary(entries)
        default:
            throw failure("an object of a kind this app cannot represent (\(marker >> 4))")
        }
    }
}
