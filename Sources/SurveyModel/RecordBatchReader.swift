import Foundation

/// A document's records in file order, a batch at a time, for the command line's `list`
/// and `export`: the first records are out while the rest of the file is still unread, and
/// a reader that stops early (`| head -2`) stops the reading too. The records are exactly
/// those `loadWithJournal` gives, in the same order.
///
/// A file in survey's own layout is scanned as it is read (`DocumentFileScan`). Everything
/// else is read whole first, as `loadWithJournal` reads it: a document with a journal
/// beside it (its changes are replayed on the whole document), a layout the scanner leaves
/// to Foundation, a binary property list. Should the scanner give up further into the file,
/// the file is read whole and the records after those already handed over follow; should it
/// then turn out unreadable, `next()` throws `load`'s own message.
public final class RecordBatchReader {
    /// Records in the first batch: enough to size the `list` table's columns, and read in
    /// about a millisecond.
    public static let firstBatchSize = 1_000
    /// Records in each later batch: a few milliseconds of scanning.
    public static let batchSize = 8_192

    private let store: DocumentStore
    private let name: String
    private let batchSize: Int
    private var scan: DocumentFileScan?
    /// Records read and not yet handed over (the first batch, or what a whole read left).
    private var pending: [Record]
    private var pendingStart = 0
    /// Records handed over so far.
    public private(set) var handedOver = 0
    /// How many records the document holds: exact when it was read whole, else nil.
    public private(set) var knownCount: Int?
    /// For a scanned file, its size over the bytes the first batch took, in records:
    /// an estimate of the count (the `list` table sizes its `#` column by it).
    public private(set) var estimatedCount: Int

    /// Reads the first batch, so a document that cannot be read at all throws here, with
    /// `loadWithJournal`'s message, before anything is written.
    public init(store: DocumentStore, name: String, firstBatch: Int = firstBatchSize, batchSize: Int = batchSize) throws {
        self.store = store
        self.name = name
        self.batchSize = max(1, batchSize)
        if DocumentName.isUsable(name), !FileManager.default.fileExists(atPath: store.journalURL(for: name).path),
           case .success(let scan) = DocumentFileScan.open(store.filePath(for: name)), scan.begin(),
           let read = scan.records(upTo: max(1, firstBatch)), scan.failure == nil,
           !read.finished || scan.end() {
            pending = read.records
            if read.finished {
                knownCount = read.records.count
                estimatedCount = read.records.count
            } else {
                self.scan = scan
                let perRecord = max(1, scan.position / max(1, read.records.count))
                estimatedCount = max(read.records.count, scan.size / perRecord)
            }
            return
        }
        let records = Array(try store.loadWithJournal(name).get().records)
        pending = records
        knownCount = records.count
        estimatedCount = records.count
    }

    /// The next records; nil once every record was handed over. Throws a `DocumentError`
    /// when the rest of the file cannot be read.
    public func next() throws -> [Record]? {
        if pendingStart < pending.count {
            // The first batch of a scan goes as it is; a document read whole, in batches.
            let end = scan != nil ? pending.count : min(pending.count, pendingStart + batchSize)
            let batch = Array(pending[pendingStart..<end])
            pendingStart = end
            if end == pending.count {
                pending = []
                pendingStart = 0
            }
            handedOver += batch.count
            return batch
        }
        guard let current = scan else { return nil }
        guard let read = current.records(upTo: batchSize), current.failure == nil,
              !read.finished || current.end() else {
            // Outside the scanner's layout after all, or unreadable: the file as `load` reads it.
            scan = nil
            let whole = try store.load(name).get().records
            knownCount = whole.count
            pending = Array(whole.dropFirst(handedOver))
            return try next()
        }
        if read.finished {
            scan = nil
            knownCount = handedOver + read.records.count
            if read.records.isEmpty { return nil }
        }
        handedOver += read.records.count
        return read.records
    }
}
