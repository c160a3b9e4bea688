import SurveyValues
import SurveyForms

/// The document manager's own state (F3): the folder's documents as last read, the
/// highlighted one and the scroll, and the inline rename field while one is open. It is a
/// child reducer (issue 29, as `ChoicePicker`): its keys and the answers to its file work are
/// decided here, from this state and a `Context`, and what it needs of the app comes back as
/// a `Request` (below). Its setters are private to this file.
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

    /// The highlighted document (nil: the folder holds none).
    func highlighted(open documentName: String) -> DocumentSummary? {
        let i = cursorIndex(open: documentName)
        return documents.indices.contains(i) ? documents[i] : nil
    }

    /// ↑/↓, PgUp/PgDn, Home/End, the wheel: the highlight to row `index` (clamped), kept in
    /// view in a window of `height` rows.
    private mutating func moveCursor(to index: Int, height: Int) {
        guard !documents.isEmpty else { return }
        let i = min(max(0, index), documents.count - 1)
        rows.cursor = documents[i].name
        rows.keepInView(row: i, height: height, rowCount: documents.count)
    }

    /// A fresh listing: the highlight stays on the same name while it is listed, else goes to
    /// the open document, else the first; then it is kept in view (the window's height
    /// depends on how many documents there are now).
    mutating func take(_ list: [DocumentSummary], in context: Context) {
        documents = list
        if let h = rows.cursor, !list.contains(where: { $0.name == h }) {
            rows.cursor = list.contains { $0.name == context.openDocument } ? context.openDocument : list.first?.name
        }
        keepCursorInView(in: context)
    }

    mutating func keepCursorInView(in context: Context) {
        rows.keepInView(row: cursorIndex(open: context.openDocument), height: context.height(documents.count),
                        rowCount: documents.count)
    }

    /// A key typed into the rename field.
    mutating func editRename(_ change: (inout TextInput) -> Void) {
        guard renaming != nil else { return }
        change(&renaming!)
    }
}

/// The document manager's own reducer (issue 29: a child reducer, as `ChoicePicker.reduce`):
/// what a key or a click does to the manager alone, decided from the manager and the little
/// it reads of the app (`Context`), and what it asks of the app, as a value. `AppState` does
/// what the request asks (`AppState+Documents`): leaving the document open (which may first
/// ask to save records that exist only in memory), the confirmation popover, the effects.
extension DocumentManagerState {
    /// What the manager reads of the app around it: the open document (highlighted while
    /// nothing else is) and the screen (how many rows its window shows).
    struct Context {
        var openDocument: String
        var layout: Layout

        /// The rows the documents list shows, for `count` documents.
        func height(_ count: Int) -> Int { layout.documentManagerRows(rowCount: count).height }
    }

    /// What a key on the manager asks of the app.
    enum Request: Equatable {
        /// The manager changed (or not); nothing else happens.
        case none
        /// Enter: switch to this document.
        case open(String)
        /// `n`: a new Untitled document.
        case create
        /// Enter in the rename field with a new name.
        case rename(from: String, to: String)
        /// `d`: ask whether to move this document to the trash.
        case confirmDelete(name: String, records: Int?)
        /// `u`: bring back the last document deleted.
        case restoreDeleted
    }

    mutating func reduce(_ action: DocumentManagerAction, in context: Context) -> Request {
        let cursor = cursorIndex(open: context.openDocument)
        switch action {
        case .move(let delta):
            moveCursor(to: cursor + delta, height: context.height(documents.count))
        case .page(let pages):
            let height = context.height(documents.count)
            moveCursor(to: cursor + pages * ScrollingList<String?>.page(height: height), height: height)
        case .toFirst:
            moveCursor(to: 0, height: context.height(documents.count))
        case .toLast:
            moveCursor(to: documents.count - 1, height: context.height(documents.count))
        case .openHighlighted:
            return highlighted(open: context.openDocument).map { .open($0.name) } ?? .none
        case .newDocument:
            return .create
        case .beginRename:
            if let name = highlighted(open: context.openDocument)?.name { renaming = TextInput(text: name) }
        case .commitRename:
            guard let buffer = renaming, let old = highlighted(open: context.openDocument)?.name else { return .none }
            guard buffer.text != old else {
                renaming = nil
                return .none
            }
            // The field stays open until the rename is done (`renamed(from:to:)`) or refused.
            return .rename(from: old, to: buffer.text)
        case .cancelRename:
            renaming = nil
        case .requestDelete:
            return highlighted(open: context.openDocument).map { .confirmDelete(name: $0.name, records: $0.recordCount) } ?? .none
        case .restoreDeleted:
            return .restoreDeleted
        }
        return .none
    }

    /// A click at `row` of the list's window: the document there is highlighted (not while
    /// the rename field is open).
    mutating func click(row: Int) {
        guard renaming == nil else { return }
        let index = rows.scroll + row
        if documents.indices.contains(index) { rows.cursor = documents[index].name }
    }

    /// The wheel over the list: the highlight `step` rows on.
    mutating func wheel(_ step: Int, in context: Context) {
        _ = reduce(.move(step), in: context)
    }

    // MARK: The answers to the file work

    /// What the file work found, as far as the list goes (`Outcome.documents`, before the
    /// app takes it): a fresh listing; the highlight on a document opened or brought back;
    /// a rename done (the field closes, the highlight follows the name); a document moved
    /// to the trash (a highlight on it goes to its neighbour).
    mutating func reduce(_ outcome: DocumentOutcome, in context: Context) {
        switch outcome {
        case .listed(let list):
            take(list, in: context)
        case .opened(let name, _, _, _, _), .restored(let name):
            rows.cursor = name
        case .renamed(_, let new):
            renaming = nil
            rows.cursor = new
        case .deleted(let name, _, _):
            if rows.cursor == name { rows.cursor = neighbour(of: name) }
        case .created, .savedAs, .vanished, .changedOnDisk, .movedOutside, .operationFailed, .historyRead:
            break
        }
    }

    /// The document shown in `name`'s place once it is gone from the list: the next, else
    /// the previous.
    func neighbour(of name: String) -> String? {
        DocumentName.neighbour(of: name, in: documents.map(\.name))
    }
}
