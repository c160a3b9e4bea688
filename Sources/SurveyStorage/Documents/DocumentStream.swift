import FoundationEssentials
import Dispatch
import SurveyValues
import SurveyForms

/// The rest of a large document, read in the background once its first records are on
/// screen (`DocumentStore.openStreaming(_:from:firstRecords:)`). The file is read in parts,
/// one per processor (`splitRest`); a queue derives the ids of records found without one (by
/// their place in the file, as a whole load does), and the main thread takes what is ready
/// with `take()`.
///
/// Nothing here writes anything. The end is one of three: every record was handed over; the
/// scanner met something it does not read, so the whole file was read as `load` reads it
/// (Foundation has the last word) and replaces what was shown; or the file turned out to be
/// unreadable, with `load`'s own message.
public final class DocumentStream: @unchecked Sendable {
    public typealias End = DocumentReadEnd

    /// What has been read since the last `take()`.
    public struct Part: Sendable {
        public var records: [Record]
        /// How much of the file is read, 0 to 100.
        public var percent: Int
        /// Set once, when the reading is over.
        public var end: End?
    }

    /// Records handed over at a time: a few milliseconds of scanning.
    public static let batchSize = 8_192
    private let batchSize: Int

    private let lock = Lock()
    private var pending: [Record] = []
    private var percent: Int
    private var end: End?
    private var cancelled = false
    /// The parts read on other processors are no longer wanted (the file is read on alone).
    private var abandoned = false
    private var started = false
    /// Called on a background queue each time records or the end are ready to be taken.
    private var onReady: @Sendable () -> Void = {}
    private let over = DispatchGroup()

    private let scan: DocumentFileScan
    private let name: String
    private let store: DocumentStore
    /// Records already handed over before the background reading starts.
    private let start: Int

    /// At least this much of the file per part read on a processor of its own.
    public static let partBytes = 4 << 20
    private let partBytes: Int
    private let maximumParts: Int

    init(scan: DocumentFileScan, after start: Int, name: String, store: DocumentStore, batchSize: Int,
         partBytes: Int = DocumentStream.partBytes, maximumParts: Int = ProcessInfo.processInfo.activeProcessorCount) {
        self.scan = scan
        self.partBytes = partBytes
        self.maximumParts = min(8, maximumParts)
        self.batchSize = max(1, batchSize)
        self.start = start
        self.name = name
        self.store = store
        self.percent = scan.percent
    }

    /// How many parts read on other processors were taken (tests).
    private(set) var partsTaken = 0

    /// How much of the file the records handed over so far cover.
    public var percentRead: Int { lock.withLock { percent } }

