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

/// Reads a document or draft file, looking at what it is before reading it all. A 2 GB
/// sparse file named like a document once took 27 s and 8.4 GB to list; now its size
/// refuses it at once, and a file that does not start like a property list is refused after
/// its first bytes. Opened non-blocking, so a FIFO named "X.plist" cannot hang the app.
enum DocumentFileReader {
    /// 512 MiB: twice the largest document the app is meant to handle (a million records
    /// is about 260 MB), and still little enough to read and parse on a field laptop.
    static let maximumBytes = 512 << 20

    enum Failure: Error, Equatable {
        case system(operation: String, code: Int32)
        case tooLarge(bytes: Int)
        case notAPropertyList(firstBytes: [UInt8])
        case notARegularFile
    }

    static func read(_ path: RawPath, limit: Int = maximumBytes) -> Result<Data, Failure> {
        let opened = openChecked(path, limit: limit)
        guard case .success(let (fd, size)) = opened else { return opened.map { _ in Data() } }
        defer { close(fd) }

        var data = Data(capacity: size)
        var chunk = [UInt8](repeating: 0, count: 1 << 20)
        var sniffed = false
        while true {
            let count = chunk.withUnsafeMutableBytes { systemRead(fd, $0.baseAddress!, $0.count) }
            if count < 0 {
                if errno == EINTR || errno == EAGAIN { continue }
                return .failure(.system(operation: "read", code: errno))
            }
            if count == 0 { break }
            data.append(contentsOf: chunk[0..<count])
            if data.count > limit { return .failure(.tooLarge(bytes: data.count)) }   // it grew meanwhile
            if !sniffed, data.count >= 64 || data.count >= size {
                sniffed = true
                if !PropertyListStart.isPlausible(data) {
                    return .failure(.notAPropertyList(firstBytes: Array(data.prefix(4))))
                }
            }
        }
        if !sniffed, !PropertyListStart.isPlausible(data) {
            return .failure(.notAPropertyList(firstBytes: Array(data.prefix(4))))
        }
        return .success(data)
    }

    /// Every byte of a regular file, a megabyte at a time, to `body` (an append-only log read
    /// line by line, never whole in memory); how many bytes there were.
    static func forEachChunk(_ path: RawPath, limit: Int = maximumBytes,
                             _ body: (UnsafeRawBufferPointer) throws -> Void) rethrows -> Result<Int, Failure> {
        let opened = openChecked(path, limit: limit)
        guard case .success(let (fd, _)) = opened else { return opened.map { _ in 0 } }
        defer { close(fd) }
        var chunk = [UInt8](repeating: 0, count: 1 << 20)
        var total = 0
        while true {
            let count = chunk.withUnsafeMutableBytes { systemRead(fd, $0.baseAddress!, $0.count) }
            if count < 0 {
                if errno == EINTR || errno == EAGAIN { continue }
                return .failure(.system(operation: "read", code: errno))
            }
            if count == 0 { return .success(total) }
            total += count
            if total > limit { return .failure(.tooLarge(bytes: total)) }
            try chunk.withUnsafeBytes { try body(UnsafeRawBufferPointer(rebasing: $0[0..<count])) }
        }
    }

    /// The lines of a file of JSON lines (the edit history, an entity list's log), read a
    /// chunk at a time and handed to `body` without their newline, the last one whether or
    /// not a newline ends it. A line longer than `longest` is no line survey wrote: it is
    /// handed to `overlong` once and passed over to its newline, never read in pieces as
    /// lines of its own. Empty lines are passed over.
    static func forEachLine(_ path: RawPath, longest: Int = 1 << 20, overlong: () -> Void,
                            _ body: (ArraySlice<UInt8>) throws -> Void) rethrows -> Result<Int, Failure> {
        var rest: [UInt8] = []
        var skipping = false
        let read = try forEachChunk(path) { chunk in
            rest.append(contentsOf: chunk)
            var start = rest.startIndex
            while let newline = rest[start...].firstIndex(of: 0x0A) {
                if skipping {
                    skipping = false
                } else if newline - start > longest {
                    overlong()
                } else if newline > start {
                    try body(rest[start..<newline])
                }
                start = newline + 1
            }
            rest.removeSubrange(..<start)
            if rest.count > longest {
                if !skipping { overlong() }
                skipping = true
                rest.removeAll(keepingCapacity: true)
            }
        }
        if case .success = read, !skipping, !rest.isEmpty { try body(rest[...]) }
        return read
    }

