import FoundationEssentials
import SurveyValues
import SurveyForms
import SurveyStorage

extension SurveyServer {
    /// The surveys of `dataset` (nil: every dataset) that changed after `cursor`, oldest change
    /// first, at most `limit`, leaving out the changes numbered in `skipping` (this laptop's
    /// own pushes, which it already holds: `SyncLedger.ownChanges`); and the cursor to ask
    /// from next time. The caller stores the new cursor only once it has kept the rows, so a
    /// pull cut off half-way asks again from where its last kept batch ended.
    ///
    /// The next cursor is the last row's number; when the batch holds fewer than `limit`
    /// rows it held every change there is below the horizon (the same statement, the same
    /// snapshot), so the cursor moves to just under the horizon, past this laptop's own
    /// pushes: a sync after a push of 100,000 surveys neither downloads them back nor scans
    /// them again.
    ///
    /// A row this laptop cannot keep (`SetAsideRow`: answers that are not an object, a `null`,
    /// a number beyond a double, nesting too deep; an empty or control-character id) comes
    /// back in `setAside` with who wrote it and why, never stopping the rest: the cursor moves
    /// past it like any other (issue 28).
    ///
    /// Only changes below `survey.change_horizon()` come: those of transactions older than
    /// every one still open, so no change committed later can get a number under the cursor
    /// (`Schema.lockFreeChanges`). A teammate's open transaction holds back what a pull sees,
    /// not what anyone can write, and the server ends it when it sits idle. The skipped
    /// numbers split what is asked into gaps, each an index range scan of its own, so the
    /// cost is the rows that come, not the rows passed over.
    ///
    /// `ahead`: when this batch is full, the next one is asked for at once
    /// (`DatabaseConnection.sendAhead`), before this one is read, so the server prepares it
    /// while the laptop reads and applies this one; the next `pull` from the cursor this one
    /// returns, with the same `skipping`, takes it. Any other statement first drops it.
    public func pull(dataset: String?, since cursor: Int64, limit: Int = 1000, skipping: [ClosedRange<Int64>] = [],
                     ahead: Bool = false) throws -> (rows: [IncomingRow], setAside: [SetAsideRow], cursor: Int64) {
        // Read where libpq holds them, each answer straight into a survey's packed bytes
        // (`IncomingRow.packedAnswers`): no row of strings, no dictionary per survey.
        let query = Self.pullQuery(dataset, cursor, limit, skipping)
        return try connection.withRows(query.statement, query.parameters) { result in
            // The cursor first, from the horizon and the last row's number alone: the next
            // batch can be asked for before this one is read.
            var last: Int64?
            var horizon: Int64?
            var taken = 0
            for row in 0..<result.count {
                horizon = result.integer(row, 0)
                guard !result.isNull(row, 1) || !result.isNull(row, 17) else { continue }   // the LEFT JOIN's empty row
                last = result.integer(row, 17)
                taken += 1
            }
            var next = last ?? cursor
            if taken < limit, let horizon, horizon - 1 > next { next = horizon - 1 }
            if ahead, taken == limit {
                let following = Self.pullQuery(dataset, next, limit, skipping)
                connection.sendAhead(following.statement, following.parameters)
            }
            var rows: [IncomingRow] = []
            var setAside: [SetAsideRow] = []
            rows.reserveCapacity(result.count)
            var reader = StoredAnswersReader()
            for row in 0..<result.count {
                let columns = PulledColumns(result: result, row: row)
                guard !columns.isNull(0) || !columns.isNull(16) else { continue }
                do {
                    rows.append(try Self.incoming(columns, reader: &reader, target: connection.target))
                } catch let unreadable as Unreadable {
                    setAside.append(SetAsideRow(id: columns.text(0) ?? "", owner: columns.text(6) ?? "", reason: unreadable.reason))
                }
                if row % 128 == 127 { connection.readAhead() }
            }
            return (rows, setAside, next)
        }
    }

    /// The statement and its parameters for one batch. With nothing to skip (a fresh laptop,
    /// and any laptop whose own pushes the cursor has passed) the rows come straight from the
    /// index in order; with gaps, each gap is scanned and the batch sorted. Both hand back the
    /// same columns, so one reader takes either.
    static func pullQuery(_ dataset: String?, _ cursor: Int64, _ limit: Int,
                          _ skipping: [ClosedRange<Int64>]) -> (statement: String, parameters: [String?]) {
        let gaps = Self.gaps(after: cursor, skipping: skipping)
        if gaps.count == 1 { return (pullStatementWithoutGaps, [dataset, String(gaps[0].after), String(limit)]) }
        return (pullStatement, [dataset, SQLArray.literal(gaps.map { String($0.after) }), SQLArray.literal(gaps.map { String($0.before) }),
                                String(limit)])
    }

    /// What a pull reads of each survey (the bench copies the same columns out as its floor).
    package static let pulledColumns = """
        instance_id, dataset, answers::text, form_id, form_version, device, owner, revision, base_revision,
                       deleted, review_state, review_comment, reviewed_by, extract(epoch FROM reviewed_at)::text,
                       extract(epoch FROM created_at)::text, extract(epoch FROM updated_at)::text, change_seq
        """

    /// The horizon is worked out once (`MATERIALIZED`): as a subquery the planner folded it
    /// into every row it sent back, a snapshot taken per survey.
    static let pullStatement = """
        WITH h AS MATERIALIZED (SELECT survey.change_horizon() AS horizon)
        SELECT h.horizon, s.* FROM h
        LEFT JOIN LATERAL (
            SELECT x.* FROM unnest($2::bigint[], $3::bigint[]) AS g(after, before)
            CROSS JOIN LATERAL (
                SELECT \(pulledColumns)
                FROM survey.surveys
                WHERE ($1::text IS NULL OR dataset = $1) AND change_seq > g.after AND change_seq < g.before
                      AND change_seq < h.horizon
                ORDER BY change_seq
                LIMIT $4) x
            ORDER BY x.change_seq
            LIMIT $4) s ON true
        """