    /// Starts the background reading (once the first frame is drawn: until then it would
    /// only compete with it for the processor). `ready` is called, on a background queue,
    /// each time records or the end are ready to be taken (the app's loop wakes up for it).
    public func begin(ready: @escaping @Sendable () -> Void = {}) {
        guard lock.withLock({ () -> Bool in
            defer { started = true }
            if !started { onReady = ready }
            return !started
        }) else { return }
        over.enter()
        let identifying = DispatchQueue(label: "survey.document-stream.ids", qos: .userInitiated)
        DispatchQueue.global(qos: .userInitiated).async { [self] in
            // Split here, not on the caller's (main) thread: a `dup`, a read and a window per part.
            let parts = splitRest()
            for (k, part) in parts.enumerated() {
                let boundary = k + 1 < parts.count ? parts[k + 1].start : Int.max
                DispatchQueue.global(qos: .userInitiated).async { [self] in
                    part.read(before: boundary, batchSize: batchSize) { lock.withLock { cancelled || abandoned } }
                }
            }
            // Parts no longer wanted stop at their next batch and let go of their surveys.
            func abandonParts() {
                lock.withLock { abandoned = true }
                for part in parts { part.drop() }
            }
            var position = start
            var current = scan
            var next = 0
            func handOver(_ records: inout [Record], percent: Int) {
                // Handed over, not shared: ids are then given in place, without copying
                // any record's dictionary.
                let batch = Batch()
                swap(&batch.records, &records)
                let at = position
                position += batch.records.count
                identifying.async { [self] in
                    Record.identifyFoundWithoutIDs(&batch.records, from: at)
                    let ready = lock.withLock {
                        pending.append(contentsOf: batch.records)
                        self.percent = percent
                        return onReady
                    }
                    ready()
                }
            }
            while !lock.withLock({ cancelled }) {
                let boundary = next < parts.count ? parts[next].start : Int.max
                guard var read = current.records(upTo: batchSize, before: boundary) else {
                    abandonParts()
                    readWhole(then: identifying)
                    return
                }
                let finished = read.finished
                handOver(&read.records, percent: finished ? 100 : current.percent)
                if finished {
                    guard current.end(), current.failure == nil else {
                        abandonParts()
                        readWhole(then: identifying)
                        return
                    }
                    identifying.async { [self] in finish(.complete) }
                    return
                }
                guard boundary != Int.max, current.position >= boundary else { continue }
                // The records before reached the next part: its records are the file's only
                // when those before end exactly where it starts, and it read to its own end.
                let part = parts[next]
                part.wait()
                guard current.position == boundary, part.isWhole else {
                    next = parts.count   // read on from here alone
                    abandonParts()
                    continue
                }
                lock.withLock { partsTaken += 1 }
                handOver(&part.records, percent: part.finished ? 100 : part.scan.percent)
                if part.finished {
                    identifying.async { [self] in finish(.complete) }
                    return
                }
                current = part.scan
                next += 1
            }
            identifying.async { [self] in finish(nil) }
        }
    }

    /// The rest of a large file is read in parts, one per processor, each from a place where
    /// a record seems to start (`DocumentFileScan.recordStart`); a part whose records do
    /// not line up with those before is read again by the scan before it.
    private func splitRest() -> [FilePart] {
        let from = scan.position
        let count = min(maximumParts, (scan.size - from) / max(1, partBytes))
        guard count >= 2 else { return [] }
        var parts: [FilePart] = []
        for k in 1..<count {
            let guess = from + (scan.size - from) * k / count
            guard guess > (parts.last?.start ?? from), let start = scan.recordStart(after: guess),
                  start > (parts.last?.start ?? from), let partScan = scan.part(from: start) else { continue }
            parts.append(FilePart(start: start, scan: partScan))
        }
        return parts
    }

    /// A part of the file read on its own queue, up to where the next part starts.
    private final class FilePart: @unchecked Sendable {
        let start: Int
        let scan: DocumentFileScan
        private let done = DispatchGroup()
        var records: [Record] = []
        /// It ended with the file, which ends as it must.
        var finished = false
        /// It read every record from `start` up to exactly the next part, or to the end.
        var isWhole = false

        init(start: Int, scan: DocumentFileScan) {
            self.start = start
            self.scan = scan
            done.enter()
        }

        func read(before boundary: Int, batchSize: Int, cancelled: () -> Bool) {
            defer { done.leave() }
            while !cancelled() {
                guard let read = scan.records(upTo: batchSize, before: boundary) else { return }
                records.append(contentsOf: read.records)
                if read.finished {
                    finished = scan.end() && scan.failure == nil
                    isWhole = finished
                    return
                }
                if scan.position >= boundary {
                    isWhole = scan.position == boundary && scan.failure == nil
                    return
                }
            }
        }

        func wait() { done.wait() }

        /// Not wanted: its surveys go once its reading stops.
        func drop() {
            wait()
            records = []
        }
    }

    /// Records moving from the scanning queue to the one that gives them ids.
    private final class Batch: @unchecked Sendable {
        var records: [Record] = []
    }

    /// The scanner gave up part-way, or the file could not be read: what a whole load of
    /// the file makes of it replaces the records shown.
    private func readWhole(then identifying: DispatchQueue) {
        let end: End
        switch store.load(name) {
        case .success(var document):
            document.identifyRecordsFoundWithoutIDs()
            end = .replaced(document)
        case .failure(let error):
            end = .failed(error.message)
        }
        identifying.async { [self] in finish(end) }
    }

