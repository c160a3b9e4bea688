import SurveyValues
/// A file name an ODK manifest gives (`photo.jpg.enc`, `submission.xml.enc`) is read from a
/// file someone else wrote, so it is checked before anything is opened or written by it: one
/// plain name in the submission's folder, never a path. Refused: empty, `/` or `\`, NUL or
/// any other control character, `.` and `..`, a hidden name (Collect never encrypts those),
/// more than 255 bytes, and a name that does not end in `.enc`.
enum ODKFileName {
    static let longest = 255

    /// `name` checked; the name of its plaintext (without `.enc`), itself a plain name.
    static func plaintextName(of name: String, what: String) throws -> String {
        try check(name, what: what)
        guard name.hasSuffix(".enc"), name.utf8.count > 4 else {
            throw CryptoError("the manifest's \(what) “\(printable(name))” does not end in .enc, as ODK's encrypted files do")
        }
        let plain = String(name.dropLast(4))
        try check(plain, what: what)
        return plain
    }

    /// A plain file name: what `plaintextName` asks of a name, without the `.enc`.
    static func check(_ name: String, what: String) throws {
        let refuse = { (why: String) in CryptoError("the manifest's \(what) “\(printable(name))” \(why): a file name there is one plain name, never a path") }
        guard !name.isEmpty else { throw CryptoError("the manifest names an empty \(what)") }
        for scalar in name.unicodeScalars {
            if scalar == "/" || scalar == "\\" { throw refuse("holds a \(scalar == "/" ? "/" : "\\")") }
            if scalar.value < 0x20 || scalar.value == 0x7F || (0x80..<0xA0).contains(scalar.value) {
                throw refuse("holds a control character")
            }
        }
        guard name != ".", name != ".." else { throw refuse("is a folder") }
        guard !name.hasPrefix(".") else { throw refuse("is hidden (starts with .)") }
        guard name.utf8.count <= longest else { throw refuse("is longer than \(longest) bytes") }
    }

    /// A name as a message may show it: control characters as `?`, at most 80 characters.
    static func printable(_ name: String) -> String {
        let shown = String(String.UnicodeScalarView(name.unicodeScalars.map {
            $0.value < 0x20 || $0.value == 0x7F || (0x80..<0xA0).contains($0.value) ? "?" : $0
        }))
        return shown.count > 80 ? String(shown.prefix(80)) + "…" : shown
    }
}
