/// The merge when every record on our side has an id: changes of any shape (records
/// removed by a delete or an undo, put back in the middle by an undo, edited, added) are
/// found by id and replayed on the version on disk. Records are found through an id → index
/// table, so replaying an undo on 100,000 records is linear, not quadratic; only a file
/// another tool rewrote without ids falls back to searching by answers.
extension SurveyDocument {
    static func mergeByID(base: SurveyDocument, mine: SurveyDocument,
                          theirs: SurveyDocument) -> Result<Merge, MergeClash> {
        let baseByID = Dictionary(base.records.map { ($0.instanceID!, $0) }, uniquingKeysWith: { a, _ in a })
        let mineIDs = Set(mine.records.map { $0.instanceID! })
        var merged = theirs.records
        var position: [String: Int] = [:]
        func reindex() {
            position = Dictionary(merged.enumerated().compactMap { i, r in r.instanceID.map { ($0, i) } },
                                  uniquingKeysWith: { a, _ in a })
        }
        reindex()
        /// By id; a record another tool wrote back without ids is searched by answers instead.
        func index(of record: Record, near hint: Int = -1) -> Int? {
            if let id = record.instanceID, let j = position[id] { return j }
            guard merged.contains(where: { !$0.hasInstanceID }) else { return nil }
            return SurveyDocument(records: merged).locate(record, near: hint)
        }
        // Records another tool wrote back without ids take ours again, found by answers
        // (as they were before our change).
        if merged.contains(where: { !$0.hasInstanceID }) {
            for (i, record) in base.records.enumerated() where position[record.instanceID!] == nil {
                if let j = index(of: record, near: i), merged[j].instanceID == nil {
                    merged[j][Record.instanceIDKey] = .string(record.instanceID!)
                    position[record.instanceID!] = j
                }
            }
        }
        // Removed here: removed there too, unless it was changed there meanwhile.
        var removed = Set<Int>()
        for (i, record) in base.records.enumerated() where !mineIDs.contains(record.instanceID!) {
            guard let j = index(of: record) else { continue }
            guard merged[j].answers == record.answers else {
                return .failure(MergeClash(mineIndex: min(i, max(0, mine.records.count - 1)), keys: []))
            }
            removed.insert(j)
        }
        if !removed.isEmpty {
            merged = RecordList(merged.enumerated().filter { !removed.contains($0.offset) }.map(\.element))
            reindex()
        }
        for (i, record) in mine.records.enumerated() {
            let id = record.instanceID!
            guard let original = baseByID[id] else {
                // New here: after the record that precedes it here, if that one is there.
                guard position[id] == nil else { continue }
                let before = mine.records[..<i].reversed().lazy.compactMap { index(of: $0) }.first
                merged.insert(record, at: before.map { $0 + 1 } ?? min(i, merged.count))
                reindex()
                continue
            }
            guard original != record else { continue }
            guard let j = index(of: original) else { return .failure(MergeClash(mineIndex: i, keys: [])) }
            let clashing = Self.replay(from: original, to: record, on: &merged[j])
            guard clashing.isEmpty else { return .failure(MergeClash(mineIndex: i, keys: clashing)) }
        }
        var map: [Int: Int] = [:]
        for (i, record) in mine.records.enumerated() {
            if let j = index(of: record) { map[i] = j }
        }
        return .success(Merge(document: SurveyDocument(records: merged), indexInMerged: map))
    }
}
