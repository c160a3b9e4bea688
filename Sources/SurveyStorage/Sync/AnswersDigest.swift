/// A digest of a survey's answers as a file survey wrote spells them, the same for the same
/// answers at any depth: in the document (a survey at depth 1, its id's lines left out) and in
/// the ledger (a base's answers at depth 3). Equal digests mean equal text, so equal answers;
/// unequal ones mean only "look": a sync reads the base of such a survey and compares the
/// answers themselves (`DocumentDigests`, issue 28).
///
/// Each line goes in with its depth below where the answers begin (a tag's tabs are layout),
/// or whole when it is text of a string running over lines (its tabs are the answer's).
/// Two SipHash streams of this process's key, 128 bits: for two different texts to pass for
/// one they must collide in both, and no file can aim at a key drawn at each start.
struct AnswersDigest {
    private var first = Hasher()
    private var second = Hasher()

    init() {
        first.combine(1 as UInt8)
        second.combine(2 as UInt8)
    }

    /// Takes `line`, markup `depth` tabs below the answers' own (nil: a line of text).
    mutating func take(_ line: PropertyListLine, depth: Int?) {
        var bytes = UnsafeRawBufferPointer(line.bytes)
        if let depth {
            first.combine(depth)
            second.combine(depth)
            bytes = UnsafeRawBufferPointer(rebasing: bytes[line.tabs...])
        } else {
            first.combine(-1)
            second.combine(-1)
        }
        first.combine(bytes: bytes)
        second.combine(bytes: bytes)
    }

    struct Value: Equatable {
        let first: Int
        let second: Int
    }

    func finish() -> Value { Value(first: first.finalize(), second: second.finalize()) }
}
