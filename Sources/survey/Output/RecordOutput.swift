import FoundationEssentials
import SurveyValues
import SurveyForms
import SurveyStorage

/// `list` and `export` write a document's records as they are read (`RecordBatchReader`):
/// the first rows leave at once, memory holds a batch rather than the document, and a
/// reader that has seen enough (`| head -2`) stops the reading too.
enum RecordOutput {
    /// Where the bytes go, a batch at a time; false when no more are wanted.
    typealias Sink = (UnsafeRawBufferPointer) throws -> Bool

    /// What was written: the surveys, and how many of those read were incomplete (kept
    /// before they passed the form's rules, `Record.isIncomplete`), written or, with
    /// `completeOnly`, left out.
    struct Written: Equatable {
        var surveys = 0
        var incomplete = 0
        /// Surveys refused one by one, each with why (an encrypted survey found damaged by
        /// `--format odk-xml`); the others are written.
        var refused: [String] = []
    }

    /// Writes every record `reader` has left in `format` to `sink`; returns how many were
    /// written. Throws what the reader throws (the rest of the file unreadable: what was
    /// written stays written) and what `sink` throws; for CSV, an answer a cell has no place
    /// for (`UncarriedAnswer`: a roster), before anything is written when the surveys are all
    /// read first (a form's). `raw`: CSV cells without the `'` before a formula.
    /// `completeOnly`: incomplete surveys are left out (else they are written with their mark,
    /// the `incomplete` column of a form's CSV).
    @discardableResult
    static func write(_ reader: RecordBatchReader, as format: DataFormat, questionnaire: Questionnaire,
                      raw: Bool = false, completeOnly: Bool = false, to sink: Sink) throws -> Written {
        var out: [UInt8] = []
        out.reserveCapacity(1 << 20)
        var written = Written()
        func nextBatch() throws -> [Record]? {
            guard var batch = try reader.next() else { return nil }
            let incomplete = batch.reduce(0) { $0 + ($1.isIncomplete ? 1 : 0) }
            written.incomplete += incomplete
            if completeOnly, incomplete > 0 { batch.removeAll(where: \.isIncomplete) }
            written.surveys += batch.count
            return batch
        }
        var first = try nextBatch() ?? []
        func send() throws -> Bool {
            defer { out.removeAll(keepingCapacity: true) }
            return try out.withUnsafeBytes(sink)
        }
        if format == .table {
            var table = RecordTable(questionnaire: questionnaire, first: first,
                                    expectedCount: reader.knownCount ?? reader.estimatedCount)
            table.appendHeader(to: &out)
            table.append(first, to: &out)
            guard try send() else { return written }
            while let batch = try nextBatch() {
                table.append(batch, to: &out)
                guard try send() else { break }
            }
            return written
        }
        let streamed: ExportStream.Format = format == .json ? .json : format == .plist ? .propertyList : .csv
        var unknownKeys: [String] = []
        if ExportStream.needsEverySurveyFirst(streamed, questionnaire: questionnaire) {
            // The header names every key any survey holds: read them all first.
            while let batch = try nextBatch() { first += batch }
            unknownKeys = questionnaire.unknownRecordKeys(in: first)
        }
        func check(_ records: [Record]) throws {
            if streamed == .csv, let uncarried = questionnaire.csvUncarried(records) { throw uncarried }
        }
        try check(first)
        var stream = ExportStream(streamed, questionnaire: questionnaire, unknownKeys: unknownKeys, raw: raw)
        stream.start(into: &out)
        stream.append(first, into: &out)
        guard try send() else { return written }
        while let batch = try nextBatch() {
            try check(batch)
            stream.append(batch, into: &out)
            guard try send() else { return written }
        }
        stream.end(into: &out)
        _ = try send()
        return written
    }

    /// `write` to stdout, the first batch flushed at once (the first line is on its way
    /// before the rest of the file is read); stops when stdout fails (`StandardOutput`
    /// reports it, or ends quietly on a broken pipe).
    static func writeToStandardOutput(_ reader: RecordBatchReader, as format: DataFormat,
                                      questionnaire: Questionnaire, raw: Bool = false, completeOnly: Bool = false) throws {
        var first = true
        try write(reader, as: format, questionnaire: questionnaire, raw: raw, completeOnly: completeOnly) { bytes in
            StandardOutput.write(bytes: bytes)
            if first {
                first = false
                StandardOutput.flush()
            }
            return StandardOutput.isWritable
        }
    }
}
