import FoundationEssentials
import CZlib
import SurveyValues

/// The entries of a zip archive (an .xlsx workbook is one), read from its central directory
/// and inflated with zlib. Only what workbooks use: stored and deflated entries, no
/// encryption, no multi-disk archives; sizes are capped, so a zip bomb is refused rather
/// than inflated into memory.
struct ZipArchive {
    /// Larger parts than this are refused: a real form's sheet is a few hundred KB.
    static let maximumEntrySize = 64 << 20

    private let data: [UInt8]
    private(set) var entries: [String: (method: UInt16, compressed: Int, size: Int, localHeader: Int)] = [:]

    init(_ data: Data) throws {
        self.data = Array(data)
        try readCentralDirectory()
    }

    /// The inflated bytes of an entry, or nil when the archive has no such entry.
    func contents(of name: String) throws -> Data? {
        guard let entry = entries[name] else { return nil }
        guard entry.size <= Self.maximumEntrySize else {
            throw DocumentError("the workbook part \(name) is larger than survey reads (\(Self.maximumEntrySize >> 20) MB)")
        }
        let local = entry.localHeader
        guard local + 30 <= data.count, u32(local) == 0x04034b50 else { throw Self.damaged }
        let start = local + 30 + Int(u16(local + 26)) + Int(u16(local + 28))
        guard start + entry.compressed <= data.count else { throw Self.damaged }
        let compressed = Array(data[start..<start + entry.compressed])
        switch entry.method {
        case 0: return Data(compressed)
        case 8: return try Self.inflate(compressed, size: entry.size)
        default: throw DocumentError("the workbook part \(name) uses a compression survey does not read (method \(entry.method))")
        }
    }

    static let damaged = DocumentError("not a readable .xlsx workbook (the zip archive is damaged)")

    private mutating func readCentralDirectory() throws {
        // The end-of-central-directory record is in the last 64 KB + 22 bytes.
        let lowest = max(0, data.count - 65_557)
        guard data.count >= 22,
              let end = stride(from: data.count - 22, through: lowest, by: -1).first(where: { u32($0) == 0x06054b50 })
        else { throw DocumentError("not a .xlsx workbook (no zip archive directory)") }
        let count = Int(u16(end + 10))
        var offset = Int(u32(end + 16))
        for _ in 0..<count {
            guard offset + 46 <= data.count, u32(offset) == 0x02014b50 else { throw Self.damaged }
            let flags = u16(offset + 8)
            let method = u16(offset + 10)
            let compressed = Int(u32(offset + 20)), size = Int(u32(offset + 24))
            let nameLength = Int(u16(offset + 28)), extraLength = Int(u16(offset + 30)), commentLength = Int(u16(offset + 32))
            let localHeader = Int(u32(offset + 42))
            guard offset + 46 + nameLength <= data.count else { throw Self.damaged }
            let name = String(decoding: data[(offset + 46)..<(offset + 46 + nameLength)], as: UTF8.self)
            if flags & 1 != 0 { throw DocumentError("the workbook is encrypted: save it without a password") }
            entries[name] = (method, compressed, size, localHeader)
            offset += 46 + nameLength + extraLength + commentLength
        }
    }

    private static func inflate(_ input: [UInt8], size: Int) throws -> Data {
        var stream = z_stream()
        guard shim_inflate_init_raw(&stream) == Z_OK else { throw damaged }
        defer { inflateEnd(&stream) }
        var output = [UInt8](repeating: 0, count: max(size, 1))
        let status: Int32 = input.withUnsafeBufferPointer { inBuffer in
            output.withUnsafeMutableBufferPointer { outBuffer in
                stream.next_in = UnsafeMutablePointer(mutating: inBuffer.baseAddress)
                stream.avail_in = uInt(inBuffer.count)
                stream.next_out = outBuffer.baseAddress
                stream.avail_out = uInt(outBuffer.count)
                return CZlib.inflate(&stream, Z_FINISH)
            }
        }
        guard status == Z_STREAM_END, Int(stream.total_out) == size else { throw damaged }
        return Data(output[0..<size])
    }

    private func u16(_ at: Int) -> UInt16 { UInt16(data[at]) | UInt16(data[at + 1]) << 8 }
    private func u32(_ at: Int) -> UInt32 {
        UInt32(data[at]) | UInt32(data[at + 1]) << 8 | UInt32(data[at + 2]) << 16 | UInt32(data[at + 3]) << 24
    }
}
