import FoundationEssentials

/// The name a laptop's changes carry: `SURVEY_DEVICE` when set (tests run two "laptops" as
/// two folders on one machine, and a team may name its laptops), else "survey:", the host
/// name and this installation's own id, as the app's `deviceid` metadata names it.
///
/// The id is why: a sync recognises a push of its own that was cut off before the server's
/// answer by the device and login on the row, and takes such a row as its own change. Laptops
/// imaged alike share a host name, and an enumerator may key on two of them under one login:
/// named by the host alone, one laptop's change of an answer would be taken by the other as
/// its own and written over without a conflict. ODK Collect's `deviceid` is such an id too
/// (`collect:` and sixteen random characters). Two laptops given the same `SURVEY_DEVICE` and
/// login still look alike: docs/team.md says to give each its own.
public enum SyncDevice {
    public static let environmentKey = "SURVEY_DEVICE"

    /// This installation's id for an environment (`DeviceInstallation` in SurveyStorage, which
    /// keeps it in a file), given once by the program at its start: the value and form modules
    /// touch no file. Unset (a test of the model alone), the host name alone is used.
    nonisolated(unsafe) public static var installationID: (@Sendable ([String: String]) -> String?)?

    public static func current(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        if let given = environment[environmentKey]?.trimmingWhitespaceAndNewlines(), !given.isEmpty { return given }
        let host = ProcessInfo.processInfo.hostName
        let name = "survey:" + (host.isEmpty ? "unknown" : host)
        return installationID?(environment).map { name + ":" + $0 } ?? name
    }
}
