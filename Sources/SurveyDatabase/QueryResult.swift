import CPostgres

/// The rows a statement returned, each column as libpq's text form (nil for SQL NULL), and
/// how many rows it changed. Copied out of libpq's result at once, so nothing outlives it.
public struct QueryResult: Equatable, Sendable {
    public var rows: [[String?]]
    /// `PQcmdTuples`: rows inserted, updated or deleted (0 for other statements).
    public var changed: Int

    public init(rows: [[String?]] = [], changed: Int = 0) {
        self.rows = rows
        self.changed = changed
    }

    /// The first column of the first row, for `SELECT x` statements.
    public var scalar: String? { rows.first?.first ?? nil }
}

/// The rows of a statement's result read where libpq holds them, for a caller that turns
/// each into its own values at once (a pull's 1,000 surveys a batch): no `[String?]` per row
/// and no copy of each column as a `String`. Valid only inside the call that lends it
/// (`DatabaseConnection.withRows`).
public struct ResultRows {
    let pq: UnsafePointer<spq_table>
    let result: OpaquePointer

    public var count: Int { Int(spq_ntuples(pq, result)) }
    public var columns: Int { Int(spq_nfields(pq, result)) }

    public func isNull(_ row: Int, _ column: Int) -> Bool {
        spq_getisnull(pq, result, Int32(row), Int32(column)) != 0
    }

    /// The column's text form, as UTF-8 in libpq's memory; nil for SQL NULL.
    public func bytes(_ row: Int, _ column: Int) -> UnsafeBufferPointer<UInt8>? {
        guard !isNull(row, column), let value = spq_getvalue(pq, result, Int32(row), Int32(column)) else { return nil }
        let length = Int(spq_getlength(pq, result, Int32(row), Int32(column)))
        return UnsafeBufferPointer(start: UnsafeRawPointer(value).assumingMemoryBound(to: UInt8.self), count: length)
    }

    /// The column's text; nil for SQL NULL.
    public func text(_ row: Int, _ column: Int) -> String? {
        bytes(row, column).map { String(decoding: $0, as: UTF8.self) }
    }

    /// The column as a whole number written in decimal, read off its bytes; nil for SQL NULL
    /// or anything else.
    public func integer(_ row: Int, _ column: Int) -> Int64? {
        guard let digits = bytes(row, column), !digits.isEmpty, digits.count <= 19 else {
            return text(row, column).flatMap { Int64($0) }
        }
        var negative = false
        var at = 0
        if digits[0] == UInt8(ascii: "-") { negative = true; at = 1 }
        guard at < digits.count else { return nil }
        var value: Int64 = 0
        while at < digits.count {
            let digit = digits[at] &- UInt8(ascii: "0")
            guard digit < 10 else { return Int64(String(decoding: digits, as: UTF8.self)) }
            let (times, overflow) = value.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = times.addingReportingOverflow(Int64(digit))
            guard !overflow, !overflow2 else { return Int64(String(decoding: digits, as: UTF8.self)) }
            value = sum
            at += 1
        }
        return negative ? -value : value
    }
}
