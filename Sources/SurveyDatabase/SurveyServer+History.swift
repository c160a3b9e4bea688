import FoundationEssentials
import SurveyValues

/// One version of a survey as the team's store keeps it (`Schema.keptVersions`): a version an
/// edit replaced, or the survey as it is now (`isCurrent`).
///
/// ODK Central gives each version of a submission an `instanceID` of its own, the edited
/// submission naming the one it replaces in `deprecatedID`, and the first one names the
/// submission for good. survey keeps one id per survey and numbers its versions (the server's
/// `revision`), so a version's id is made from the two (`versionID`): revision 1 is the
/// survey's own id, as Central's first version is; revision N is the id and `~N`
/// (`uuid:…~3`), and names the one before it as its `deprecatedID` (DECISIONS.md).
public struct SurveyVersion: Equatable, Sendable {
    /// The survey's id: the first version's, Central's root id.
    public var instanceID: String
    public var revision: Int64
    /// The answers; empty when they cannot be read here (`unreadable`).
    public var answers: [String: PropertyValue]
    /// Why the answers cannot be read here (not JSON a laptop keeps, nested too deep), or nil.
    public var unreadable: String?
    public var deleted: Bool
    public var formID: String?
    public var formVersion: String?
    public var device: String?
    /// The login role that sent this version.
    public var by: String
    public var at: Date
    /// The survey as it is now; every other version was replaced by the next.
    public var isCurrent: Bool
    /// Why it was made, as its laptop sent it (`OutgoingRow.reason`); nil when nobody said.
    public var reason: String?

    public init(instanceID: String, revision: Int64, answers: [String: PropertyValue], unreadable: String? = nil,
                deleted: Bool = false, formID: String? = nil, formVersion: String? = nil, device: String? = nil,
                by: String, at: Date, isCurrent: Bool) {
        self.instanceID = instanceID
        self.revision = revision
        self.answers = answers
        self.unreadable = unreadable
        self.deleted = deleted
        self.formID = formID
        self.formVersion = formVersion
        self.device = device
        self.by = by
        self.at = at
        self.isCurrent = isCurrent
    }

    /// What joins a survey's id and a revision in a version's id.
    public static let versionMark: Character = "~"

    /// This version's id as ODK Central would give it: the survey's id for revision 1, else
    /// `ID~REVISION`.
    public var versionID: String { Self.versionID(of: instanceID, revision: revision) }

    /// The id of the version this one replaced (Central's `deprecatedID`); nil for the first.
    public var deprecatedID: String? { revision > 1 ? Self.versionID(of: instanceID, revision: revision - 1) : nil }

    public static func versionID(of instanceID: String, revision: Int64) -> String {
        revision == 1 ? instanceID : instanceID + String(versionMark) + String(revision)
    }

    /// The survey id and revision a version's id (`uuid:…~3`) is made of; nil for text that is
    /// not one (no `~` followed by a revision of 2 or more).
    public static func parse(versionID text: String) -> (instanceID: String, revision: Int64)? {
        guard let mark = text.lastIndex(of: versionMark), mark > text.startIndex else { return nil }
        let digits = text[text.index(after: mark)...]
        guard !digits.isEmpty, digits.count <= 18, digits.allSatisfy({ $0.isASCII && $0.isNumber }), digits.first != "0",
              let revision = Int64(digits), revision >= 2 else { return nil }
        return (String(text[..<mark]), revision)
    }
}

extension SurveyServer {
    /// The survey `id` names: its own id, or one of its versions' (`uuid:…~3`, `SurveyVersion`).
    /// A survey whose own id it is wins. Nil when the store holds no such survey or version.
    public func surveyNamed(_ id: String) throws -> String? {
        if try !connection.execute("SELECT 1 FROM survey.survey_history WHERE instance_id = $1 LIMIT 1", [id]).rows.isEmpty {
            return id
        }
        guard let (root, revision) = SurveyVersion.parse(versionID: id) else { return nil }
        let found = try connection.execute("SELECT 1 FROM survey.survey_history WHERE instance_id = $1 AND revision = $2 LIMIT 1",
                                           [root, String(revision)])
        return found.rows.isEmpty ? nil : root
    }

    /// Survey `instanceID`'s versions after `revision`, oldest first, at most `limit`: a long
    /// history is read a page at a time, so it is never held whole. Answers a laptop could
    /// not keep (`SetAsideRow`: not a JSON object, a `null`, nested deeper than 50 levels)
    /// come with the reason instead, so one bad version never hides the others.
    public func versions(of instanceID: String, after revision: Int64 = 0, limit: Int = 100) throws -> [SurveyVersion] {
        let result = try connection.execute("""
            SELECT h.revision, h.answers::text, h.deleted, h.form_id, h.form_version, h.device, h.made_by,
                   extract(epoch FROM h.made_at)::text, h.current, CASE WHEN h.current THEN s.change_reason ELSE v.change_reason END
            FROM survey.survey_history h
            LEFT JOIN survey.survey_versions v ON NOT h.current AND v.instance_id = h.instance_id AND v.revision = h.revision
            LEFT JOIN survey.surveys s ON h.current AND s.instance_id = h.instance_id
            WHERE h.instance_id = $1 AND h.revision > $2
            ORDER BY h.revision, h.current
            LIMIT $3
            """, [instanceID, String(revision), String(max(limit, 1))])
        return try result.rows.map { c in
            guard let revision = c[0].flatMap({ Int64($0) }), let by = c[6], let at = c[7].flatMap(Double.init) else {
                throw DatabaseError(.protocolError, "\(connection.target.shown) sent a version survey cannot read")
            }
            var version = SurveyVersion(instanceID: instanceID, revision: revision, answers: [:], deleted: c[2] == "t",
                                        formID: c[3], formVersion: c[4], device: c[5], by: by,
                                        at: Date(timeIntervalSince1970: at), isCurrent: c[8] == "t")
            // Checked as a file's text would be: the server's own check may be older, or dropped.
            version.reason = c[9].map { ChangeReasons.cut(ChangeReasons.cleaned($0)) }.flatMap { $0.isEmpty ? nil : $0 }
            do {
                var text = c[1] ?? ""
                let answers = try text.withUTF8 { try PropertyValue.answers(jsonObject: $0) }
                if let problem = SetAsideRow.problem(withAnswers: answers) {
                    version.unreadable = problem
                } else {
                    version.answers = answers
                }
            } catch let error as DocumentError {
                version.unreadable = error.message
            }
            return version
        }
    }
}
