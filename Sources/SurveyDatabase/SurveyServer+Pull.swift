import FoundationEssentials
import SurveyModel

extension SurveyServer {
    /// The surveys of `dataset` (nil: every dataset) that changed after `cursor`, oldest change
    /// first, at most `limit`; and the cursor to ask from next time (`cursor` itself when
    /// nothing came). The caller stores the new cursor only once it has kept the rows, so a
    /// pull cut off half-way asks again from where its last kept batch ended.
    ///
    /// A row this laptop cannot keep (`SetAsideRow`: answers that are not an object, a `null`,
    /// a number beyond a double, nesting too deep; an empty or control-character id) comes
    /// back in `setAside` with who wrote it and why, never stopping the rest: the cursor moves
    /// past it like any other (issue 28).
    ///
    /// Only changes below `survey.change_horizon()` come: those of transactions older than
    /// every one still open, so no change committed later can get a number under the cursor
    /// (`Schema.lockFreeChanges`). A teammate's open transaction holds back what a pull sees,
    /// not what anyone can write, and the server ends it when it sits idle.
    public func pull(dataset: String?, since cursor: Int64, limit: Int = 1000)
        throws -> (rows: [IncomingRow], setAside: [SetAsideRow], cursor: Int64) {
        let result = try connection.execute("""
            SELECT instance_id, dataset, answers::text, form_id, form_version, device, owner, revision, base_revision,
                   deleted, review_state, review_comment, reviewed_by, extract(epoch FROM reviewed_at)::text,
                   extract(epoch FROM created_at)::text, extract(epoch FROM updated_at)::text, change_seq
            FROM survey.surveys
            WHERE ($1::text IS NULL OR dataset = $1) AND change_seq > $2 AND change_seq < survey.change_horizon()
            ORDER BY change_seq
            LIMIT $3
            """, [dataset, String(cursor), String(limit)])
        var rows: [IncomingRow] = []
        var setAside: [SetAsideRow] = []
        rows.reserveCapacity(result.rows.count)
        for columns in result.rows {
            do {
                rows.append(try Self.incoming(columns, target: connection.target))
            } catch let unreadable as Unreadable {
                setAside.append(SetAsideRow(id: columns[0] ?? "", owner: columns[6] ?? "", reason: unreadable.reason))
            }
        }
        let last = result.rows.last.flatMap { $0[16] }.flatMap { Int64($0) }
        return (rows, setAside, last ?? cursor)
    }

    /// Why a row cannot be kept here.
    struct Unreadable: Error {
        var reason: String
    }

    static func incoming(_ c: [String?], target: ConnectionString) throws -> IncomingRow {
        func required(_ i: Int) throws -> String {
            guard let value = c[i] else { throw DatabaseError(.protocolError, "\(target.shown) sent a survey without column \(i + 1)") }
            return value
        }
        func number(_ i: Int) throws -> Int64 {
            guard let value = Int64(try required(i)) else { throw DatabaseError(.protocolError, "\(target.shown) sent a number survey cannot read") }
            return value
        }
        func date(_ text: String?) -> Date? { text.flatMap(Double.init).map { Date(timeIntervalSince1970: $0) } }
        let id = try required(0)
        if let problem = SetAsideRow.problem(withID: id) { throw Unreadable(reason: problem) }
        let answers: [String: PropertyValue]
        do {
            answers = try PropertyValue.answers(jsonObject: Array(try required(2).utf8))
        } catch let error as DocumentError {
            throw Unreadable(reason: error.message)
        }
        if let problem = SetAsideRow.problem(withAnswers: answers) { throw Unreadable(reason: problem) }
        var review: Review?
        if let state = c[10].flatMap(ReviewState.init(rawValue:)) {
            review = Review(state: state, comment: c[11], by: c[12], at: date(c[13]))
        }
        return IncomingRow(instanceID: id, dataset: try required(1), answers: answers, formID: c[3], formVersion: c[4],
                           device: c[5], owner: try required(6), revision: try number(7), baseRevision: c[8].flatMap { Int64($0) },
                           deleted: c[9] == "t", review: review, createdAt: date(c[14]) ?? Date(timeIntervalSince1970: 0),
                           updatedAt: date(c[15]) ?? Date(timeIntervalSince1970: 0), change: try number(16))
    }
}
