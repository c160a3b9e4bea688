import FoundationEssentials
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import SurveyValues

/// What a form's device metadata is filled with: `deviceid` and `username`. ODK Collect takes
/// them from the phone and its settings ("Form metadata"); a laptop has a name and a login,
/// so survey takes those, each overridable for a team that names its laptops or enumerators.
/// `email` and `phonenumber` stay empty (nothing on a laptop says them).
public struct DeviceMetadata: Equatable, Sendable {
    /// `deviceid`: the name this laptop's synced changes carry (`SyncDevice`), so a survey's
    /// metadata and the team database name the laptop alike.
    public var deviceID: String
    /// `username`: `SURVEY_USERNAME`, else the login name.
    public var username: String

    public static let usernameEnvironmentKey = "SURVEY_USERNAME"

    public init(deviceID: String = "", username: String = "") {
        self.deviceID = deviceID
        self.username = username
    }

    /// This laptop and this login, as the app and `survey add` fill them in.
    public static func current(environment: [String: String] = ProcessInfo.processInfo.environment) -> DeviceMetadata {
        DeviceMetadata(deviceID: SyncDevice.current(environment: environment), username: username(environment: environment))
    }

    static func username(environment: [String: String]) -> String {
        if let given = environment[usernameEnvironmentKey]?.trimmingWhitespaceAndNewlines(), !given.isEmpty { return given }
        if let entry = getpwuid(geteuid()), let name = entry.pointee.pw_name, let login = String(validatingCString: name),
           !login.isEmpty {
            return login
        }
        return environment["USER"]?.trimmingWhitespaceAndNewlines() ?? ""
    }
}
