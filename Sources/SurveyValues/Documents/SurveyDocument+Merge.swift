/// A three-way merge by record and field, for the moment a save finds that another program
/// changed the file since we read it. The app's change (`base` → `mine`) is replayed on the
/// file as it is now (`theirs`): a field edit applies when that field is unchanged on disk,
/// a new record is appended; only an edit of a field that was also changed elsewhere (or of a
/// record removed elsewhere) is a clash. Rejected: last writer wins (loses the other edit) and
/// refusing every save after any outside change (two people keying different fields of one
/// household would fight forever).
extension SurveyDocument {
    public struct Merge: Equatable, Sendable {
        public var document: SurveyDocument
        /// For each index of `mine`, where that record now is in `document`.
        public var indexInMerged: [Int: Int]
    }

    /// Why a change could not be replayed.
    public struct MergeClash: Error, Equatable, Sendable {
        /// The record in `mine` whose change clashed.
        public var mineIndex: Int
        /// Keys changed both here and elsewhere; empty when the record itself is gone.
        public var keys: [String]
    }

    /// When every record on our side has an id, any change is replayed by id
    /// (`mergeByID`). Otherwise `mine` must be `base` with fields edited in place and
    /// records appended (the form's changes to a document not yet saved with ids); anything
    /// else (fewer records) is reported as a clash on record 0.
    public static func merge(base: SurveyDocument, mine: SurveyDocument,
                             theirs: SurveyDocument) -> Result<Merge, MergeClash> {
        if (base.records + mine.records).allSatisfy({ $0.instanceID != nil }) {
            return mergeByID(base: base, mine: mine, theirs: theirs)
        }
        guard mine.records.count >= base.records.count else { return .failure(MergeClash(mineIndex: 0, keys: [])) }
        var merged = theirs
        var map: [Int: Int] = [:]
        for (i, record) in mine.records.enumerated() {
            if i >= base.records.count {
                // Appended here; already there when a retry of the same save got in first.
                if let id = record.instanceID, let j = merged.records.firstIndex(where: { $0.instanceID == id }) {
                    map[i] = j
                } else {
                    merged.records.append(record)
                    map[i] = merged.records.count - 1
                }
                continue
            }
            let original = base.records[i]
            let found = merged.locate(original, near: i)
            guard original != record else {
                if let found { map[i] = found }
                continue
            }
            guard let j = found else { return .failure(MergeClash(mineIndex: i, keys: [])) }
            let clashing = Self.replay(from: original, to: record, on: &merged.records[j])
            guard clashing.isEmpty else { return .failure(MergeClash(mineIndex: i, keys: clashing)) }
            map[i] = j
        }
        return .success(Merge(document: merged, indexInMerged: map))
    }

    /// Applies the fields that changed from `original` to `record` onto `target` where
    /// `target` still has the original value (or already the new one). Returns the keys
    /// changed on both sides, leaving `target` untouched when there are any.
    ///
    /// An encrypted survey (`Record.Sealed`) is one value, never merged answer by answer (as
    /// `AnswerMerge` keeps it): when the original, the change or the target is sealed, the
    /// change applies whole where the target is still the original, and any other difference
    /// is a clash on the whole record (no plaintext answer is copied into a sealed survey).
    static func replay(from original: Record, to record: Record, on target: inout Record) -> [String] {
        if original.isSealed || record.isSealed || target.isSealed, original != record {
            if target == original || target == record {
                target = record
                return []
            }
            return Set(original.keys).union(record.keys).union(target.keys).filter {
                original[$0] != record[$0] || original[$0] != target[$0]
            }.sorted()
        }
        var result = target
        var clashing: [String] = []
        for key in Set(original.keys).union(record.keys).sorted()
        where original[key] != record[key] {
            let now = result[key]
            if now == original[key] || now == record[key] {
                result[key] = record[key]
            } else {
                clashing.append(key)
            }
        }
        if clashing.isEmpty { target = result }
        return clashing
    }

    /// The record that is `original` in this version: by id when it has one, else the one
    /// with the same answers (the same position first, as duplicates are common), else the
    /// record at the same position when it still agrees on at least half of the answers (the other copy's
    /// first save gave every record an id and changed a field).
    public func locate(_ original: Record, near index: Int) -> Int? {
        if let id = original.instanceID {
            if let found = records.firstIndex(where: { $0.instanceID == id }) { return found }
            // Another tool rewrote the file without ids: look among the records that have none.
            guard records.contains(where: { !$0.hasInstanceID }) else { return nil }
            var anonymous = original
            anonymous.removeValue(forKey: Record.instanceIDKey)
            guard let j = locate(anonymous, near: index), records[j].instanceID == nil else { return nil }
            return j
        }
        let answers = original.answers
        if records.indices.contains(index), records[index].answers == answers { return index }
        if let same = records.firstIndex(where: { $0.answers == answers }) { return same }
        guard records.indices.contains(index) else { return nil }
        let there = records[index].answers
        let keys = Set(answers.keys).union(there.keys)
        let agreeing = keys.filter { answers[$0] == there[$0] }.count
        return agreeing > 0 && agreeing * 2 >= keys.count ? index : nil
    }
}
