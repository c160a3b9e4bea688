import Foundation

/// An independent implementation of ODK's encrypted submissions in Python, on the
/// `cryptography` package, written from Collect's `EncryptionUtils` and Briefcase's
/// `CipherFactory`/`SubmissionParser`: the oracle survey's encryption is held to. It shares
/// nothing with the Swift code but the format. `ElementTree` reads the manifest with its
/// namespaces, as a server does. Shared by the model's tests and the CLI's.
///
///     keygen PEMFILE                     a 2048-bit key, PKCS#1 PEM; prints the public_key
///     decrypt FOLDER PEMFILE PASS|-      prints JSON: formID, version, instanceID, validated, files (base64)
///     encrypt FOLDER PUBLIC_KEY FORMID VERSION|- INSTANCEID SOURCE NAME...
///                                        Collect's folder from SOURCE/submission.xml and SOURCE/NAME...
public enum ODKPythonOracle {
    static let script = #"""
    import base64, hashlib, json, os, sys
    import xml.etree.ElementTree as ET
    from cryptography.hazmat.primitives import serialization, hashes, padding as sympadding
    from cryptography.hazmat.primitives.asymmetric import padding, rsa
    from cryptography.hazmat.primitives.ciphers import Cipher, algorithms
    try:
        from cryptography.hazmat.decrepit.ciphers.modes import CFB
    except ImportError:
        from cryptography.hazmat.primitives.ciphers.modes import CFB

    OAEP = padding.OAEP(mgf=padding.MGF1(algorithm=hashes.SHA256()), algorithm=hashes.SHA256(), label=None)
    E = "{http://www.opendatakit.org/xforms/encrypted}"
    O = "{http://openrosa.org/xforms}"

    def ivs(instance_id, key):
        seed = bytearray(hashlib.md5(instance_id.encode("utf-8") + key).digest())
        i = 0
        while True:
            seed[i % 16] = (seed[i % 16] + 1) % 256
            i += 1
            yield bytes(seed)

    def digest(lines):
        return hashlib.md5("".join(line + "\n" for line in lines).encode("utf-8")).digest()

