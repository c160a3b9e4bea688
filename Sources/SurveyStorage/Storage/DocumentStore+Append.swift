import FoundationEssentials
import SurveyValues
import SurveyForms

/// Adding records from outside the app (`survey add`, `survey import`, putting recovered
/// surveys back): all of them or none, in one atomic write, so an interrupted import never
/// leaves half its rows in a document.
extension DocumentStore {
    /// Appends `records` and returns how many records the document then holds. An existing
    /// document is read first and never written when it cannot be read (a damaged file is
    /// not replaced by a document holding only the new records). A `.new` one is written
    /// with the records in place, like `create(named:)` writes an empty one: never replacing
    /// a file, and refusing a name another document took meanwhile.
    ///
    /// Every record leaves with an `instanceID`: a new record keeps its own (an import of
    /// an export), and one without gets a new one, as do the document's records found
    /// without one, as the app does at a document's next save. Without an id a record
    /// could not be found again by a merge, an undo or `survey undelete`.
    ///
    /// `questionnaire` is the document's: the original five store every text answer, empty or
    /// not; a designer's form leaves unanswered questions out, as ODK does. With the form's
    /// `public_key`, each finished survey is stored encrypted (`SealedSurvey`), its attachments
    /// inside it and their plaintext removed from `NAME.media/` once it is saved
    /// (`leftInPlaintext` told of a file that could not be); a key that cannot be used, or an
    /// attachment that cannot be read, refuses them all, writing nothing.
    @discardableResult
    public func append(_ records: [Record], to target: DocumentTarget,
                       questionnaire: Questionnaire, leftInPlaintext: (String) -> Void = { _ in }) throws -> Int {
        // Shaped as the form's Add shapes them.
        let records = records.map { $0.withEmptyTextAnswers(in: questionnaire) }
        switch target {
        case .existing(let name):
            // Read and written under the folder's lock, so the app's save cannot land in
            // between and be written over (see `save(_:as:ifStill:)`).
            return try withFolderLock {
                var document = try load(name).get()
                // The surveys found without an id get the one derived from their place and
                // answers, the id the app holding the document open gives them, so both
                // agree which survey is which; only the new ones get fresh random ids.
                _ = document.identifyRecordsFoundWithoutIDs()
                try Self.refuseTakenIDs(records, in: document, named: name)
                let start = document.records.count
                document.records += records
                document.assignMissingInstanceIDs()
                // A form with a public_key: the finished ones are written encrypted only.
                let attachments = try sealFinishedSurveys(in: &document, at: start..<document.records.count,
                                                          questionnaire: questionnaire, name: name)
                try save(document, as: name)
                // Their plaintext leaves the media folder only now the encrypted surveys are saved.
                // One that cannot be removed is left as it was, and said: the surveys are saved.
                if let left = removeSealedAttachments(attachments, keepingThoseOf: document, questionnaire: questionnaire, for: name) {
                    leftInPlaintext(left)
                }
                return document.records.count
            }
        case .new(let raw):
            try Self.refuseTakenIDs(records, in: SurveyDocument(), named: raw)
            var document = SurveyDocument(records: records)
            document.assignMissingInstanceIDs()
            // A new document has no media folder yet: nothing of it to read or remove.
            try document.sealFinishedSurveys(at: document.records.indices, questionnaire: questionnaire)
            try create(named: raw, containing: document)
            return records.count
        }
    }

    /// An id is unique in a document, whatever path adds the survey: edits, merges, undo and
    /// `undelete` find a survey by it, and would land on the wrong one. The importers say so
    /// first with the row (`duplicateIDProblems`); this is the last guard, for every caller.
    static func refuseTakenIDs(_ records: [Record], in document: SurveyDocument, named name: String) throws {
        var taken = Set(document.records.compactMap(\.instanceID))
        for record in records {
            guard let id = record.instanceID, !id.isEmpty else { continue }
            guard taken.insert(id).inserted else {
                throw DocumentError("Not added: “\(name)” already has a survey with the id \(id); nothing was written")
            }
        }
    }
}
