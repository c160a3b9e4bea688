import SurveyValues
import SurveyForms

/// The document manager's own state (F3): the folder's documents as last read, the
/// highlighted one and the scroll, and the inline rename field while one is open. Its
/// setters are private to this file: the app-level part (`AppState+Documents`) asks for
/// changes through the methods below and never writes a field itself.
public struct DocumentManagerState: Equatable, Sendable {
    /// The folder's documents as last read from disk.
    public private(set) var documents: [DocumentSummary] = []
    /// The highlighted document, by name, so a refresh that adds or removes rows keeps it;
    /// and the first row shown.
    public private(set) var rows = ScrollingList<String?>(cursor: nil)
    public private(set) var renaming: TextInput?

    public init() {}

    /// F3: a fresh manager highlighting the open document, until the folder is read.
    init(highlighting name: String) { rows.cursor = name }

    /// Index of the highlighted row in `documents`: the highlighted name's, else the open
    /// document's, else the first.
    func cursorIndex(open documentName: String) -> Int {
        if let name = rows.cursor, let i = documents.firstIndex(where: { $0.name == name }) { return i }
        return documents.firstIndex { $0.name == documentName } ?? 0
    }

    /// ↑/↓, PgUp/PgDn, Home/End, the wheel: the highlight to row `index` (clamped), kept in
    /// view in a window of `height` rows.
    mutating func moveCursor(to index: Int, height: Int) {
        guard !documents.isEmpty else { return }
        let i = min(max(0, index), documents.count - 1)
        rows.cursor = documents[i].name
        rows.keepInView(row: i, height: height, rowCount: documents.count)
    }

    /// The highlight on a document by name (one just opened, renamed, restored, clicked).
    mutating func highlight(_ name: String?) { rows.cursor = name }

    /// A fresh listing: the highlight stays on the same name while it is listed, else goes to
    /// the open document, else the first. (The caller keeps it in view after: the window's
    /// height depends on how many documents there are now.)
    mutating func take(_ list: [DocumentSummary], open documentName: String) {
        documents = list
        if let h = rows.cursor, !list.contains(where: { $0.name == h }) {
            rows.cursor = list.contains { $0.name == documentName } ? documentName : list.first?.name
        }
    }

    mutating func keepCursorInView(open documentName: String, height: Int) {
        rows.keepInView(row: cursorIndex(open: documentName), height: height, rowCount: documents.count)
    }

    /// `r`: the rename field opens holding the name.
    mutating func beginRename(_ name: String) { renaming = TextInput(text: name) }
    /// A key typed into the rename field.
    mutating func editRename(_ change: (inout TextInput) -> Void) {
        guard renaming != nil else { return }
        change(&renaming!)
    }
    /// Esc, an unchanged name, or the rename done.
    mutating func endRename() { renaming = nil }

    /// A document moved to the trash: a highlight on it goes to `neighbour`.
    mutating func removed(_ name: String, neighbour: String?) {
        if rows.cursor == name { rows.cursor = neighbour }
    }
}
