import FoundationEssentials
import SurveyValues

/// Surveys that could not stay where they belonged: the records of a document that vanished
/// while open, when the terminal closed or a signal came before they were saved under a name;
/// or another window's New form that this one's would otherwise have replaced; or another
/// program's version of surveys a save clash kept aside (the same answers changed there and
/// here). Each is a hidden `.NAME.recovered-DATE-PID.plist` beside the documents (the
/// document format, so plistlib reads it), offered to put back (merged into a survey the
/// document still has: `Recovery+Merge.swift`) or discard. A clash also keeps, in
/// `.NAME.recovered-DATE-PID.base.plist`, those surveys as both sides had them before: the
/// base of the three-way merge. Rejected: a
/// recovery folder in the state directory (lost when the document folder is copied to
/// another machine) and a visible `.plist` (it would be listed as a document).
public struct Recovery: Equatable, Sendable {
    /// The document the surveys belong to.
    public let documentName: String
    public let fileName: String
    public let date: Date
    public let records: [Record]
    /// What names the surveys: their document's questionnaire (`DocumentStore.documentForm`).
    public let questionnaire: Questionnaire
    /// For surveys a save clash kept aside, by id: each as it was before either side changed
    /// it (what the app had last read or written). Empty for other recoveries.
    public let bases: [String: Record]

    public init(documentName: String, fileName: String, date: Date, records: [Record],
                questionnaire: Questionnaire = .standard, bases: [String: Record] = [:]) {
        self.documentName = documentName
        self.fileName = fileName
        self.date = date
        self.records = records
        self.questionnaire = questionnaire
        self.bases = bases
    }

    /// Whether these are another program's version of surveys the document has (a save clash).
    public var keptFromClash: Bool { !bases.isEmpty }

    /// The companion holding the bases: `.NAME.recovered-….base.plist`.
    public static func baseFileName(of fileName: String) -> String {
        String(fileName.dropLast(DocumentName.fileSuffix.count)) + ".base" + DocumentName.fileSuffix
    }
}
