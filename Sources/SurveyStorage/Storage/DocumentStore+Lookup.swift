import FoundationEssentials
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import SurveyValues
import SurveyForms

/// Finding documents by what a person typed, and picking free names. Everything here
/// compares names the way people do (case and accent composition ignored), because two
/// files a person cannot tell apart in a list must never both exist.
extension DocumentStore {
    /// Whether NAME.plist is a file in the folder (byte-exact name on Linux; on a
    /// case-insensitive file system the system's own matching applies).
    public func exists(_ name: String) -> Bool {
        guard DocumentName.isUsable(name) else { return false }
        var status = stat()
        return filePath(for: name).withCString { stat($0, &status) } == 0 && (status.st_mode & S_IFMT) != S_IFDIR
    }

    /// The existing document whose name equals `raw` after trimming, dropping ".plist",
    /// Unicode normalisation (NFC) and case folding; nil if none. The exact spelling wins
    /// when two documents differ only in case, so each can still be reached.
    public func existingName(matching raw: String) -> String? {
        Self.match(DocumentName.cleaned(raw), in: listedNames())
    }

    /// "Untitled", else "Untitled 2", "Untitled 3", ... the first free (compared folded).
    public func nextUntitledName() -> String {
        freeName(startingWith: "Untitled")
    }

    // MARK: - Shared with create, rename and the trash

    /// Exact bytes first, then canonically equal (NFC/NFD), then folded; the existing spelling.
    static func match(_ name: String, in names: [String]) -> String? {
        guard !name.isEmpty else { return nil }
        if let same = names.first(where: { $0.utf8.elementsEqual(name.utf8) }) { return same }
        if let same = names.first(where: { $0 == name }) { return same }
        let key = DocumentName.matchKey(name)
        return names.first { DocumentName.matchKey($0) == key }
    }

    /// `base`, else "base 2", "base 3", ...: the first that no document takes (folded) and
    /// that no other file (a folder, a stray link) occupies.
    public func freeName(startingWith base: String) -> String {
        let taken = Set(listedNames().map(DocumentName.matchKey))
        var number = 1
        while true {
            let candidate = number == 1 ? base : "\(base) \(number)"
            if !taken.contains(DocumentName.matchKey(candidate)), !isOccupied(url(for: candidate)) {
                return candidate
            }
            number += 1
        }
    }

    /// The document names, or none when the folder cannot be listed (missing, not a folder):
    /// for questions that have a sensible answer either way.
    func listedNames() -> [String] {
        (try? documentNames()) ?? []
    }

    /// Anything at all at `url`, including a dangling symbolic link.
    func isOccupied(_ url: URL) -> Bool {
        var status = stat()
        return lstat(url.path, &status) == 0
    }
}
