/// `NSString`'s path methods survey used (`lastPathComponent`, `deletingLastPathComponent`,
/// `appendingPathComponent`), on plain strings: bridging to `NSString` links full Foundation
/// and ICU (DECISIONS.md). Slashes are collapsed at the ends as NSString does.
extension StringProtocol {
    /// "/a/b/" → "b"; "/" → "/"; "" → "".
    public var lastPathComponent: String {
        let trimmed = trailingSlashesRemoved
        guard trimmed != "/" else { return "/" }
        guard let slash = trimmed.lastIndex(of: "/") else { return trimmed }
        return String(trimmed[trimmed.index(after: slash)...])
    }

    /// "/a/b" → "/a"; "/a" → "/"; "a" → "".
    public var deletingLastPathComponent: String {
        let trimmed = trailingSlashesRemoved
        guard trimmed != "/" else { return "/" }
        guard let slash = trimmed.lastIndex(of: "/") else { return "" }
        var folder = trimmed[..<slash]
        while folder.hasSuffix("/") { folder = folder.dropLast() }
        return folder.isEmpty ? "/" : String(folder)
    }

    /// "/a" + "b" → "/a/b"; "/" + "b" → "/b"; "" + "b" → "b".
    public func appendingPathComponent(_ component: String) -> String {
        let base = trailingSlashesRemoved
        if base.isEmpty { return component }
        return base == "/" ? "/" + component : base + "/" + component
    }

    private var trailingSlashesRemoved: String {
        var text = Substring(self)
        while text.count > 1, text.hasSuffix("/") { text = text.dropLast() }
        return String(text)
    }
}
