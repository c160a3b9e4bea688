import FoundationEssentials
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import SurveyValues
import SurveyForms

/// A document file read by `PropertyListScanner` a few records at a time, through a window,
/// so that the first screen can be shown before the rest is read (`DocumentStream`). It may
/// be handed from the thread that opened it to another, but is used by one at a time.
final class DocumentFileScan: @unchecked Sendable {
    typealias Failure = DocumentFileReader.Failure

    /// The file's size when it was opened.
    let size: Int
    private var scanner: PropertyListScanner
    private let input: Input

    /// Where the scanner's bytes come from; keeps the first failure (and stops reading).
    private final class Input {
        let fd: Int32
        let limit: Int
        var total = 0
        var failure: Failure?
        /// Where the next bytes are read from, for a part of the file read with `pread`;
        /// nil when reading on from the descriptor's own offset.
        var offset: Int?

        init(fd: Int32, limit: Int, offset: Int? = nil) {
            self.fd = fd
            self.limit = limit
            self.offset = offset
            if let offset { total = offset }
        }

        func read(into buffer: UnsafeMutableRawBufferPointer) -> Int {
            while failure == nil {
                let count: Int
                if let offset {
                    count = pread(fd, buffer.baseAddress!, buffer.count, off_t(offset))
                    if count > 0 { self.offset = offset + count }
                } else {
                    count = systemRead(fd, buffer.baseAddress!, buffer.count)
                }
                if count < 0 {
                    if errno == EINTR || errno == EAGAIN { continue }
                    failure = .system(operation: "read", code: errno)
                    return 0
                }
                total += count
                if total > limit { failure = .tooLarge(bytes: total) }   // it grew meanwhile
                return failure == nil ? count : 0
            }
            return 0
        }
    }

    private init(fd: Int32, size: Int, limit: Int, window: Int, offset: Int? = nil) {
        let input = Input(fd: fd, limit: limit, offset: offset)
        self.input = input
        self.size = size
        self.scanner = PropertyListScanner.reading(sizeHint: size, window: window, startingAt: offset ?? 0) { input.read(into: $0) }
    }

    /// The same file read from `offset` on by a scanner of its own (through a duplicate of
    /// the descriptor, with `pread`): it starts between two records and reads records at
    /// once, without a header. Only where the records before end exactly at `offset` are
    /// its records those of the file (`DocumentStream` checks).
    func part(from offset: Int, window: Int = 1 << 20) -> DocumentFileScan? {
        let copy = fcntl(input.fd, F_DUPFD_CLOEXEC, 0)
        guard copy >= 0 else { return nil }
        return DocumentFileScan(fd: copy, size: size, limit: input.limit, window: window, offset: offset)
    }

    /// Where a record starts at or after `offset`, as survey and plistlib lay them out
    /// (`<dict>` alone on a line, one tab in), looked for in the next 64 KB; nil when none
    /// is there. A guess: the bytes may be inside a record of another layout, which the
    /// scan before it then shows (it does not end there).
    func recordStart(after offset: Int) -> Int? {
        let marker = Array("\n\t<dict>\n".utf8)
        var bytes = [UInt8](repeating: 0, count: 64 << 10)
        let count = bytes.withUnsafeMutableBytes { pread(input.fd, $0.baseAddress!, $0.count, off_t(offset)) }
        guard count >= marker.count else { return nil }
        for i in 0...(count - marker.count) where bytes[i] == marker[0] && bytes[i..<(i + marker.count)].elementsEqual(marker) {
            return offset + i + 2
        }
        return nil
    }

    deinit {
        scanner.releaseWindow()
        close(input.fd)
    }

    /// The same checks as `DocumentFileReader.read`, in the same order, except that the
    /// first bytes are looked at with `pread` before the reading starts.
    static func open(_ path: RawPath, limit: Int = DocumentFileReader.maximumBytes,
                     window: Int = 1 << 20) -> Result<DocumentFileScan, Failure> {
        let fd: Int32, size: Int
        switch DocumentFileReader.openChecked(path, limit: limit) {
        case .success(let opened): (fd, size) = opened
        case .failure(let failure): return .failure(failure)
        }
        var first = [UInt8](repeating: 0, count: 64)
        let sniffed = first.withUnsafeMutableBytes { pread(fd, $0.baseAddress!, $0.count, 0) }
        guard sniffed >= 0 else {
            let code = errno
            close(fd)
            return .failure(.system(operation: "read", code: code))
        }
        let start = Data(first.prefix(sniffed))
        if !PropertyListStart.isPlausible(start) {
            close(fd)
            return .failure(.notAPropertyList(firstBytes: Array(start.prefix(4))))
        }
        return .success(DocumentFileScan(fd: fd, size: size, limit: limit, window: window))
    }

    /// The first failure to read the file, which makes the scanner stop as at its end.
    var failure: Failure? { input.failure }

    /// How far into the file the records read so far end.
    var position: Int { scanner.position }

    /// How much of the file the records read so far cover, 0 to 100.
    var percent: Int { size > 0 ? min(100, scanner.position * 100 / size) : 100 }

    /// The header, up to the first record; false when the file is outside the scanner's subset.
    func begin() -> Bool { scanner.begin() }

    /// Up to `limit` more records, and whether they were the last; nil when the file turns
    /// out to be outside the scanner's subset (or could not be read: see `failure`).
    func records(upTo limit: Int, reserving capacity: Int? = nil) -> (records: [Record], finished: Bool)? {
        scanner.records(upTo: limit, reserving: capacity)
    }

    /// Up to `limit` more records that start before the byte `boundary` (then `position`
    /// is where the next one starts: `boundary` itself when the records end there).
    func records(upTo limit: Int, before boundary: Int) -> (records: [Record], finished: Bool)? {
        scanner.records(upTo: limit, before: boundary)
    }

    /// After the last record: true when the file ends as it must.
    func end() -> Bool { scanner.end() }
}
