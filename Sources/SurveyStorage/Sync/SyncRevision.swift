import FoundationEssentials
import SurveyValues
import SurveyForms

/// The version of one survey as the other side named it: a server's integer revision
/// (PostgreSQL's, as text) or, for a merge by USB stick where no server counts, a digest
/// of the answers (`SyncRevision.content(of:)`). Opaque here: only compared for equality,
/// so the ledger needs no other knowledge of where a version came from.
public struct SyncRevision: Hashable, Sendable, CustomStringConvertible {
    public var text: String

    public init(_ text: String) { self.text = text }

    /// A server's integer revision.
    public init(_ number: Int64) { self.text = String(number) }

    /// The server's integer, when this is one.
    public var number: Int64? { Int64(text) }

    public var description: String { text }

    /// A revision named by what the survey holds (`c:` and 32 hex digits): two laptops that
    /// hold the same answers name them alike without talking, which is all a merge by file
    /// needs to tell "the version you built on" from another.
    public static func content(of answers: [String: PropertyValue], deleted: Bool = false) -> SyncRevision {
        var record = Record(answers)
        if deleted { record["\u{0}deleted"] = .bool(true) }
        let (high, low) = Record.derivedInstanceIDWords(position: 0, of: record)
        func hex(_ word: UInt64) -> String {
            let digits = String(word, radix: 16)
            return String(repeating: "0", count: 16 - digits.count) + digits
        }
        return SyncRevision("c:" + hex(high) + hex(low))
    }
}
