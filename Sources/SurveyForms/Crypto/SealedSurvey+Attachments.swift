import SurveyValues

/// A survey's attachments (the files its `image`, `audio`, `video` and `file` answers name,
/// kept in the document's `NAME.media/`) go inside its encrypted submission, as ODK Collect
/// encrypts every file of a finalized instance's folder: each `NAME.enc`, listed in the
/// manifest's media, the submission naming it as its answer. The callers read the files
/// (`DocumentStore`) and remove the plaintext once the sealed survey is saved.
extension SealedSurvey {
    /// The file names `record`'s attachment answers give, each once: the form's attachment
    /// questions in form order, in repeats too (a member's answer is found under its
    /// question's name, which XLSForm keeps unique in a form).
    public static func attachmentNames(of record: Record, questionnaire: Questionnaire) -> [String] {
        guard let form = questionnaire.form else { return [] }
        let keys = form.questions.compactMap { question -> String? in
            if case .attachment = question.kind, !question.name.isEmpty { return question.name }
            return nil
        }
        guard !keys.isEmpty else { return [] }
        var names: [String] = []
        var seen: Set<String> = []
        func collect(_ key: String, in values: [String: PropertyValue]) {
            if case .string(let name)? = values[key], !name.isEmpty, seen.insert(name).inserted { names.append(name) }
            for value in values.values {
                guard case .array(let items) = value else { continue }
                for case .dictionary(let member) in items { collect(key, in: member) }
            }
        }
        for key in keys { collect(key, in: record.values) }
        return names
    }

    /// The attachment names of the surveys of `records` still kept in plaintext (not sealed):
    /// a file one of them names stays in the media folder when another survey is sealed.
    public static func plaintextAttachmentNames(in records: some Sequence<Record>, questionnaire: Questionnaire) -> Set<String> {
        Set(records.lazy.filter { !$0.isSealed }.flatMap { attachmentNames(of: $0, questionnaire: questionnaire) })
    }
}
