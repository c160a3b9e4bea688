import FoundationEssentials

/// File names made from text (a form's title, a repeat's name): what an export calls its
/// files. Pure text work, so the forms' exports name their files without the file system.
public enum FileNames {
    /// `text` as one file name, as ODK Briefcase makes one of a form's name: a character no
    /// file name may hold on some system (`/`, `\`, NUL and every other control character,
    /// and `? % * : | " < >`) becomes `_`, as does each dot it begins with (`..` is `__`,
    /// `.hidden` `_hidden`: never a folder above, never hidden); blanks and dots at its end
    /// are dropped, as Windows drops them; cut to 200 bytes of UTF-8 (a file name holds
    /// 255); never empty.
    public static func safe(_ text: String) -> String {
        var scalars = String.UnicodeScalarView()
        var leading = true
        for scalar in text.unicodeScalars {
            let unsafe = "/\\?%*:|\"<>".unicodeScalars.contains(scalar) || scalar.isControlCharacter
                || (leading && scalar == ".")
            scalars.append(unsafe ? "_" : scalar)
            if scalar != "." { leading = false }
        }
        var name = String(scalars)
        while let last = name.last, last == "." || last == " " { name.removeLast() }
        while name.utf8.count > 200 { name.removeLast() }
        return name.isEmpty ? "_" : name
    }
}

/// The names a document's media folder (`NAME.media/`, beside `NAME.form.*`) may hold: the
/// form's list files and the surveys' attachments, each a plain file name, as ODK keeps a
/// form's media and a submission's attachments. A name that could reach outside the folder
/// (`../x`, `/etc/passwd`, a hidden `.x`) is refused, whoever gives it: a form, a keyer or
/// an imported survey.
public enum MediaFolder {
    /// Why `name` cannot be a file of the media folder, or nil.
    public static func problem(withName name: String) -> String? {
        if name.isEmpty { return "the name is empty" }
        if name.contains("/") || name.contains("\\") { return "“\(name)” is a path, not a file name" }
        if name.hasPrefix(".") { return "“\(name)” starts with a dot" }
        if name.unicodeScalars.contains(where: { $0.properties.generalCategory == .control || $0.properties.generalCategory == .format && $0.value == 0xFEFF }) {
            return "the name has control characters"
        }
        if name.utf8.count > 200 { return "the name is longer than 200 bytes" }
        return nil
    }
}
