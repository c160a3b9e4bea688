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
