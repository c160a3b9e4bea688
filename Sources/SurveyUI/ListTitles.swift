import SurveyModel

/// The titles of the list rows on screen, kept from one frame to the next: a key that moves
/// the highlight redraws every visible row, and making each `Last, First` again was a third
/// of a frame's work. A title is reused while its row shows the very same survey (the cache
/// holds the survey, so its storage cannot be reused by another one meanwhile) at the same
/// width. A class, so that drawing, which only reads the state, can fill it in; it never
/// changes what is drawn, so it takes no part in comparing states.
final class ListTitles: @unchecked Sendable, Equatable {
    private var entries: [Int: (record: Record, limit: Int, title: String)] = [:]

    func title(of index: Int, record: Record, limit: Int, make: () -> String) -> String {
        if let known = entries[index], known.limit == limit, known.record.isSameStorage(as: record) {
            return known.title
        }
        let title = make()
        if entries.count >= 512 { entries.removeAll(keepingCapacity: true) }
        entries[index] = (record, limit, title)
        return title
    }

    static func == (a: ListTitles, b: ListTitles) -> Bool { true }
}
