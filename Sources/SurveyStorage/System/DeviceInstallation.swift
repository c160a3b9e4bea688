import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif
import SurveyValues

/// This installation's id, part of its device name (`SyncDevice`): drawn once, twelve letters
/// and digits, and kept in `$XDG_STATE_HOME/survey/device-id` (only if absolute, as the XDG
/// spec says), else `$HOME/.local/state/survey/device-id`, beside the session's state: one
/// person's on one machine.
public enum DeviceInstallation {
    public static func idURL(environment: [String: String]) -> URL {
        // Beside the session's state (`SessionMemory`), in the same folder.
        SessionMemory.defaultURL(environment: environment).deletingLastPathComponent()
            .appendingPathComponent("device-id", isDirectory: false)
    }

    /// The id kept, or one drawn and kept now. Put in place with `link`, which never replaces a
    /// file, so two copies of survey starting at once agree on the one that landed first. nil
    /// when it can be neither read nor kept (a read-only home): the host name alone is used then.
    @Sendable public static func id(environment: [String: String]) -> String? {
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
