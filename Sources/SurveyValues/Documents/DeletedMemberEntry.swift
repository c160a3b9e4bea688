import FoundationEssentials

/// A roster member deleted from a survey (^D), kept among the document's deleted surveys so
/// that nothing deleted is ever in no file (issue 27): undo puts it back during the session,
/// and after it the member is still on disk, in `.NAME.deleted.plist` as
/// `{deletedAt, member, survey, roster}` (`survey`: the survey's id, or "New form"; `roster`:
/// where it was, `member[2]`). `DeletedRecord(entry:)` does not read such an entry (it holds
/// no `record`), so `survey deleted` and `undelete` pass over it and keep it untouched.
public struct DeletedMemberEntry: Equatable, Sendable {
    public var answers: [String: PropertyValue]
    public var survey: String
    public var roster: String
    public var deletedAt: Date

    public init(answers: [String: PropertyValue], survey: String, roster: String, deletedAt: Date) {
        self.answers = answers
        self.survey = survey
        self.roster = roster
        self.deletedAt = deletedAt
    }

    package var entry: [String: PropertyValue] {
        ["deletedAt": .date(deletedAt), "member": .dictionary(answers), "survey": .string(survey), "roster": .string(roster)]
    }

    /// nil for any other entry.
    public init?(entry: [String: PropertyValue]) {
        guard case .date(let date) = entry["deletedAt"], case .dictionary(let answers) = entry["member"],
              case .string(let survey) = entry["survey"], case .string(let roster) = entry["roster"] else { return nil }
        self.init(answers: answers, survey: survey, roster: roster, deletedAt: date)
    }
}

