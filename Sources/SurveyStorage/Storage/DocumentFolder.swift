import FoundationEssentials
import SurveyValues
import SurveyForms

extension DocumentStore {
    /// `dir` (from --dir) else $SURVEY_HOME else $XDG_DATA_HOME/survey else
    /// ~/.local/share/survey ($HOME from env, falling back to NSHomeDirectory()).
    ///
    /// Empty values count as unset. Relative paths resolve against the current directory,
    /// except a relative $XDG_DATA_HOME, which the XDG Base Directory spec says to ignore.
    /// A leading "~" is expanded, for values that reached us without a shell.
    public static func resolveFolder(dir: String?, environment: [String: String]) -> URL {
        func given(_ value: String?) -> String? {
            guard let value, !value.isEmpty else { return nil }
            return value
        }
        let home = given(environment["HOME"]) ?? FileManager.default.homeDirectoryForCurrentUser.path
        let path: String
        if let dir = given(dir) {
            path = dir
        } else if let surveyHome = given(environment["SURVEY_HOME"]) {
            path = surveyHome
        } else if let dataHome = given(environment["XDG_DATA_HOME"]), dataHome.hasPrefix("/") {
            path = dataHome + "/survey"
        } else {
            path = home + "/.local/share/survey"
        }
        return absoluteURL(path, home: home)
    }

    private static func absoluteURL(_ path: String, home: String) -> URL {
        var expanded = path
        if expanded == "~" {
            expanded = home
        } else if expanded.hasPrefix("~/") {
            expanded = home + expanded.dropFirst()
        }
        if !expanded.hasPrefix("/") {
            expanded = FileManager.default.currentDirectoryPath + "/" + expanded
        }
        return URL(fileURLWithPath: expanded, isDirectory: true).standardizedFileURL
    }
}
