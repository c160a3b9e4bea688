import SurveyValues
/// One file of a submission: a media file or the submission XML, plaintext or encrypted
/// (`photo.jpg` / `photo.jpg.enc`), by its plain name in the submission's folder.
public struct ODKSubmissionFile: Equatable, Sendable {
    public var name: String
    public var bytes: [UInt8]

    public init(name: String, bytes: [UInt8]) {
        self.name = name
        self.bytes = bytes
    }
}

/// What `ODKSubmissionCrypto.encrypt` makes: the manifest (written as `submission.xml`) and
/// the encrypted files beside it, media in order then `submission.xml.enc`. Nothing in it
/// is plaintext but the manifest's form id, version and instanceID.
public struct ODKEncryptedSubmission: Equatable, Sendable {
    public var manifest: ODKManifest
    /// `manifest.xml`, the bytes of `submission.xml`.
    public var manifestXML: [UInt8]
    public var files: [ODKSubmissionFile]
}

/// What `ODKSubmissionCrypto.decrypt` gives back.
public struct ODKDecryptedSubmission: Equatable, Sendable {
    public var manifest: ODKManifest
    /// The submission's XML, as the keyer's device wrote it.
    public var submissionXML: [UInt8]
    /// The media files by their plain names (`photo.jpg`, `audit.csv`), in the manifest's order.
    public var media: [ODKSubmissionFile]
    /// Briefcase's `isValidated`: the integrity check matches the files decrypted.
    public var signature: ODKSignatureCheck

    public var isValidated: Bool { signature == .validated }
}

/// Whether a submission's `base64EncryptedElementSignature` matches its files.
public enum ODKSignatureCheck: Equatable, Sendable {
    case validated
    /// Why not, in a clause a report can show after "not validated: ".
    case notValidated(String)
}