    def keygen(path):
        key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
        with open(path, "wb") as f:
            f.write(key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.TraditionalOpenSSL, serialization.NoEncryption()))
        der = key.public_key().public_bytes(serialization.Encoding.DER, serialization.PublicFormat.SubjectPublicKeyInfo)
        print(base64.b64encode(der).decode())

    def decrypt(folder, pem, passphrase):
        key = serialization.load_pem_private_key(open(pem, "rb").read(), None if passphrase == "-" else passphrase.encode())
        root = ET.parse(os.path.join(folder, "submission.xml")).getroot()
        assert root.tag == E + "data", root.tag
        assert root.get("encrypted") == "yes"
        form_id, version = root.get("id"), root.get("version")
        wrapped = root.find(E + "base64EncryptedKey").text
        instance_id = root.find(O + "meta/" + O + "instanceID").text
        names = [m.find(E + "file").text for m in root.findall(E + "media")] + [root.find(E + "encryptedXmlFile").text]
        aes = key.decrypt(base64.b64decode(wrapped), OAEP)
        lines = [form_id] + ([version] if version is not None else []) + [wrapped, instance_id]
        files = {}
        for name, iv in zip(names, ivs(instance_id, aes)):
            assert name.endswith(".enc")
            d = Cipher(algorithms.AES(aes), CFB(iv)).decryptor()
            padded = d.update(open(os.path.join(folder, name), "rb").read()) + d.finalize()
            unpadder = sympadding.PKCS7(128).unpadder()
            plain = unpadder.update(padded) + unpadder.finalize()
            files[name[:-4]] = base64.b64encode(plain).decode()
            lines.append(name[:-4] + "::" + hashlib.md5(plain).hexdigest())
        signed = key.decrypt(base64.b64decode(root.find(E + "base64EncryptedElementSignature").text), OAEP)
        print(json.dumps({"formID": form_id, "version": version, "instanceID": instance_id,
                          "order": [n[:-4] for n in names], "validated": signed == digest(lines), "files": files}))

    def escape(text, attribute=False):
        text = text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
        return text.replace('"', "&quot;") if attribute else text

    def encrypt(folder, public_key, form_id, version, instance_id, source, names):
        public = serialization.load_der_public_key(base64.b64decode(public_key))
        aes = os.urandom(32)
        wrapped = base64.b64encode(public.encrypt(aes, OAEP)).decode()
        lines = [form_id] + ([version] if version != "-" else []) + [wrapped, instance_id]
        for name, iv in zip(names + ["submission.xml"], ivs(instance_id, aes)):
            data = open(os.path.join(source, name), "rb").read()
            padder = sympadding.PKCS7(128).padder()
            e = Cipher(algorithms.AES(aes), CFB(iv)).encryptor()
            with open(os.path.join(folder, name + ".enc"), "wb") as f:
                f.write(e.update(padder.update(data) + padder.finalize()) + e.finalize())
            lines.append(name + "::" + hashlib.md5(data).hexdigest())
        signature = base64.b64encode(public.encrypt(digest(lines), OAEP)).decode()
        xml = '<data xmlns="http://www.opendatakit.org/xforms/encrypted" id="%s"' % escape(form_id, True)
        if version != "-":
            xml += ' version="%s"' % escape(version, True)
        xml += ' encrypted="yes"><base64EncryptedKey>%s</base64EncryptedKey>' % wrapped
        xml += '<orx:meta xmlns:orx="http://openrosa.org/xforms"><orx:instanceID>%s</orx:instanceID></orx:meta>\n' % escape(instance_id)
        for name in names:
            xml += "<media><file>%s</file></media>\n" % escape(name + ".enc")
        xml += "<encryptedXmlFile>submission.xml.enc</encryptedXmlFile>"
        xml += "<base64EncryptedElementSignature>%s</base64EncryptedElementSignature></data>" % signature
        with open(os.path.join(folder, "submission.xml"), "w", encoding="utf-8") as f:
            f.write(xml)

    command = sys.argv[1]
    if command == "keygen":
        keygen(sys.argv[2])
    elif command == "decrypt":
        decrypt(sys.argv[2], sys.argv[3], sys.argv[4])
    elif command == "encrypt":
        encrypt(sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5], sys.argv[6], sys.argv[7], sys.argv[8:])
    """#

    public struct Decrypted: Decodable {
        public let formID: String
        public let version: String?
        public let instanceID: String
        public let order: [String]
        public let validated: Bool
        public let files: [String: String]

        public func bytes(_ name: String) -> [UInt8]? { files[name].flatMap { Data(base64Encoded: $0) }.map(Array.init) }
    }

    /// A fresh 2048-bit key at `pem` (PKCS#1, no passphrase); its `public_key` text.
    public static func keygen(_ pem: URL) throws -> String {
        try run(["keygen", pem.path]).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    public static func decrypt(_ folder: URL, key pem: URL, passphrase: String? = nil) throws -> Decrypted {
        let output = try run(["decrypt", folder.path, pem.path, passphrase ?? "-"])
        return try JSONDecoder().decode(Decrypted.self, from: Data(output.utf8))
    }

    /// Writes Collect's files for the submission into `folder` (which must exist): the
    /// manifest as `submission.xml`, the media's and the submission's `.enc` files.
    public static func encrypt(into folder: URL, publicKey: String, formID: String, version: String?, instanceID: String,
                               source: URL, media: [String]) throws {
        _ = try run(["encrypt", folder.path, publicKey, formID, version ?? "-", instanceID, source.path] + media)
    }

    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    private static func run(_ arguments: [String]) throws -> String {
        let outcome = try ChildProcess.run(["python3", "-c", script] + arguments)
        guard outcome.status == 0 else { throw Failure(description: "python3 failed: \(outcome.errors)") }
        return outcome.output
    }
}