    /// The records of a document file read by `PropertyListScanner` a window at a time, so
    /// the whole file is never in memory; nil when the file is outside what the scanner reads
    /// (then `read` it whole for Foundation). The same checks as `read`, in the same order,
    /// except that the first bytes are looked at with `pread` before the reading starts.
    static func scannedRecords(_ path: RawPath, limit: Int = maximumBytes,
                               window: Int = 1 << 20) -> Result<[Record]?, Failure> {
        var records: [Record] = []
        // One batch: the whole file's records, in one list sized from the file.
        switch scanRecords(path, limit: limit, window: window, batch: .max, { records = records.isEmpty ? $0 : records + $0 }) {
        case .success(let whole): return .success(whole ? records : nil)
        case .failure(let failure): return .failure(failure)
        }
    }

    /// `scannedRecords` a batch at a time: `body` takes each batch as it is read, so a large
    /// file's records are never all in memory at once (a sync ledger's entries, turned into
    /// the ledger as they come). False, some batches perhaps given already, when the file
    /// turns out to be outside what the scanner reads: the caller starts again with `read`.
    static func scanRecords(_ path: RawPath, limit: Int = maximumBytes, window: Int = 1 << 20, batch: Int = 4096,
                            _ body: ([Record]) throws -> Void) rethrows -> Result<Bool, Failure> {
        let scan: DocumentFileScan
        switch DocumentFileScan.open(path, limit: limit, window: window) {
        case .success(let opened): scan = opened
        case .failure(let failure): return .failure(failure)
        }
        var whole = scan.begin()
        while whole {
            guard let read = scan.records(upTo: batch, reserving: min(scan.size / 200, batch, 4_000_000)) else {
                whole = false
                break
            }
            try body(read.records)
            if read.finished {
                whole = scan.end()
                break
            }
        }
        if let failure = scan.failure { return .failure(failure) }
        return .success(whole)
    }

    /// Opens `path` for reading without blocking; a regular file no larger than `limit`.
    static func openChecked(_ path: RawPath, limit: Int) -> Result<(Int32, Int), Failure> {
        let fd = path.withCString { open($0, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY) }
        guard fd >= 0 else { return .failure(.system(operation: "open", code: errno)) }
        var status = stat()
        let problem: Failure?
        if fstat(fd, &status) != 0 {
            problem = .system(operation: "stat", code: errno)
        } else {
            switch status.st_mode & S_IFMT {
            case S_IFREG: problem = Int(status.st_size) > limit ? .tooLarge(bytes: Int(status.st_size)) : nil
            case S_IFDIR: problem = .system(operation: "read", code: EISDIR)
            default: problem = .notARegularFile
            }
        }
        if let problem {
            close(fd)
            return .failure(problem)
        }
        return .success((fd, Int(status.st_size)))
    }

    /// "2.0 GB", "512 MB", "12.5 KB", in units of 1024, as the size of files is usually shown.
    static func sizeText(_ bytes: Int) -> String {
        let units = ["bytes", "KB", "MB", "GB", "TB"]
        var value = Double(bytes)
        var unit = 0
        while value >= 1024, unit < units.count - 1 {
            value /= 1024
            unit += 1
        }
        if unit == 0 { return "\(bytes) bytes" }
        return value < 10 ? String(printf: "%.1f", value) + " " + units[unit] : "\(Int(value.rounded())) \(units[unit])"
    }
}

/// How a property list starts. Only the first bytes are looked at, so any later damage is
/// still the parser's to report, with its own words.
enum PropertyListStart {
    /// An XML plist: optional BOM and blanks, then `<?xml`, `<!DOCTYPE` (or a comment) or
    /// `<plist`; a binary one: `bplist0`; nothing but blanks: an empty document.
    static func isPlausible(_ data: Data) -> Bool {
        let bytes = Array(data.prefix(64))
        if bytes.starts(with: Array("bplist0".utf8)) { return true }
        // UTF-16 XML, which Foundation reads: a BOM then "<".
        if bytes.starts(with: [0xFE, 0xFF, 0x00, 0x3C]) || bytes.starts(with: [0xFF, 0xFE, 0x3C, 0x00]) { return true }
        var rest = bytes[...]
        if rest.starts(with: [0xEF, 0xBB, 0xBF]) { rest = rest.dropFirst(3) }
        rest = rest.drop { [0x20, 0x09, 0x0A, 0x0D].contains($0) }
        if rest.isEmpty { return true }   // blanks only, or more blanks than looked at
        return ["<?xml", "<!", "<plist"].contains { prefix in
            let wanted = Array(prefix.utf8)
            return rest.starts(with: wanted) || (rest.count < wanted.count && wanted.starts(with: rest))
        }
    }

    /// "00 00 00 00"
    static func hex(_ bytes: [UInt8]) -> String {
        bytes.map { String(printf: "%02X", $0) }.joined(separator: " ")
    }
}
