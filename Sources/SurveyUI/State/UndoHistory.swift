import SurveyValues
import SurveyForms

/// Every change to the document in this run, to step back and forth through (Ctrl-Z/Ctrl-Y),
/// kept as snapshots of the document before and after (TCA-style state, not commands): an
/// undo is then "make the document what it was", replayed as a merge when another program
/// changed the file meanwhile. Snapshots share their records' storage, so a step costs an
/// array of references, not a copy of the surveys. The UI's own rollback (a failed save) is
/// a different thing and lives in `AppState.Rollback`.
public struct UndoHistory: Equatable, Sendable {
    public struct Step: Equatable, Sendable {
        /// `keptIncomplete`: a New form kept as an incomplete survey (undone, it goes back on
        /// the New form, `AppState+Incomplete`).
        public enum Kind: Equatable, Sendable { case edit, add, delete, other, keptIncomplete }
        public var kind: Kind
        /// "delete of “Okonkwo, Chidi”", for "Undid …" and "Redid …".
        public var label: String
        public var before: SurveyDocument
        public var after: SurveyDocument
        /// The record to show after an undo (before) and after a redo (after), by id.
        public var focusBefore: String?
        public var focusAfter: String?
    }

    /// At least the 100 steps the issue asks for.
    public static let limit = 200
    public var undo: [Step] = []
    public var redo: [Step] = []

    public init() {}

    mutating func record(_ step: Step) {
        undo.append(step)
        if undo.count > Self.limit { undo.removeFirst(undo.count - Self.limit) }
        redo = []
    }
}
