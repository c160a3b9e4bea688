import FoundationEssentials

/// The name a laptop's changes carry: `SURVEY_DEVICE` when set (tests run two "laptops" as
/// two folders on one machine, and a team may name its laptops), else "survey:" and the
/// host name, as the app's `deviceid` metadata names it.
public enum SyncDevice {
    public static let environmentKey = "SURVEY_DEVICE"

    public static func current(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        if let given = environment[environmentKey]?.trimmingWhitespaceAndNewlines(), !given.isEmpty { return given }
        let host = ProcessInfo.processInfo.hostName
        return "survey:" + (host.isEmpty ? "unknown" : host)
    }
}
