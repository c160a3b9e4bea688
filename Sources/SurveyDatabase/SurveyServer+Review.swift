import FoundationEssentials
import SurveyValues
import SurveyForms
import SurveyStorage

extension SurveyServer {
    /// A supervisor's review of one survey (ODK Central's states), with an optional comment.
    /// Column privileges let the supervisor role change these two columns only; the server
    /// stamps who and when, and bumps the survey's change number so the enumerator's next
    /// pull brings it. Returns false when there is no such survey.
    @discardableResult
    public func setReview(_ instanceID: String, state: ReviewState?, comment: String?) throws -> Bool {
        let result = try connection.execute(
            "UPDATE survey.surveys SET review_state = $2, review_comment = $3 WHERE instance_id = $1",
            [instanceID, state?.rawValue, comment])
        return result.changed == 1
    }
}

extension SurveyServer {
    /// One survey as a bulk review looks at it: its answers (nil when no laptop could keep
    /// them: such a survey matches no filter) and its review now.
    public struct ReviewCandidate: Sendable {
        public var id: String
        public var answers: [String: PropertyValue]?
        public var review: ReviewState?
    }

    /// A page of the surveys not deleted (of `dataset` when given), by id after `after`: what
    /// `survey review --filter` reads, a page at a time, to choose the surveys it reviews.
    public func reviewCandidates(dataset: String?, after: String, limit: Int = 1_000) throws -> [ReviewCandidate] {
        let result = try connection.execute("""
            SELECT instance_id, answers::text, review_state FROM survey.surveys
            WHERE NOT deleted AND ($1::text IS NULL OR dataset = $1) AND instance_id > $2
            ORDER BY instance_id LIMIT $3
            """, [dataset, after, String(limit)])
        return result.rows.map { row in
            let answers: [String: PropertyValue]? = row[1].flatMap { text in
                var text = text
                return try? text.withUTF8 { try PropertyValue.answers(jsonObject: $0) }
            }
            return ReviewCandidate(id: row[0] ?? "", answers: answers, review: row[2].flatMap(ReviewState.init(rawValue:)))
        }
    }

    /// The same review for every survey of `ids`, in one statement (so all or none), each
    /// still as it was chosen: not deleted, of `dataset`, and its review `reviewed` when given
    /// (a survey deleted or reviewed by someone else since the pages were read is left as
    /// it is). The ids the server changed.
    public func setReviews(_ ids: [String], state: ReviewState?, comment: String?,
                           dataset: String? = nil, reviewed: ReviewState?? = nil) throws -> [String] {
        guard !ids.isEmpty else { return [] }
        let result = try connection.execute("""
            UPDATE survey.surveys SET review_state = $2, review_comment = $3
            WHERE instance_id = ANY($1::text[]) AND NOT deleted AND ($4::text IS NULL OR dataset = $4)
                  AND (NOT $5::boolean OR review_state IS NOT DISTINCT FROM $6)
            RETURNING instance_id
            """, [SQLArray.literal(ids), state?.rawValue, comment, dataset, reviewed == nil ? "false" : "true",
                  reviewed.flatMap { $0?.rawValue }])
        return result.rows.compactMap { $0.first ?? nil }
    }
}

extension SurveyServer {
    /// A survey's review as the server keeps it: the verdict, the words, who gave it and when.
    public struct ReviewStamp: Equatable, Sendable {
        public var state: ReviewState
        public var comment: String?
        public var by: String?
        public var at: Date?
    }

    /// The review of survey `instanceID` now; nil when it has none (or there is no such survey).
    public func review(of instanceID: String) throws -> ReviewStamp? {
        let result = try connection.execute("""
            SELECT review_state, review_comment, reviewed_by, extract(epoch FROM reviewed_at)::text
            FROM survey.surveys WHERE instance_id = $1
            """, [instanceID])
        guard let row = result.rows.first, let state = row[0].flatMap(ReviewState.init(rawValue:)) else { return nil }
        return ReviewStamp(state: state, comment: row[1], by: row[2], at: row[3].flatMap(Double.init).map { Date(timeIntervalSince1970: $0) })
    }
}
