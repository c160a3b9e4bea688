import SurveyValues
/// The manifest's `base64EncryptedElementSignature`, as Collect writes it and Briefcase checks
/// it (`isValidated`): RSA-OAEP, under the form's *public* key, of the MD5 of these lines,
/// each ending in a newline:
///
///     formId
///     version                  (only when the form has one)
///     base64EncryptedKey       (as the manifest carries it)
///     instanceID
///     NAME::md5hex             (each media file, without .enc, in the manifest's order)
///     submission.xml::md5hex   (the submission itself, last)
///
/// It is an integrity check, not a signature: the public key is in the form, so anyone who
/// has the form can make a valid one for any content. It shows that the files decrypted are
/// the ones the manifest was written with (nothing cut, swapped or damaged in transit);
/// it proves nothing about who wrote them.
enum ODKElementSignature {
    struct File {
        /// The file's name without `.enc` (`photo.jpg`, `submission.xml`).
        let name: String
        let plaintext: [UInt8]
    }

    /// The MD5 the signature encrypts.
    static func digest(formID: String, version: String?, base64EncryptedKey: String, instanceID: String, files: [File]) throws -> [UInt8] {
        var lines = [formID]
        if let version { lines.append(version) }
        lines += [base64EncryptedKey, instanceID]
        for file in files {
            lines.append(file.name + "::" + CryptoDigest.hex(try CryptoDigest.md5(file.plaintext)))
        }
        return try CryptoDigest.md5(Array(lines.map { $0 + "\n" }.joined().utf8))
    }
}
