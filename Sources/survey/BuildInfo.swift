/// The version, and the commit the binary was built from. The Makefile's release build
/// writes `BuildCommit.generated.swift` (gitignored) and compiles with
/// `-DSURVEY_BUILD_COMMIT`; a plain `swift build` says "unknown".
enum BuildInfo {
    /// The one place the version is written; the Makefile reads it from here for the .deb.
    static let version = "0.2.0"

    static var commit: String {
        #if SURVEY_BUILD_COMMIT
        return generatedBuildCommit
        #else
        return "unknown"
        #endif
    }

    /// `survey --version`: `survey 0.2.0 (commit 824ca42669fd)`.
    static var versionLine: String { "survey \(version) (commit \(commit))" }
}
