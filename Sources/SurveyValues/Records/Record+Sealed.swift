import FoundationEssentials

/// A finished survey of a form with a `public_key`, as survey keeps it (issue 31): ODK's
/// encrypted submission held in the survey itself, beside the few answers the team needs to
/// work without the key (its id, the form's id and version, the times and the keyer, the
/// answers the form marks `publishable`). Made by `SealedSurvey.seal` (SurveyForms).
///
/// The manifest's fields sit under keys that begin with `#`, a character no XLSForm name can
/// hold (pyxform's names are XML names), so no question's answer can take their place:
///
/// - `#formID`, `#version`: the manifest's `id` and `version` (what its signature covers);
/// - `#base64EncryptedKey`: the AES key, RSA-OAEP-wrapped for the form's public key;
/// - `#submission.xml.enc`: the encrypted `submission.xml`, as data;
/// - `#media`, `#media.enc`: the encrypted media's names (`audit.csv.enc`) and bytes, in the
///   manifest's (and the IVs') order; absent when there are none;
/// - `#base64EncryptedElementSignature`: the manifest's integrity check.
///
/// The survey's `instanceID` is the manifest's. Everything else the survey held is inside
/// the encrypted submission only.
extension Record {
    public enum Sealed {
        public static let formIDKey = "#formID"
        public static let versionKey = "#version"
        public static let encryptedKeyKey = "#base64EncryptedKey"
        public static let submissionKey = "#submission.xml.enc"
        public static let mediaNamesKey = "#media"
        public static let mediaKey = "#media.enc"
        public static let signatureKey = "#base64EncryptedElementSignature"

        /// Every key of the encrypted submission, in the order a file shows them.
        public static let keys = [formIDKey, versionKey, encryptedKeyKey, mediaNamesKey, mediaKey, submissionKey, signatureKey]

        /// Whether `key` is one of the encrypted submission's (a `#` name: none is a
        /// question's), for exports that show only what is readable.
        public static func isSealedKey(_ key: String) -> Bool { key.hasPrefix("#") }
    }

    /// Whether the survey is an encrypted one: it carries an encrypted submission. Read from
    /// the packed bytes, without copying the submission: every save of an encrypted form's
    /// document asks it of the surveys it changed.
    public var isSealed: Bool {
        let key = Sealed.submissionKey
        return packed.withUnsafeBufferPointer { buffer in
            var found = false
            PackedAnswers.forEachEntry(in: buffer) { entry in
                guard PackedAnswers.entry(entry, in: buffer, isKey: key, code: 0) else { return true }
                found = entry.tag == PackedAnswers.dataTag
                return false
            }
            return found
        }
    }

    /// Whether answers (a survey's values, as a sync carries them) are an encrypted survey's.
    public static func isSealed(_ answers: [String: PropertyValue]) -> Bool {
        if case .data? = answers[Sealed.submissionKey] { return true }
        return false
    }

    /// The survey without the encrypted submission's keys: what is readable of it.
    public var readableValues: [String: PropertyValue] {
        values.filter { !Sealed.isSealedKey($0.key) }
    }
}
