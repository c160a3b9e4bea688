import FoundationEssentials

extension PropertyValue {
    /// A roster's members: the dictionaries of a list all of whose items are one; nil for
    /// anything else (another tool's value under a roster's name).
    public var members: [[String: PropertyValue]]? {
        guard case .array(let items) = self else { return nil }
        var members: [[String: PropertyValue]] = []
        members.reserveCapacity(items.count)
        for item in items {
            guard case .dictionary(let member) = item else { return nil }
            members.append(member)
        }
        return members
    }
}
