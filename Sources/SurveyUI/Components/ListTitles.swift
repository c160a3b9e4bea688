import SurveyModel

/// The titles of the list rows on screen, kept from one frame to the next: a key that moves
/// the highlight redraws every visible row, and making each `Last, First` again was a third
/// of a frame's work. A title is reused while its row shows the very same survey (the cache
/// holds the survey, so its storage cannot be reused by another one meanwhile) at the same
/// width. With the title it keeps the cells the title is drawn as at a width, so a row that
/// shows the same survey again is copied rather than measured and cut again. A class, so
/// that drawing, which only reads the state, can fill it in; it never changes what is
/// drawn, so it takes no part in comparing states.
final class ListTitles: @unchecked Sendable, Equatable {
    private struct Entry {
        let record: Record
        let limit: Int
        let title: String
        var cells: (width: Int, cells: [Cell]?)?
    }
    private var entries: [Int: Entry] = [:]

    func title(of index: Int, record: Record, limit: Int, make: () -> String) -> String {
        entry(of: index, record: record, limit: limit, make: make).title
    }

    /// The cells of the title as `CellGrid.cells(of:width:)` lays it out in `width` columns;
    /// nil when the title starts with a mark that would join the character before it (the
    /// row's marker), which only drawing the two as one text shows as before.
    func cells(of index: Int, record: Record, limit: Int, width: Int, make: () -> String) -> [Cell]? {
        let known = entry(of: index, record: record, limit: limit, make: make)
        if let laid = known.cells, laid.width == width { return laid.cells }
        let joinsMarker = known.title.unicodeScalars.first.map { (" " + String($0)).count == 1 } ?? false
        let cells = joinsMarker ? nil : CellGrid.cells(of: known.title, width: width)
        entries[index]?.cells = (width, cells)
        return cells
    }

    private func entry(of index: Int, record: Record, limit: Int, make: () -> String) -> Entry {
        if let known = entries[index], known.limit == limit, known.record.isSameStorage(as: record) {
            return known
        }
        let entry = Entry(record: record, limit: limit, title: make())
        if entries.count >= 512 { entries.removeAll(keepingCapacity: true) }
        entries[index] = entry
        return entry
    }

    static func == (a: ListTitles, b: ListTitles) -> Bool { true }
}