    private func finish(_ end: End?) {
        let ready = lock.withLock {
            if let end, !cancelled {
                self.end = end
                percent = 100
            }
            return onReady
        }
        over.leave()
        ready()
    }

    /// The reading is over: the next `take()` has the end.
    public var isOver: Bool { lock.withLock { end != nil } }

    /// The records read since the last call, and the end once it came.
    public func take() -> Part {
        lock.withLock {
            let part = Part(records: pending, percent: percent, end: end)
            pending = []
            return part
        }
    }

    /// Waits until the reading is over (the end is then in the next `take()`); starts it
    /// first if need be.
    public func waitUntilDone() {
        begin()
        over.wait()
    }

    /// Stops reading at the next batch; nothing more is handed over.
    public func cancel() {
        lock.withLock { cancelled = true }
    }
}

extension Record {
    /// `identifyRecordsFoundWithoutIDs` for a run of records that starts at `position` in
    /// its document: each record's id depends only on its place and answers, so ids given
    /// piece by piece are those a whole load gives.
    /// A large run (a part read on another processor, handed over at once) is split across
    /// the processors.
    static func identifyFoundWithoutIDs(_ records: inout [Record], from position: Int,
                                        processors: Int = ProcessInfo.processInfo.activeProcessorCount) {
        let parts = records.count < 16_384 ? 1 : max(1, min(8, processors))
        guard parts > 1, records.contains(where: { !$0.hasInstanceID }) else {
            for i in records.indices { _ = records[i].identify(at: position + i) }
            return
        }
        records.withUnsafeMutableBufferPointer { buffer in
            nonisolated(unsafe) let all = buffer
            DispatchQueue.concurrentPerform(iterations: parts) { part in
                for i in (all.count * part / parts)..<(all.count * (part + 1) / parts) { _ = all[i].identify(at: position + i) }
            }
        }
    }
}

extension DocumentStore {
    /// How a document was opened: whole, or its first records with the rest to follow.
    public enum Opening: Sendable {
        /// As `loadWithJournal` reads it (ids not yet derived).
        case whole(Result<SurveyDocument, DocumentError>)
        /// The first records, ids derived; `rest` reads the others in the background.
        case streaming(first: SurveyDocument, rest: DocumentStream)
    }

    /// Opens a document for the first screen: a file of `threshold` bytes or more in survey's
    /// own layout is read only up to its first `firstRecords` records, and the rest in the
    /// background (`DocumentStream`). Anything else is read whole, as `loadWithJournal` reads
    /// it: smaller files, a layout the scanner leaves to Foundation, a file that cannot be
    /// read, one with fewer records, and a document whose journal holds changes (they
    /// are replayed on the whole document).
    public func openStreaming(_ name: String, from threshold: Int, firstRecords: Int,
                              batchSize: Int = DocumentStream.batchSize, partBytes: Int = DocumentStream.partBytes,
                              maximumParts: Int = ProcessInfo.processInfo.activeProcessorCount) -> Opening {
        guard DocumentName.isUsable(name), !DocumentJournal.holdsEntries(at: journalURL(for: name)),
              case .success(let scan) = DocumentFileScan.open(filePath(for: name)), scan.size >= threshold,
              scan.begin(), var read = scan.records(upTo: max(1, firstRecords)), !read.finished,
              scan.failure == nil
        else { return .whole(loadWithJournal(name)) }
        var first = SurveyDocument(records: RecordList(read.records))
        read.records = []   // not shared: the ids are given in place
        first.identifyRecordsFoundWithoutIDs()
        return .streaming(first: first, rest: DocumentStream(scan: scan, after: first.records.count, name: name, store: self,
                                                                  batchSize: batchSize, partBytes: partBytes,
                                                                  maximumParts: maximumParts))
    }
}
