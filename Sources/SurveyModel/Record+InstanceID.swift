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
    /// Gives each record without an id a new one; the rest of each record is untouched.
    /// Returns how many were given one.
    @discardableResult
    public mutating func assignMissingInstanceIDs() -> Int {
        var assigned = 0
        for i in records.indices where records[i].instanceID == nil {
            records[i].values[Record.instanceIDKey] = .string(Record.newInstanceID())
            assigned += 1
        }
        return assigned
    }
}
