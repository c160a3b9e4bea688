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
