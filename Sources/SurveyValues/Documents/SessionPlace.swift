import FoundationEssentials

/// Where the person was in a document: the record (by id, and by position) and the
/// list's order.
public struct SessionPlace: Equatable, Sendable {
    public var record: Int?
    public var recordID: String?
    public var listOrder: String?
    /// The question highlighted (`AnswerPath.description`), and the form's language.
    public var question: String?
    public var language: String?
    public init(record: Int? = nil, recordID: String? = nil, listOrder: String? = nil, question: String? = nil,
                language: String? = nil) {
        self.record = record
        self.recordID = recordID
        self.listOrder = listOrder
        self.question = question
        self.language = language
    }
}
