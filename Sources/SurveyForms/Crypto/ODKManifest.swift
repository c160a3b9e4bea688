import SurveyValues
/// The plaintext `submission.xml` of an ODK encrypted submission: which form, which survey,
/// the AES key wrapped for the form's public key, the encrypted files in the order their IVs
/// were taken, and the integrity check (`ODKElementSignature`). It is all a server or a
/// folder shows without the private key.
public struct ODKManifest: Equatable, Sendable {
    public var formID: String
    /// The form's version; nil when the form has none (then the signature has no such line).
    public var version: String?
    public var instanceID: String
    /// The AES key, RSA-OAEP-encrypted for the form's public key, base64, as written.
    public var base64EncryptedKey: String
    /// The media files, `.enc` names, in the manifest's (and the IVs') order.
    public var mediaFiles: [String]
    /// The encrypted submission, `submission.xml.enc`.
    public var encryptedXMLFile: String
    /// nil when the manifest carries none: the submission then cannot be validated.
    public var base64EncryptedElementSignature: String?

    public init(formID: String, version: String?, instanceID: String, base64EncryptedKey: String,
                mediaFiles: [String], encryptedXMLFile: String, base64EncryptedElementSignature: String?) {
        self.formID = formID
        self.version = version
        self.instanceID = instanceID
        self.base64EncryptedKey = base64EncryptedKey
        self.mediaFiles = mediaFiles
        self.encryptedXMLFile = encryptedXMLFile
        self.base64EncryptedElementSignature = base64EncryptedElementSignature
    }

    static let namespace = "http://www.opendatakit.org/xforms/encrypted"
    static let openRosaNamespace = "http://openrosa.org/xforms"

    /// The manifest as Collect's `writeSubmissionManifest` serializes it (kXML, no XML
    /// declaration): the root `data` in ODK's encrypted namespace with `id`, `version` (when
    /// there is one) and `encrypted="yes"`; the key; `orx:meta/orx:instanceID`; a newline;
    /// each `media/file` followed by a newline; the encrypted file's name; the signature.
    /// Central and Briefcase read exactly these elements.
    public var xml: [UInt8] {
        var out = "<data xmlns=\"\(Self.namespace)\" id=\"\(Self.escaped(formID, attribute: true))\""
        if let version { out += " version=\"\(Self.escaped(version, attribute: true))\"" }
        out += " encrypted=\"yes\">"
        out += "<base64EncryptedKey>\(Self.escaped(base64EncryptedKey))</base64EncryptedKey>"
        out += "<orx:meta xmlns:orx=\"\(Self.openRosaNamespace)\"><orx:instanceID>\(Self.escaped(instanceID))</orx:instanceID></orx:meta>\n"
        for file in mediaFiles {
            out += "<media><file>\(Self.escaped(file))</file></media>\n"
        }
        out += "<encryptedXmlFile>\(Self.escaped(encryptedXMLFile))</encryptedXmlFile>"
        if let signature = base64EncryptedElementSignature {
            out += "<base64EncryptedElementSignature>\(Self.escaped(signature))</base64EncryptedElementSignature>"
        }
        out += "</data>"
        return Array(out.utf8)
    }

    /// kXML's escaping: `&`, `<`, `>` always, `"` in an attribute.
    private static func escaped(_ text: String, attribute: Bool = false) -> String {
        var out = ""
        for character in text {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"" where attribute: out += "&quot;"
            default: out.append(character)
            }
        }
        return out
    }
}
