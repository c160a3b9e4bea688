import FoundationEssentials

/// The words for a survey that is another's, the same in the app, the shell and a sync.
public enum SurveyOwner {
    /// "ana's survey", or for one merged from another laptop's copy that never synced,
    /// "another laptop's survey".
    public static func possessive(_ owner: String) -> String {
        owner.isEmpty ? "another laptop's survey" : "\(owner)'s survey"
    }

    /// "it is ana's survey (only ana changes it; a supervisor reviews it)".
    public static func reason(_ owner: String) -> String {
        guard !owner.isEmpty else {
            return "it is another laptop's survey (merged from its copy: that laptop changes it and sends it)"
        }
        return "it is \(owner)'s survey (only \(owner) changes it; a supervisor reviews it)"
    }

    /// The list's mark before the title: "@ana", "@merged".
    public static func mark(_ owner: String) -> String {
        "@" + (owner.isEmpty ? "merged" : owner)
    }
}
