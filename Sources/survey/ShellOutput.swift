import FoundationEssentials
import SurveyModel

/// Lines for the shell, through `StandardOutput` (which notices failed writes). Names come
/// from file names, which may hold escape or other control characters put there by other
/// tools; printed raw they could restyle or clear the terminal, so they are shown as
/// U+FFFD, as the app's screen does.
enum ShellOutput {
    static func line(_ text: String) {
        StandardOutput.write(printable(text) + "\n")
    }

    static func error(_ text: String) {
        StandardOutput.writeError("survey: \(printable(text))\n")
    }

    /// A command's error: one line, or each line of an unusable questionnaire's errors.
    static func failure(_ error: Error) {
        if let unusable = error as? UnusableQuestionnaire {
            unusable.lines.forEach(Self.error)
        } else if let refused = error as? UnusableFormError {
            refused.lines.forEach(Self.error)
        } else {
            Self.error("\(error)")
        }
    }

    static func printable(_ text: String) -> String {
        String(String.UnicodeScalarView(text.unicodeScalars.map {
            $0.isControlCharacter ? "\u{FFFD}" : $0
        }))
    }
}
