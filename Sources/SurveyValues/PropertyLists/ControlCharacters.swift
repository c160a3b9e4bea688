/// What counts as a control character, decided once: C0 (U+0000–U+001F), DEL (U+007F) and
/// C1 (U+0080–U+009F), Unicode's `Cc`. Control characters move a terminal's cursor, clear
/// its screen or switch its character set, so nothing from a file or an argument reaches a
/// screen or a field with one in it; the grid, the terminal writer, the key decoder, titles,
/// names and the shell's messages all ask here.
extension Unicode.Scalar {
    public var isControlCharacter: Bool {
        value < 0x20 || (0x7F...0x9F).contains(value)
    }
}
