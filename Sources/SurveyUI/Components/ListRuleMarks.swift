import SurveyModel

/// Whether each list row's survey breaks a rule of the designer's form, for the `⚠` the list
/// shows before its title (issue 27: F4 counts the surveys that break a rule, and the list
/// says which). Kept from one frame to the next, as `ListTitles` keeps titles: judging a
/// survey walks every rule of the form, too much for every row on every key. An entry is
/// reused while its row shows the very same survey (its storage) under the same form.
final class ListRuleMarks: @unchecked Sendable, Equatable {
    private var entries: [Int: (record: Record, breaks: Bool)] = [:]
    private var form: (id: String?, version: String?) = (nil, nil)

    /// `judge` is asked only for a survey not judged yet under the form of this id and
    /// version (compared as they are: a row drawn on every frame builds no key).
    func breaks(_ index: Int, record: Record, formID: String?, version: String?, judge: () -> Bool) -> Bool {
        if formID != form.id || version != form.version {
            entries.removeAll(keepingCapacity: true)
            form = (formID, version)
        }
        if let known = entries[index], known.record.isSameStorage(as: record) { return known.breaks }
        let breaks = judge()
        if entries.count >= 512 { entries.removeAll(keepingCapacity: true) }
        entries[index] = (record, breaks)
        return breaks
    }

    static func == (a: ListRuleMarks, b: ListRuleMarks) -> Bool { true }
}
