import FoundationEssentials
import SurveyValues

/// ODK's encrypted submissions, both ways, as ODK Collect makes them and ODK Briefcase and
/// Central open them (Collect's `EncryptionUtils`, Briefcase's `SubmissionParser` and
/// `CipherFactory`; ODK's published test vector is in the tests):
///
/// - a fresh 32-byte AES key per submission, RSA-OAEP-encrypted (SHA-256, MGF1 SHA-256)
///   for the form's public key, base64 in the manifest;
/// - each file AES-256-CFB after PKCS#7 padding (`AESCFB`), media first in order and the
///   submission last, each with the next IV of `ODKIVSequence`;
/// - the manifest's integrity check (`ODKElementSignature`).
///
/// Pure: bytes in, bytes out. The caller reads and writes the files, so the app can keep
/// plaintext out of every file it writes, and a command can write nothing until a whole
/// submission has decrypted.
public enum ODKSubmissionCrypto {
    /// A finished survey made an encrypted submission for `publicKey` (the form's
    /// `public_key`). `media` are the survey's files by plain name (photos, `audit.csv`),
    /// encrypted in the order given; `submissionXML` is the survey as its `submission.xml`.
    public static func encrypt(formID: String, version: String?, instanceID: String, submissionXML: [UInt8],
                               media: [ODKSubmissionFile], for publicKey: RSAPublicKey) throws -> ODKEncryptedSubmission {
        guard !formID.isEmpty else { throw CryptoError("an encrypted submission needs the form's id") }
        guard !instanceID.isEmpty else { throw CryptoError("an encrypted submission needs its instanceID (its files' IVs are made from it)") }
        let key = try SecureRandom.bytes(AESCFB.keyLength)
        let wrappedKey = Data(try publicKey.encrypt(key)).base64EncodedString()
        var ivs = try ODKIVSequence(instanceID: instanceID, key: key)
        var files: [ODKSubmissionFile] = []
        var signed: [ODKElementSignature.File] = []
        for file in media + [ODKSubmissionFile(name: "submission.xml", bytes: submissionXML)] {
            try ODKFileName.check(file.name, what: "media file")
            guard !signed.contains(where: { $0.name == file.name }) else {
                throw CryptoError("two files named “\(ODKFileName.printable(file.name))” in one submission")
            }
            files.append(ODKSubmissionFile(name: file.name + ".enc", bytes: try AESCFB.encrypt(file.bytes, key: key, iv: ivs.next())))
            signed.append(.init(name: file.name, plaintext: file.bytes))
        }
        let digest = try ODKElementSignature.digest(formID: formID, version: version, base64EncryptedKey: wrappedKey,
                                                    instanceID: instanceID, files: signed)
        let signature = Data(try publicKey.encrypt(digest)).base64EncodedString()
        let manifest = ODKManifest(formID: formID, version: version, instanceID: instanceID, base64EncryptedKey: wrappedKey,
                                   mediaFiles: files.dropLast().map(\.name), encryptedXMLFile: "submission.xml.enc",
                                   base64EncryptedElementSignature: signature)
        return ODKEncryptedSubmission(manifest: manifest, manifestXML: manifest.xml, files: files)
    }

    /// A submission opened with the private key. `manifestXML` is its `submission.xml`;
    /// `file` reads a file of its folder by the plain name the manifest gives (checked by
    /// `ODKFileName` first: never a path). Throws, naming the file and the reason, when a
    /// file is missing, cut short or does not decrypt; a submission whose files decrypt but
    /// do not match the manifest's signature comes back `.notValidated`, as Briefcase
    /// exports it with `isValidated` false.
    public static func decrypt(manifestXML: [UInt8], file: (String) throws -> [UInt8],
                               with privateKey: RSAPrivateKey) throws -> ODKDecryptedSubmission {
        let manifest = try ODKManifest.read(manifestXML)
        let names = try manifest.plaintextNames()
        guard let wrapped = base64(manifest.base64EncryptedKey) else {
            throw CryptoError("the manifest's base64EncryptedKey is not base64: it is damaged")
        }
        let key: [UInt8]
        do {
            key = try privateKey.decrypt(wrapped)
        } catch {
            throw CryptoError("this private key does not open the submission: it was encrypted for another key (or its base64EncryptedKey was changed)")
        }
        guard key.count == AESCFB.keyLength else {
            throw CryptoError("the submission's AES key is \(key.count) bytes, not 32: it was not made by ODK's encryption")
        }
        var ivs = try ODKIVSequence(instanceID: manifest.instanceID, key: key)
        var media: [ODKSubmissionFile] = []
        for (encrypted, plain) in zip(manifest.mediaFiles, names.media) {
            media.append(ODKSubmissionFile(name: plain, bytes: try open(encrypted, reading: file, key: key, iv: ivs.next())))
        }
        let submission = try open(manifest.encryptedXMLFile, reading: file, key: key, iv: ivs.next())
        let check = try signatureCheck(manifest, key: manifest.base64EncryptedKey,
                                       files: media.map { .init(name: $0.name, plaintext: $0.bytes) }
                                           + [.init(name: names.submission, plaintext: submission)],
                                       privateKey: privateKey)
        return ODKDecryptedSubmission(manifest: manifest, submissionXML: submission, media: media, signature: check)
    }

    private static func open(_ name: String, reading file: (String) throws -> [UInt8], key: [UInt8], iv: [UInt8]) throws -> [UInt8] {
        let bytes: [UInt8]
        do {
            bytes = try file(name)
        } catch {
            throw CryptoError("\(name), which the manifest names, cannot be read (\(error))")
        }
        do {
            return try AESCFB.decrypt(bytes, key: key, iv: iv)
        } catch let error as CryptoError {
            throw CryptoError("\(name): \(error.message)")
        }
    }

    /// Briefcase's `isValid`: the signature decrypted with the private key equals the MD5
    /// of the lines made from what was decrypted.
    private static func signatureCheck(_ manifest: ODKManifest, key: String, files: [ODKElementSignature.File],
                                       privateKey: RSAPrivateKey) throws -> ODKSignatureCheck {
        guard let text = manifest.base64EncryptedElementSignature else {
            return .notValidated("the manifest carries no base64EncryptedElementSignature")
        }
        guard let encrypted = base64(text) else { return .notValidated("its base64EncryptedElementSignature is not base64") }
        guard let signed = try? privateKey.decrypt(encrypted) else {
            return .notValidated("its base64EncryptedElementSignature does not decrypt with this key (it was changed)")
        }
        let expected = try ODKElementSignature.digest(formID: manifest.formID, version: manifest.version, base64EncryptedKey: key,
                                                      instanceID: manifest.instanceID, files: files)
        return signed == expected ? .validated
            : .notValidated("the files do not match the manifest's signature (a file was changed or swapped after encryption, or the manifest's id, version or instanceID was)")
    }

    /// Strict base64, line breaks and blanks ignored (Java's decoders skip them).
    private static func base64(_ text: String) -> [UInt8]? {
        Data(base64Encoded: String(text.unicodeScalars.filter { !" \t\r\n".unicodeScalars.contains($0) })).map(Array.init)
    }
}
