import FoundationEssentials
import SurveyValues
import SurveyForms

/// A document's records in file order, a batch at a time, for the command line's `list`
/// and `export`: the first records are out while the rest of the file is still unread, and
/// a reader that stops early (`| head -2`) stops the reading too. The records are exactly
/// those `loadWithJournal` gives, in the same order.
///
/// A file in survey's own layout is scanned as it is read (`DocumentFileScan`). Everything
/// else is read whole first, as `loadWithJournal` reads it: a document with a journal
/// beside it (its changes are replayed on the whole document), a layout the scanner leaves
/// to Foundation, a binary property list. Should the scanner give up further into the file,
/// the file is read whole and the records after those already read follow; should it then
/// turn out unreadable, `next()` throws `load`'s own message. The batches after the first are
/// read on another thread, a few ahead, while the caller writes out those before.
public final class RecordBatchReader {
    /// Records in the first batch: enough to size the `list` table's columns, and read in
    /// about a millisecond.
    public static let firstBatchSize = 1_000
    /// Records in each later batch: a few milliseconds of scanning.
    public static let batchSize = 8_192
    /// Batches read ahead on another thread while the caller writes out the ones before,
    /// so reading and writing overlap; no more, so memory stays a few batches.
    static let readAhead = 4

    /// Records read and not yet handed over: the first batch, or a document read whole.
    private var pending: [Record]
    private var pendingStart = 0
    private let batchSize: Int
    /// The rest of a scanned file, read on another thread.
    private let ahead: ReadAhead?
    /// Records handed over so far.
    public private(set) var handedOver = 0
    /// How many records the document holds: exact when it was read whole, else nil until
    /// the last batch is handed over.
    public private(set) var knownCount: Int?
    /// For a scanned file, its size over the bytes the first batch took, in records:
    /// an estimate of the count (the `list` table sizes its `#` column by it).
    public let estimatedCount: Int

    /// Reads the first batch, so a document that cannot be read at all throws here, with
    /// `loadWithJournal`'s message, before anything is written.
    public init(store: DocumentStore, name: String, firstBatch: Int = firstBatchSize, batchSize: Int = batchSize) throws {
        self.batchSize = max(1, batchSize)
        if DocumentName.isUsable(name), !DocumentJournal.holdsEntries(at: store.journalURL(for: name)),
           case .success(let scan) = DocumentFileScan.open(store.filePath(for: name)), scan.begin(),
           let read = scan.records(upTo: max(1, firstBatch)), scan.failure == nil,
           !read.finished || scan.end() {
            pending = read.records
            if read.finished {
                knownCount = read.records.count
                estimatedCount = read.records.count
                ahead = nil
            } else {
                let perRecord = max(1, scan.position / max(1, read.records.count))
                estimatedCount = max(read.records.count, scan.size / perRecord)
                ahead = ReadAhead(scan: scan, after: read.records.count, store: store, name: name, batchSize: self.batchSize)
            }
            return
        }
        let records = Array(try store.loadWithJournal(name).get().records)
        pending = records
        knownCount = records.count
        estimatedCount = records.count
        ahead = nil
    }

    deinit { ahead?.stop() }

    /// The next records, never empty; nil once every record was handed over. Throws a
    /// `DocumentError` when the rest of the file cannot be read.
    public func next() throws -> [Record]? {
        if pendingStart < pending.count {
            // The first batch of a scan goes as it is; a document read whole, in batches.
            let end = ahead != nil ? pending.count : min(pending.count, pendingStart + batchSize)
            let batch = Array(pending[pendingStart..<end])
            pendingStart = end
            if end == pending.count {
                pending = []
                pendingStart = 0
            }
            handedOver += batch.count
            if ahead == nil, pending.isEmpty { knownCount = handedOver }
            return batch
        }
        guard let ahead, knownCount == nil else { return nil }
        guard let batch = try ahead.take() else {
            knownCount = handedOver
            return nil
        }
        handedOver += batch.count
        return batch
    }

    /// The batches after the first, read on a thread of their own up to `readAhead` ahead.
    /// Should the scanner give up, the file is read as `load` reads it and the records after
    /// those already read follow.
    private final class ReadAhead: @unchecked Sendable {
        private let condition = Condition()
        private var batches: [[Record]] = []
        private var over = false
        private var failure: DocumentError?
        private var stopped = false

        init(scan: DocumentFileScan, after start: Int, store: DocumentStore, name: String, batchSize: Int) {
            startThread { [self] in
                var read = start
                while let batch = scan.records(upTo: batchSize) {
                    guard scan.failure == nil, !batch.finished || scan.end() else { break }
                    read += batch.records.count
                    guard put(batch.records, last: batch.finished) else { return }
                    if batch.finished { return }
                }
                // Outside the scanner's layout after all, or unreadable: the file as `load` reads it.
                switch store.load(name) {
                case .success(let whole):
                    var rest = Array(whole.records.dropFirst(read))[...]
                    while !rest.isEmpty {
                        guard put(Array(rest.prefix(batchSize)), last: rest.count <= batchSize) else { return }
                        rest = rest.dropFirst(batchSize)
                    }
                    _ = put([], last: true)
                case .failure(let error):
                    condition.withLock {
                        failure = error
                        over = true
                        condition.broadcast()
                    }
                }
            }
        }

        /// Waits while `readAhead` batches wait already; false when no more are wanted.
        private func put(_ records: [Record], last: Bool) -> Bool {
            condition.withLock {
                while batches.count >= RecordBatchReader.readAhead, !stopped { condition.wait() }
                if !records.isEmpty { batches.append(records) }
                if last { over = true }
                condition.broadcast()
                return !stopped
            }
        }

        /// The next batch; nil at the end.
        func take() throws -> [Record]? {
            try condition.withLock {
                while batches.isEmpty, !over { condition.wait() }
                if !batches.isEmpty {
                    condition.broadcast()
                    return batches.removeFirst()
                }
                if let failure { throw failure }
                return nil
            }
        }

        /// No more batches are wanted: the thread stops at its next one.
        func stop() {
            condition.withLock {
                stopped = true
                condition.broadcast()
            }
        }
    }
}
