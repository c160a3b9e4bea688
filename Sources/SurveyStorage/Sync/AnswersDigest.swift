/// A digest of a survey's answers as a file survey wrote spells them, the same for the same
/// answers at any depth: in the document (a survey at depth 1, its id's lines left out) and in
/// the ledger (a base's answers at depth 3). Equal digests mean equal text, so equal answers;
/// unequal ones mean only "look": a sync reads the base of such a survey and compares the
/// answers themselves (`DocumentDigests`, issue 28).
///
/// Each line goes in with its depth below where the answers begin (a tag's tabs are layout),
/// or whole when it is text of a string running over lines (its tabs are the answer's).
/// SipHash (`Hasher`) under a key drawn at each start of survey: no file can aim at it, and a
/// survey changed here passes for unchanged with a chance of 2^-64 (DECISIONS.md).
struct AnswersDigest {
    private var hasher = Hasher()

    init() {}

    /// Takes `line`, markup `depth` tabs below the answers' own (nil: a line of text).
    mutating func take(_ line: PropertyListLine, depth: Int?) {
        var bytes = UnsafeRawBufferPointer(line.bytes)
        if let depth {
            hasher.combine(depth)
            bytes = UnsafeRawBufferPointer(rebasing: bytes[line.tabs...])
        } else {
            hasher.combine(-1)
        }
        hasher.combine(bytes: bytes)
    }

    struct Value: Equatable {
        let hash: Int
    }

    func finish() -> Value { Value(hash: hasher.finalize()) }
}
