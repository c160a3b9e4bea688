import SurveyValues
import SurveyForms

/// What the list rows on screen show, worked out by `update` after every action for the rows
/// the list shows then (`AppState.keepShownListRows`), and only read by drawing, which works
/// a row out afresh when it finds none here (a state drawn without going through `update`).
///
/// Why kept: a key that moves the highlight redraws every visible row. Under the original
/// five, making each `Last, First` again and laying it out as cells was two thirds of a list
/// frame (120x40: 73 µs a frame made afresh, 21 µs kept, and 3 µs more in `update` to keep
/// them, `survey-bench --keys-only`); under a
/// designer's form, judging whether a survey breaks a rule (the `⚠`, issue 27) walks every
/// rule of the form, too much for every row on every key. A designer's form's titles are not
/// kept: one can read the time (`today()`).
///
/// An entry is used only for the very same survey (its storage: the entry holds the record,
/// so no other survey can take that storage meanwhile) at the same cut and width, or under
/// the same form version. A value in the state, so drawing, which only reads the state,
/// cannot write it, and copies of the state drawn on several threads share nothing (the
/// classes it replaces, `ListTitles` and `ListRuleMarks`, were written while drawing, with no
/// lock). It never changes what is drawn, so it takes no part in comparing states.
struct ShownListRows: Equatable, Sendable {
    /// A row's title cut to `limit`, and its cells laid out in `width` columns as
    /// `CellGrid.cells(of:width:)` lays them out (nil for a title that starts with a mark
    /// joining the character before it, the row's marker: only drawing the two as one text
    /// shows it as before).
    struct Title: Sendable {
        let record: Record
        let limit: Int
        let width: Int
        let text: String
        let cells: [Cell]?
    }

    private(set) var titles: [Int: Title] = [:]
    /// Whether each row's survey breaks a rule of the form of `form`'s id and version.
    private(set) var marks: [Int: (record: Record, breaks: Bool)] = [:]
    private var form: (id: String?, version: String?) = (nil, nil)

    /// The kept title of row `index` if it is of this very survey, cut and laid out the same.
    func title(of index: Int, record: Record, limit: Int, width: Int) -> Title? {
        guard let kept = titles[index], kept.limit == limit, kept.width == width, kept.record.isSameStorage(as: record) else { return nil }
        return kept
    }

    /// The kept title text of row `index` if it is of this very survey, cut the same.
    func text(of index: Int, record: Record, limit: Int) -> String? {
        guard let kept = titles[index], kept.limit == limit, kept.record.isSameStorage(as: record) else { return nil }
        return kept.text
    }

    /// Whether row `index`'s survey breaks a rule, if judged for this very survey under the
    /// form of this id and version.
    func breaks(_ index: Int, record: Record, formID: String?, version: String?) -> Bool? {
        guard formID == form.id, version == form.version, let kept = marks[index], kept.record.isSameStorage(as: record) else { return nil }
        return kept.breaks
    }

    /// The cells a title is drawn as after the row's marker, or nil (see `Title.cells`).
    static func cells(ofTitle title: String, width: Int) -> [Cell]? {
        let joinsMarker = title.unicodeScalars.first.map { (" " + String($0)).count == 1 } ?? false
        return joinsMarker ? nil : CellGrid.cells(of: title, width: width)
    }

    /// Keeps the titles of the rows `shown` (row index and survey), making each not kept yet
    /// with `make`. Most actions change none of them (a key on the form, ↓ within the
    /// screenful), a scroll one row or a screenful. Rows scrolled away stay (up to `kept` of
    /// them), so scrolling back finds them.
    mutating func keepTitles(_ shown: [(index: Int, record: Record)], limit: Int, width: Int, make: (Record) -> String) {
        if !marks.isEmpty { marks = [:] }
        for (index, record) in shown where title(of: index, record: record, limit: limit, width: width) == nil {
            if titles.count >= Self.kept { titles = [:] }
            let text = make(record)
            titles[index] = Title(record: record, limit: limit, width: width, text: text, cells: Self.cells(ofTitle: text, width: width))
        }
    }

    /// Keeps whether each row `shown` breaks a rule of the form of this id and version,
    /// asking `judge` only of a survey not judged yet under it.
    mutating func keepMarks(_ shown: [(index: Int, record: Record)], formID: String?, version: String?, judge: (Record) -> Bool) {
        if !titles.isEmpty { titles = [:] }
        if formID != form.id || version != form.version {
            marks = [:]
            form = (formID, version)
        }
        for (index, record) in shown where breaks(index, record: record, formID: formID, version: version) == nil {
            if marks.count >= Self.kept { marks = [:] }
            marks[index] = (record, judge(record))
        }
    }

    /// How many rows are kept at most (then they are let go and the rows shown made again).
    static let kept = 512

    static func == (a: ShownListRows, b: ShownListRows) -> Bool { true }
}
