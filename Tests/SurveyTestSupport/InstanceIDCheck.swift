import Foundation

/// What a freshly given `instanceID` looks like: `uuid:` and a lowercase RFC 4122 UUID, as
/// ODK and KoboToolbox write it. Shared so every test target judges ids the same way.
public enum InstanceIDCheck {
    public static func isFresh(_ id: String?) -> Bool {
        guard let id, id.hasPrefix("uuid:") else { return false }
        let uuid = String(id.dropFirst(5))
        return UUID(uuidString: uuid) != nil && uuid == uuid.lowercased() && uuid.count == 36
    }
}
