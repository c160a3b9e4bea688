import SurveyValues
import SurveyForms

/// What the runner found while opening the first document, handed to `update` in one action
/// so that the state is written only there: the runner reads the folder, the session memory
/// and the host and login names; the core only takes the results in.
public struct Launch: Equatable, Sendable {
    /// The document folder's path (shown in F4's info).
    public var folder: String
    /// This machine and login, for a form's `deviceid` and `username` metadata.
    public var device: DeviceMetadata
    /// Where the session memory says the user was in this document.
    public var place: SessionPlace?
    /// A large document shown before all of it is read: how much is (nil: all of it).
    public var loadingPercent: Int?
    /// What putting back a journal an interrupted session left said, if there was one.
    public var journalMessage: String?

    public init(folder: String, device: DeviceMetadata, place: SessionPlace?, loadingPercent: Int?,
                journalMessage: String?) {
        self.folder = folder
        self.device = device
        self.place = place
        self.loadingPercent = loadingPercent
        self.journalMessage = journalMessage
    }
}
