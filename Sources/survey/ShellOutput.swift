import Foundation

/// Lines for the shell. Names come from file names, which may hold escape or other control
/// characters put there by other tools; printed raw they could restyle or clear the
/// terminal, so they are shown as U+FFFD, as the app's screen does.
enum ShellOutput {
    static func line(_ text: String) {
        print(printable(text))
    }

    static func error(_ text: String) {
        FileHandle.standardError.write(Data("survey: \(printable(text))\n".utf8))
    }

    static func printable(_ text: String) -> String {
        String(String.UnicodeScalarView(text.unicodeScalars.map {
            $0.properties.generalCategory == .control ? "\u{FFFD}" : $0
        }))
    }
}
