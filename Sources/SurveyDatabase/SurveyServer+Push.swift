import SurveyValues
import SurveyForms
import SurveyStorage

extension SurveyServer {
    /// Rows per transaction of a push (DECISIONS, "Optimistic pushes in batches").
    public static let pushBatchSize = 1000

    /// Sends `rows` in batches of `batchSize`, each batch one transaction, and says what became
    /// of each row, in order. Optimistic: an edit is stored only if the server's revision is
    /// still the one it was edited from (`UPDATE … WHERE revision = base`), a new survey only if
    /// the server has no survey with its id (`INSERT … ON CONFLICT DO NOTHING`); anything else is
    /// reported (`stale`: pull first), never overwritten.
    ///
    /// A push cut off at any point (killed, the server stopped, the network cut) leaves every
    /// batch either whole on the server or absent; running it again finishes the job without
    /// duplicates: what is already there as sent comes back `alreadyThere`. `progress` is called
    /// after each batch is committed. A refusal of the whole statement (a role without the
    /// right to push, a lost connection) throws, with the batches before it committed.
    ///
    /// `written` gets, for each committed batch that stored something, the range of change
    /// numbers it took: one transaction's numbers share its transaction id's block
    /// (`Schema.lockFreeChanges`), so nobody else's change falls inside, and a pull may skip
    /// the range (`pull(skipping:)`) instead of downloading this laptop's own pushes back.
    public func push(_ rows: [OutgoingRow], batchSize: Int = pushBatchSize,
                     progress: (PushProgress) throws -> Void = { _ in },
                     written: (ClosedRange<Int64>) -> Void = { _ in }) throws -> [PushResult] {
        var results: [PushResult] = []
        results.reserveCapacity(rows.count)
        var start = 0
        while start < rows.count {
            let batch = Array(rows[start..<min(start + max(batchSize, 1), rows.count)])
            let (pushed, changes) = try connection.transaction { try pushBatch(batch) }
            results += pushed
            if let changes { written(changes) }
            start += batch.count
            try progress(PushProgress(sent: start, total: rows.count))
        }
        return results
    }

    private func pushBatch(_ batch: [OutgoingRow]) throws -> ([PushResult], ClosedRange<Int64>?) {
        var lowest = Int64.max, highest = Int64.min
        func note(_ change: String?) {
            guard let change = change.flatMap({ Int64($0) }) else { return }
            lowest = min(lowest, change)
            highest = max(highest, change)
        }
        let json = batch.map { PropertyValue.jsonObjectText($0.answers) }
        var stored: [String: Int64] = [:]
        let newRows = batch.indices.filter { batch[$0].baseRevision == nil }
        let edits = batch.indices.filter { batch[$0].baseRevision != nil }
        func column(_ indices: [Int], _ value: (Int) -> String?) -> String { SQLArray.literal(indices.map(value)) }
        if !newRows.isEmpty {
            let inserted = try connection.execute("""
                INSERT INTO survey.surveys (instance_id, dataset, answers, form_id, form_version, device, deleted)
                SELECT * FROM unnest($1::text[], $2::text[], $3::jsonb[], $4::text[], $5::text[], $6::text[], $7::boolean[])
                ON CONFLICT (instance_id) DO NOTHING
                RETURNING instance_id, revision, change_seq
                """, [column(newRows) { batch[$0].instanceID }, column(newRows) { batch[$0].dataset }, column(newRows) { json[$0] },
                      column(newRows) { batch[$0].formID }, column(newRows) { batch[$0].formVersion },
                      column(newRows) { batch[$0].device }, column(newRows) { batch[$0].deleted ? "t" : "f" }])
            for row in inserted.rows {
                if let id = row[0], let revision = row[1].flatMap({ Int64($0) }) { stored[id] = revision }
                note(row[2])
            }
        }
        if !edits.isEmpty {
            let updated = try connection.execute("""
                UPDATE survey.surveys AS s
                SET dataset = u.dataset, answers = u.answers, form_id = u.form_id, form_version = u.form_version,
                    device = u.device, deleted = u.deleted, base_revision = u.base,
                    change_reason = u.reason, change_reason_revision = u.base + 1
                FROM unnest($1::text[], $2::text[], $3::jsonb[], $4::text[], $5::text[], $6::text[], $7::boolean[], $8::bigint[],
                            $9::text[])
                     AS u(id, dataset, answers, form_id, form_version, device, deleted, base, reason)
                WHERE s.instance_id = u.id AND s.revision = u.base
                RETURNING s.instance_id, s.revision, s.change_seq
                """, [column(edits) { batch[$0].instanceID }, column(edits) { batch[$0].dataset }, column(edits) { json[$0] },
                      column(edits) { batch[$0].formID }, column(edits) { batch[$0].formVersion }, column(edits) { batch[$0].device },
                      column(edits) { batch[$0].deleted ? "t" : "f" }, column(edits) { batch[$0].baseRevision.map(String.init) },
                      column(edits) { batch[$0].reason }])
            for row in updated.rows {
                if let id = row[0], let revision = row[1].flatMap({ Int64($0) }) { stored[id] = revision }
                note(row[2])
            }
        }
        let leftover = batch.indices.filter { stored[batch[$0].instanceID] == nil }
        var found: [String: [String?]] = [:]
        if !leftover.isEmpty {
            let rows = try connection.execute("""
                SELECT u.id, s.revision, s.owner, s.answers = u.answers, s.deleted = u.deleted, s.base_revision, s.owner = current_user,
                       s.dataset
                FROM unnest($1::text[], $2::jsonb[], $3::boolean[]) AS u(id, answers, deleted)
                JOIN survey.surveys s ON s.instance_id = u.id
                """, [column(leftover) { batch[$0].instanceID }, column(leftover) { json[$0] },
                      column(leftover) { batch[$0].deleted ? "t" : "f" }])
            for row in rows.rows { if let id = row[0] { found[id] = row } }
        }
        let results = batch.map { row in
            if let revision = stored[row.instanceID] { return PushResult(instanceID: row.instanceID, outcome: .accepted(revision: revision)) }
            return PushResult(instanceID: row.instanceID, outcome: Self.diagnose(row, found[row.instanceID]))
        }
        return (results, lowest <= highest ? lowest...highest : nil)
    }

    /// Why a row was not stored, from the server's row (nil: there is none): already there as
    /// sent (in the dataset it was sent to), changed by someone else, another role's, or, for
    /// a new survey, an id the server has in another dataset (the insert does nothing there,
    /// and the same answers found there are not this push stored).
    static func diagnose(_ row: OutgoingRow, _ server: [String?]?) -> PushResult.Outcome {
        guard let server, let revision = server[1].flatMap({ Int64($0) }) else {
            return row.baseRevision == nil ? .stale(current: 0) : .missing
        }
        if row.baseRevision == nil, let dataset = server[7], dataset != row.dataset {
            return .inOtherDataset(dataset)
        }
        let same = server[3] == "t" && server[4] == "t" && server[6] == "t" && server[7] == row.dataset
        if same && server[5].flatMap({ Int64($0) }) == row.baseRevision { return .alreadyThere(revision: revision) }
        if let base = row.baseRevision, base == revision, server[6] != "t" { return .refused(owner: server[2] ?? "") }
        return .stale(current: revision)
    }
}
