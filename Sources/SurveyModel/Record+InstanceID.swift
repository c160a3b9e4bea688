import Foundation

/// A record's stable identity, stored under `instanceID` as ODK and KoboToolbox do
/// (`uuid:` + a random RFC 4122 UUID). Two copies of `survey` (or a sync tool) changing one
/// document find "the same record" by it, so an edit lands on the right person even after
/// records were added, removed or changed elsewhere.
extension Record {
    public static let instanceIDKey = "instanceID"

    public var instanceID: String? {
        if case .string(let id) = values[Self.instanceIDKey], !id.isEmpty { return id }
        return nil
    }

    public static func newInstanceID() -> String {
        "uuid:" + UUID().uuidString.lowercased()
    }

    /// Every value but the id: what "the same answers" means when a record has no id yet
    /// on one side (the original app's files carry none).
    public var answers: [String: PropertyValue] {
        var copy = values
        copy.removeValue(forKey: Self.instanceIDKey)
        return copy
    }
}

extension SurveyDocument {
    /// Gives each record without an id a new random one; the rest of each record is
    /// untouched. Returns how many were given one. For records just created.
    @discardableResult
    public mutating func assignMissingInstanceIDs() -> Int {
        var assigned = 0
        for i in records.indices where records[i].instanceID == nil {
            records[i].values[Record.instanceIDKey] = .string(Record.newInstanceID())
            assigned += 1
        }
        return assigned
    }

    /// Gives each record found without an id (the original app's files, other tools') one
    /// derived from its position and answers, so every program that opens the same file gives
    /// it the same id: two copies of survey, or `survey add` beside the app, then agree on
    /// which record is which before either has saved. Returns how many were given one.
    @discardableResult
    public mutating func identifyRecordsFoundWithoutIDs() -> Int {
        var assigned = 0
        for i in records.indices where records[i].instanceID == nil {
            records[i].values[Record.instanceIDKey] = .string(Record.derivedInstanceID(position: i, of: records[i]))
            assigned += 1
        }
        return assigned
    }
}

extension Record {
    /// `uuid:` + a UUID (version 8, "custom", RFC 9562) from two FNV-1a hashes of the
    /// record's position and its answers as the property-list writer lays them out (sorted
    /// keys, so the same record always gives the same bytes).
    static func derivedInstanceID(position: Int, of record: Record) -> String {
        var bytes = Array("\(position)\u{0}".utf8)
        bytes += PropertyListWriter.data(for: .dictionary(record.answers))
        func fnv(_ seed: UInt64) -> UInt64 {
            var hash = seed
            for byte in bytes {
                hash ^= UInt64(byte)
                hash = hash &* 0x100000001b3
            }
            return hash
        }
        var high = fnv(0xcbf29ce484222325)
        var low = fnv(0x84222325cbf29ce4 ^ UInt64(bytes.count))
        high = (high & ~0xF000) | 0x8000            // version 8
        low = (low & ~(0xC << 60)) | (0x8 << 60)     // variant 10xx
        let hex = String(format: "%016llx%016llx", high, low)
        let chars = Array(hex)
        func part(_ a: Int, _ b: Int) -> String { String(chars[a..<b]) }
        return "uuid:\(part(0, 8))-\(part(8, 12))-\(part(12, 16))-\(part(16, 20))-\(part(20, 32))"
    }
}
