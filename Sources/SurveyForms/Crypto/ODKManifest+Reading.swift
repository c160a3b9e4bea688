import SurveyValues
/// Reading a manifest someone else wrote (Collect's instance folder, Briefcase's storage, a
/// server's export): bounded and non-recursive. The bytes are at most `largest` (a manifest
/// is a few kilobytes, plus a line per media file); `XMLTagScanner` turns them into a flat
/// list of tags and text (no DTD, no entity but XML's five and character references), and
/// one loop with an explicit stack of at most `deepest` open elements checks that every
/// element is closed by its own end tag, so a manifest cut short is told from a whole one.
/// Elements are found by local name where Collect puts them; a name a manifest gives is
/// checked by `ODKFileName` before anything is opened by it.
extension ODKManifest {
    /// 1 MiB: room for thousands of media files; a manifest larger is not one.
    public static let largest = 1 << 20
    static let deepest = 16

    /// Whether `bytes` look like an encrypted submission's manifest (an XML file holding
    /// `base64EncryptedKey`), to pick the manifest among a folder's `.xml` files.
    public static func looksLikeManifest(_ bytes: [UInt8]) -> Bool {
        bytes.count <= largest && contains(bytes, "base64EncryptedKey>") && contains(bytes, "encryptedXmlFile>")
    }

    public static func read(_ bytes: [UInt8]) throws -> ODKManifest {
        guard bytes.count <= largest else {
            throw CryptoError("the manifest is \(bytes.count) bytes: one is a few kilobytes (refused above \(largest / 1024 / 1024) MiB)")
        }
        var stack: [String] = []
        var root: [String: String]?
        var rootName = ""
        var closed = false
        var text = ""
        var singles: [String: String] = [:]
        var instanceElement: String?
        var media: [String] = []
        for event in XMLTagScanner.events(bytes) {
            switch event {
            case .start(let name, let attributes, _):
                guard !closed else { throw CryptoError("the manifest goes on after </\(rootName)>: it is not one XML document") }
                if stack.isEmpty {
                    root = attributes
                    rootName = name
                }
                stack.append(name)
                guard stack.count <= deepest else { throw CryptoError("the manifest nests elements more than \(deepest) deep: it is not ODK's") }
                text = ""
            case .text(let content):
                if stack.isEmpty {
                    guard content.unicodeScalars.allSatisfy({ isBlank($0) || $0 == "\u{FEFF}" }) else {
                        throw CryptoError(closed ? "the manifest goes on after </\(rootName)>: it is not one XML document"
                                          : "the manifest has text before its first element: it is not XML")
                    }
                } else {
                    text += content
                }
            case .end(let name):
                guard let open = stack.last else { throw CryptoError("the manifest closes </\(name)>, which was never opened: it is not well-formed") }
                guard open == name else { throw CryptoError("the manifest closes <\(open)> with </\(name)>: it is not well-formed") }
                let value = trimmed(text)
                switch (stack.count, name) {
                case (2, "base64EncryptedKey"), (2, "encryptedXmlFile"), (2, "base64EncryptedElementSignature"):
                    guard singles[name] == nil else { throw CryptoError("the manifest has two <\(name)> elements") }
                    singles[name] = value
                case (3, "instanceID") where stack[1] == "meta":
                    guard instanceElement == nil else { throw CryptoError("the manifest has two <instanceID> elements") }
                    instanceElement = value
                case (3, "file") where stack[1] == "media":
                    media.append(value)
                default:
                    break
                }
                stack.removeLast()
                if stack.isEmpty { closed = true }
                text = ""
            }
        }
        guard let root else { throw CryptoError("the manifest holds no XML element: it is empty or not XML") }
        // The scanner takes a last tag without its `>` as whole; a manifest cut there ends
        // in something else.
        guard closed, bytes.last(where: { !isBlank(Unicode.Scalar($0)) }) == UInt8(ascii: ">") else {
            throw CryptoError("the manifest is cut short: <\(stack.first ?? rootName)> is never closed")
        }
        guard let formID = root["id"].map(trimmed), !formID.isEmpty else {
            throw CryptoError("the manifest names no form: <\(rootName)> has no id")
        }
        guard let instanceID = (instanceElement ?? root["instanceID"]).map(trimmed), !instanceID.isEmpty else {
            throw CryptoError("the manifest has no instanceID: the files' IVs cannot be made without it")
        }
        guard let key = singles["base64EncryptedKey"], !key.isEmpty else {
            throw CryptoError("the manifest has no <base64EncryptedKey>: it is not an encrypted submission")
        }
        guard let xmlFile = singles["encryptedXmlFile"] else {
            throw CryptoError("the manifest has no <encryptedXmlFile>: it does not say which file holds the submission")
        }
        let manifest = ODKManifest(formID: formID, version: root["version"].map(trimmed).flatMap { $0.isEmpty ? nil : $0 },
                                   instanceID: instanceID, base64EncryptedKey: key, mediaFiles: media,
                                   encryptedXMLFile: xmlFile,
                                   base64EncryptedElementSignature: singles["base64EncryptedElementSignature"].flatMap { $0.isEmpty ? nil : $0 })
        _ = try manifest.plaintextNames()
        return manifest
    }

    /// The names the files decrypt to: each media file's, then the submission's, each a
    /// plain name (`ODKFileName`) and none twice, so no file decrypted overwrites another.
    func plaintextNames() throws -> (media: [String], submission: String) {
        let submission = try ODKFileName.plaintextName(of: encryptedXMLFile, what: "encrypted submission")
        var seen: Set<String> = [submission]
        var names: [String] = []
        for file in mediaFiles {
            let name = try ODKFileName.plaintextName(of: file, what: "media file")
            guard seen.insert(name).inserted else {
                throw CryptoError("the manifest names “\(ODKFileName.printable(file))” twice (or beside the submission of that name)")
            }
            names.append(name)
        }
        return (names, submission)
    }

    private static func isBlank(_ scalar: Unicode.Scalar) -> Bool {
        scalar == " " || scalar == "\t" || scalar == "\n" || scalar == "\r"
    }

    private static func trimmed(_ text: String) -> String {
        let scalars = text.unicodeScalars
        guard let first = scalars.firstIndex(where: { !isBlank($0) }), let last = scalars.lastIndex(where: { !isBlank($0) }) else { return "" }
        return String(scalars[first...last])
    }

    private static func contains(_ bytes: [UInt8], _ needle: String) -> Bool {
        let pattern = Array(needle.utf8)
        guard let first = pattern.first, pattern.count <= bytes.count else { return false }
        var i = 0
        while i + pattern.count <= bytes.count {
            if bytes[i] == first, bytes[i..<i + pattern.count].elementsEqual(pattern) { return true }
            i += 1
        }
        return false
    }
}
