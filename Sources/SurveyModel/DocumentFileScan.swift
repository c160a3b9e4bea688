import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

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

        init(fd: Int32, limit: Int) {
            self.fd = fd
            self.limit = limit
        }

        func read(into buffer: UnsafeMutableRawBufferPointer) -> Int {
            while failure == nil {
                let count = systemRead(fd, buffer.baseAddress!, buffer.count)
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

    private init(fd: Int32, size: Int, limit: Int, window: Int) {
        let input = Input(fd: fd, limit: limit)
        self.input = input
        self.size = size
        self.scanner = PropertyListScanner.reading(sizeHint: size, window: window) { input.read(into: $0) }
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

    /// After the last record: true when the file ends as it must.
    func end() -> Bool { scanner.end() }
}
