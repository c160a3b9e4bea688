import FoundationEssentials

/// The local zone, as the C library finds it (`$TZ`'s file or `/etc/localtime`): the one
/// file the value modules read, once per process, as they read the environment. It is the
/// default zone of a `Questionnaire.Clock` (whose moment has no default: every caller names
/// it); the app's own zone comes from `AppEnvironment`.
extension TimeZoneRule {
    /// The local zone, read once per process.
    public static var current: TimeZoneRule { local }

    private static let local = TimeZoneRule(environment: ProcessInfo.processInfo.environment)

    /// The zone `environment["TZ"]` (or `/etc/localtime`) names, as glibc resolves it.
    public init(environment: [String: String], zoneFolder: String = "/usr/share/zoneinfo",
                localtime: String = "/etc/localtime") {
        guard let tz = environment["TZ"] else {
            self = Self.file(at: localtime) ?? .utc
            return
        }
        let name = tz.hasPrefix(":") ? String(tz.dropFirst()) : tz
        if name.isEmpty {
            self = .utc
        } else if name.hasPrefix("/") {
            self = Self.file(at: name) ?? .utc
        } else if !name.split(separator: "/").contains(".."), let zone = Self.file(at: zoneFolder + "/" + name) {
            self = zone
        } else {
            self = TimeZoneRule(posix: name) ?? .utc
        }
    }

    private static func file(at path: String) -> TimeZoneRule? {
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        return TimeZoneRule(tzif: data)
    }
}
