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

    /// Writes every record `reader` has left in `format` to `sink`; returns how many were
    /// written. Throws what the reader throws (the rest of the file unreadable: what was
    /// written stays written) and what `sink` throws; for CSV, an answer a cell has no place
    /// for (`UncarriedAnswer`: a roster), before anything is written when the surveys are all
    /// read first (a form's). `raw`: CSV cells without the `'` before a formula.
    @discardableResult
    static func write(_ reader: RecordBatchReader, as format: DataFormat, questionnaire: Questionnaire,
                      raw: Bool = false, to sink: Sink) throws -> Int {
        var out: [UInt8] = []
        out.reserveCapacity(1 << 20)
        var first = try reader.next() ?? []
        func send() throws -> Bool {
            defer { out.removeAll(keepingCapacity: true) }
            return try out.withUnsafeBytes(sink)
        }
        if format == .table {
            var table = RecordTable(questionnaire: questionnaire, first: first,
                                    expectedCount: reader.knownCount ?? reader.estimatedCount)
            table.appendHeader(to: &out)
            table.append(first, to: &out)
            guard try send() else { return first.count }
            while let batch = try reader.next() {
                table.append(batch, to: &out)
                guard try send() else { break }
            }
            return reader.handedOver
        }
        let streamed: ExportStream.Format = format == .json ? .json : format == .plist ? .propertyList : .csv
        var unknownKeys: [String] = []
        if ExportStream.needsEverySurveyFirst(streamed, questionnaire: questionnaire) {
            // The header names every key any survey holds: read them all first.
            while let batch = try reader.next() { first += batch }
            unknownKeys = questionnaire.unknownRecordKeys(in: first)
        }
        func check(_ records: [Record]) throws {
            if streamed == .csv, let uncarried = questionnaire.csvUncarried(records) { throw uncarried }
        }
        try check(first)
        var stream = ExportStream(streamed, questionnaire: questionnaire, unknownKeys: unknownKeys, raw: raw)
        stream.start(into: &out)
        stream.append(first, into: &out)
        guard try send() else { return first.count }
        while let batch = try reader.next() {
            try check(batch)
            stream.append(batch, into: &out)
            guard try send() else { return reader.handedOver }
        }
        stream.end(into: &out)
        _ = try send()
        return reader.handedOver
    }

    /// `write` to stdout, the first batch flushed at once (the first line is on its way
    /// before the rest of the file is read); stops when stdout fails (`StandardOutput`
    /// reports it, or ends quietly on a broken pipe).
    static func writeToStandardOutput(_ reader: RecordBatchReader, as format: DataFormat,
                                      questionnaire: Questionnaire, raw: Bool = false) throws {
        var first = true
        try write(reader, as: format, questionnaire: questionnaire, raw: raw) { bytes in
            StandardOutput.write(bytes: bytes)
            if first {
                first = false
                StandardOutput.flush()
            }
            return StandardOutput.isWritable
        }
    }
}
