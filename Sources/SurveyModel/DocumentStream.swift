import Foundation

/// The rest of a large document, read in the background once its first records are on
/// screen (`DocumentStore.openStreaming(_:from:firstRecords:)`). One queue scans the file,
/// a second derives the ids of records found without one (by their place in the file, as a
/// whole load does), and the main thread takes what is ready with `take()`.
///
/// Nothing here writes anything. The end is one of three: every record was handed over; the
/// scanner met something it does not read, so the whole file was read as `load` reads it
/// (Foundation has the last word) and replaces what was shown; or the file turned out to be
/// unreadable, with `load`'s own message.
public final class DocumentStream: @unchecked Sendable {
    public enum End: Equatable, Sendable {
        case complete
        /// The whole document, read as `DocumentStore.load` reads it, ids derived.
        case replaced(SurveyDocument)
        /// Why the document cannot be read, in `DocumentStore.load`'s words.
        case failed(String)
    }

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

    private let lock = NSLock()
    private var pending: [Record] = []
    private var percent: Int
    private var end: End?
    private var cancelled = false
    private var started = false
    private let over = DispatchGroup()

    private let scan: DocumentFileScan
    private let name: String
    private let store: DocumentStore
    /// Records already handed over before the background reading starts.
    private let start: Int

    init(scan: DocumentFileScan, after start: Int, name: String, store: DocumentStore, batchSize: Int) {
        self.scan = scan
        self.batchSize = max(1, batchSize)
        self.start = start
        self.name = name
        self.store = store
        self.percent = scan.percent
    }

    /// How much of the file the records handed over so far cover.
    public var percentRead: Int { lock.withLock { percent } }

    /// Starts the background reading (once the first frame is drawn: until then it would
    /// only compete with it for the processor).
    public func begin() {
        guard lock.withLock({ () -> Bool in
            defer { started = true }
            return !started
        }) else { return }
        over.enter()
        let identifying = DispatchQueue(label: "survey.document-stream.ids", qos: .userInitiated)
        DispatchQueue.global(qos: .userInitiated).async { [self] in
            var position = start
            while !lock.withLock({ cancelled }) {
                guard var read = scan.records(upTo: batchSize) else {
                    readWhole(then: identifying)
                    return
                }
                // Handed over, not shared: ids are then given in place, without copying
                // any record's dictionary.
                let batch = Batch()
                swap(&batch.records, &read.records)
                let finished = read.finished
                let at = position
                position += batch.records.count
                let percent = finished ? 100 : scan.percent
                identifying.async { [self] in
                    Record.identifyFoundWithoutIDs(&batch.records, from: at)
                    lock.withLock {
                        pending.append(contentsOf: batch.records)
                        self.percent = percent
                    }
                }
                if finished {
                    guard scan.end(), scan.failure == nil else {
                        readWhole(then: identifying)
                        return
                    }
                    identifying.async { [self] in finish(.complete) }
                    return
                }
            }
            identifying.async { [self] in finish(nil) }
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
        lock.withLock {
            if let end, !cancelled {
                self.end = end
                percent = 100
            }
        }
        over.leave()
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
    static func identifyFoundWithoutIDs(_ records: inout [Record], from position: Int) {
        for i in records.indices { _ = records[i].identify(at: position + i) }
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
    /// read, one with fewer records, and a document with a journal beside it (its changes
    /// are replayed on the whole document).
    public func openStreaming(_ name: String, from threshold: Int, firstRecords: Int,
                              batchSize: Int = DocumentStream.batchSize) -> Opening {
        guard DocumentName.isUsable(name), !FileManager.default.fileExists(atPath: journalURL(for: name).path),
              case .success(let scan) = DocumentFileScan.open(filePath(for: name)), scan.size >= threshold,
              scan.begin(), var read = scan.records(upTo: max(1, firstRecords)), !read.finished,
              scan.failure == nil
        else { return .whole(loadWithJournal(name)) }
        var first = SurveyDocument(records: RecordList(read.records))
        read.records = []   // not shared: the ids are given in place
        first.identifyRecordsFoundWithoutIDs()
        return .streaming(first: first, rest: DocumentStream(scan: scan, after: first.records.count, name: name, store: self,
                                                                  batchSize: batchSize))
    }
}
