import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

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

    public static func current(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        if let given = environment[environmentKey]?.trimmingWhitespaceAndNewlines(), !given.isEmpty { return given }
        let host = ProcessInfo.processInfo.hostName
        let name = "survey:" + (host.isEmpty ? "unknown" : host)
        return installationID(environment: environment).map { name + ":" + $0 } ?? name
    }

    /// `$XDG_STATE_HOME/survey/device-id` (only if absolute, as the XDG spec says), else
    /// `$HOME/.local/state/survey/device-id`: beside the session's state, one person's on one machine.
    public static func idURL(environment: [String: String]) -> URL {
        let stateHome: String
        if let xdg = environment["XDG_STATE_HOME"], xdg.hasPrefix("/") {
            stateHome = xdg
        } else {
            let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? FileManager.default.homeDirectoryForCurrentUser.path
            stateHome = home + "/.local/state"
        }
        return URL(fileURLWithPath: stateHome, isDirectory: true).appendingPathComponent("survey", isDirectory: true)
            .appendingPathComponent("device-id", isDirectory: false)
    }

    /// This installation's id: read from `idURL`, or drawn (twelve letters and digits) and kept
    /// there at the first sync. Put in place with `link`, which never replaces a file, so two
    /// copies of survey starting at once agree on the one that landed first. nil when it can be
    /// neither read nor kept (a read-only home): the host name alone is used then.
    static func installationID(environment: [String: String]) -> String? {
        let url = idURL(environment: environment)
        if let kept = read(url) { return kept }
        let alphabet = Array("abcdefghijklmnopqrstuvwxyz0123456789")
        var generator = SystemRandomNumberGenerator()
        let drawn = String((0..<12).map { _ in alphabet[Int(generator.next(upperBound: UInt64(alphabet.count)))] })
        let folder = url.deletingLastPathComponent()
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let temporary = folder.appendingPathComponent(".device-id.\(getpid()).\(drawn)")
        guard (try? Data((drawn + "\n").utf8).write(to: temporary)) != nil else { return nil }
        defer { unlink(temporary.path) }
        _ = link(temporary.path, url.path)
        return read(url)
    }

    /// The id in the file, if it is one (letters and digits, 4 to 64 of them).
    private static func read(_ url: URL) -> String? {
        guard let data = FileManager.default.contents(atPath: url.path), data.count <= 200 else { return nil }
        let text = String(decoding: data, as: UTF8.self).trimmingWhitespaceAndNewlines()
        guard (4...64).contains(text.utf8.count), text.utf8.allSatisfy({ (0x30...0x39).contains($0) || (0x61...0x7A).contains($0) })
        else { return nil }
        return text
    }
}
