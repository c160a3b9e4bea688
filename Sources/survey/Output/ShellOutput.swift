import FoundationEssentials
import SurveyValues
import SurveyForms
import SurveyStorage
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

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

    /// A long command's progress, on a terminal only (as git and apt show theirs): one line on
    /// standard error rewritten in place; `endProgress` ends it. A script or a pipe gets none.
    static func progress(_ text: String) {
        guard isatty(2) == 1 else { return }
        StandardOutput.writeError("\r\u{1B}[K" + printable(text))
        showingProgress = true
    }

    static func endProgress() {
        guard showingProgress else { return }
        StandardOutput.writeError("\r\u{1B}[K")
        showingProgress = false
    }

    nonisolated(unsafe) private static var showingProgress = false

    /// A command's run with its error said the one way every command says it (`failure`)
    /// and exit status 1: written once, not as a `catch` at the end of each command.
    static func exitStatus(_ run: () throws -> Int32) -> Int32 {
        do {
            return try run()
        } catch {
            failure(error)
            return 1
        }
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