    /// One range, read in the index's order: the gaps' statement sorted every batch again,
    /// answers and all (a 100,000-survey pull: 0.36 s of the server's time against 0.27 s).
    static let pullStatementWithoutGaps = """
        WITH h AS MATERIALIZED (SELECT survey.change_horizon() AS horizon)
        SELECT h.horizon, s.* FROM h
        LEFT JOIN LATERAL (
            SELECT \(pulledColumns)
            FROM survey.surveys
            WHERE ($1::text IS NULL OR dataset = $1) AND change_seq > $2 AND change_seq < h.horizon
            ORDER BY change_seq
            LIMIT $3) s ON true
        """

    /// One row of a pull's result, its columns numbered from the survey's (the horizon,
    /// column 0 of the statement, left out).
    struct PulledColumns {
        let result: ResultRows
        let row: Int

        func isNull(_ i: Int) -> Bool { result.isNull(row, i + 1) }
        func bytes(_ i: Int) -> UnsafeBufferPointer<UInt8>? { result.bytes(row, i + 1) }
        func text(_ i: Int) -> String? { result.text(row, i + 1) }
        func integer(_ i: Int) -> Int64? { result.integer(row, i + 1) }
    }

    /// How many changes `pull` would still bring from `cursor` on: what a long pull's "about a
    /// minute left" is reckoned from. One count over the same index ranges.
    public func changesWaiting(dataset: String?, since cursor: Int64, skipping: [ClosedRange<Int64>] = []) throws -> Int {
        let gaps = Self.gaps(after: cursor, skipping: skipping)
        let result = try connection.execute("""
            SELECT count(*) FROM unnest($2::bigint[], $3::bigint[]) AS g(after, before)
            JOIN survey.surveys ON ($1::text IS NULL OR dataset = $1) AND change_seq > g.after AND change_seq < g.before
                 AND change_seq < survey.change_horizon()
            """, [dataset, SQLArray.literal(gaps.map { String($0.after) }), SQLArray.literal(gaps.map { String($0.before) })])
        return result.rows.first?.first.flatMap { $0.flatMap { Int($0) } } ?? 0
    }

    /// The ranges of change numbers to ask for: after `cursor`, around each skipped range
    /// (sorted, merged), the last one open-ended.
    static func gaps(after cursor: Int64, skipping: [ClosedRange<Int64>]) -> [(after: Int64, before: Int64)] {
        var gaps: [(after: Int64, before: Int64)] = []
        var after = cursor
        for range in skipping.sorted(by: { $0.lowerBound < $1.lowerBound }) where range.upperBound > after {
            if range.lowerBound > after + 1 { gaps.append((after, range.lowerBound)) }
            after = max(after, range.upperBound)
        }
        gaps.append((after, Int64.max))
        return gaps
    }

    /// Why a row cannot be kept here.
    struct Unreadable: Error {
        var reason: String
    }

    static func incoming(_ c: PulledColumns, reader: inout StoredAnswersReader, target: ConnectionString) throws -> IncomingRow {
        func required(_ i: Int) throws -> String {
            guard let value = c.text(i) else { throw DatabaseError(.protocolError, "\(target.shown) sent a survey without column \(i + 1)") }
            return value
        }
        func number(_ i: Int) throws -> Int64 {
            guard !c.isNull(i) else { throw DatabaseError(.protocolError, "\(target.shown) sent a survey without column \(i + 1)") }
            guard let value = c.integer(i) else { throw DatabaseError(.protocolError, "\(target.shown) sent a number survey cannot read") }
            return value
        }
        func date(_ i: Int) -> Date? { c.text(i).flatMap(Double.init).map { Date(timeIntervalSince1970: $0) } }
        let id = try required(0)
        if let problem = SetAsideRow.problem(withID: id) { throw Unreadable(reason: problem) }
        guard let text = c.bytes(2) else { throw DatabaseError(.protocolError, "\(target.shown) sent a survey without column 3") }
        let answers: Record
        do {
            answers = try reader.answers(jsonObject: text)
        } catch let error as DocumentError {
            throw Unreadable(reason: error.message)
        }
        var review: Review?
        if let state = c.text(10).flatMap(ReviewState.init(rawValue:)) {
            review = Review(state: state, comment: c.text(11), by: c.text(12), at: date(13))
        }
        return IncomingRow(instanceID: id, dataset: try required(1), packedAnswers: answers, formID: c.text(3), formVersion: c.text(4),
                           device: c.text(5), owner: try required(6), revision: try number(7), baseRevision: c.integer(8),
                           deleted: c.bytes(9).map { $0.count == 1 && $0[0] == UInt8(ascii: "t") } ?? false, review: review,
                           createdAt: date(14) ?? Date(timeIntervalSince1970: 0),
                           updatedAt: date(15) ?? Date(timeIntervalSince1970: 0), change: try number(16))
    }
}

extension SurveyServer {
    /// The newest version published for `formID` (nil: none): one indexed row, what a sync
    /// with nothing to do asks before it concludes so.
    public func newestFormVersion(formID: String) throws -> String? {
        let result = try connection.execute("""
            SELECT version FROM survey.forms WHERE form_id = $1 AND change_seq < survey.change_horizon()
            ORDER BY change_seq DESC LIMIT 1
            """, [formID])
        return result.rows.first?.first ?? nil
    }
}
