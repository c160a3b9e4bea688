/// `NSString`'s path methods survey used (`lastPathComponent`, `deletingLastPathComponent`,
/// `appendingPathComponent`), on plain strings: bridging to `NSString` links full Foundation
/// and ICU (DECISIONS.md). Slashes are collapsed at the ends as NSString does. Named apart
/// from Foundation's, which tests (linking Foundation) would otherwise pick.
extension StringProtocol {
    /// "/a/b/" → "b"; "/" → "/"; "" → "".
    public var pathLastComponent: String {
        let trimmed = trailingSlashesRemoved
        guard trimmed != "/" else { return "/" }
        guard let slash = trimmed.lastIndex(of: "/") else { return trimmed }
        return String(trimmed[trimmed.index(after: slash)...])
    }

    /// "/a/b" → "/a"; "/a" → "/"; "a" → "".
    public var pathRemovingLastComponent: String {
        let trimmed = trailingSlashesRemoved
        guard trimmed != "/" else { return "/" }
        guard let slash = trimmed.lastIndex(of: "/") else { return "" }
        var folder = trimmed[..<slash]
        while folder.hasSuffix("/") { folder = folder.dropLast() }
        return folder.isEmpty ? "/" : String(folder)
    }

    /// "/a" + "b" → "/a/b"; "/a/" + "b" → "/a/b"; "" + "b" → "b".
    public func pathAppending(_ component: String) -> String {
        if isEmpty { return component }
        return hasSuffix("/") ? self + component : self + "/" + component
    }

    /// Repeated slashes made one, then trailing ones dropped ("//a//b//" → "/a/b").
    private var trailingSlashesRemoved: String {
        var text = ""
        for character in self where !(character == "/" && text.hasSuffix("/")) { text.append(character) }
        while text.count > 1, text.hasSuffix("/") { text.removeLast() }
        return text
    }
}
