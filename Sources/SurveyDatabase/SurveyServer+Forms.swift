import FoundationEssentials
import SurveyValues
import SurveyForms
import SurveyStorage

/// A published form version: the form file (XLSForm .xlsx or .csv) as bytes, and its media
/// (choice files, images) by name, as ODK Central publishes them.
public struct PublishedForm: Equatable, Sendable {
    public var formID: String
    public var version: String
    public var fileName: String
    public var file: Data
    public var media: [String: Data]
    public var publishedBy: String?
    /// Its place in the server's change order (0 before it is published).
    public var change: Int64

    public init(formID: String, version: String, fileName: String, file: Data, media: [String: Data] = [:],
                publishedBy: String? = nil, change: Int64 = 0) {
        self.formID = formID
        self.version = version
        self.fileName = fileName
        self.file = file
        self.media = media
        self.publishedBy = publishedBy
        self.change = change
    }
}

/// A published version's files as the server describes them before any bytes travel.
public struct FormManifest: Equatable, Sendable {
    public struct File: Equatable, Sendable {
        public var name: String
        public var size: Int
        /// SHA-256 of the bytes, lowercase hex.
        public var sha256: String
    }
    public var formID: String
    public var version: String
    public var file: File
    /// By name.
    public var media: [String: File] = [:]
}

/// What was fetched (tests): the last thousand fetches, so an app syncing for days keeps
/// no more.
final class FetchLog: @unchecked Sendable {
    private let lock = Lock()
    private var entries: [(what: String, bytes: Int)] = []

    func record(what: String, bytes: Int) {
        lock.withLock {
            if entries.count >= 1_000 { entries.removeFirst(entries.count - 999) }
            entries.append((what, bytes))
        }
    }

    /// What was fetched since the last call.
    func take() -> [(what: String, bytes: Int)] {
        lock.withLock {
            defer { entries = [] }
            return entries
        }
    }
}

extension SurveyServer {
    /// Publishes a form version with its media in one transaction (the supervisor role may,
    /// an enumerator may not). Publishing the same version again with the same bytes changes
    /// nothing and returns false; with other bytes it is refused: a published version is
    /// what laptops keyed against, so a changed form needs a new version.
    @discardableResult
    public func publish(_ form: PublishedForm) throws -> Bool {
        try connection.transaction {
            let inserted = try connection.execute("""
                INSERT INTO survey.forms (form_id, version, file_name, file) VALUES ($1, $2, $3, decode($4, 'hex'))
                ON CONFLICT (form_id, version) DO NOTHING
                """, [form.formID, form.version, form.fileName, Self.hex(form.file)])
            if inserted.changed == 0 {
                let same = try connection.execute("""
                    SELECT f.file = decode($3, 'hex') AND f.file_name = $4
                           AND (SELECT coalesce(jsonb_object_agg(name, encode(bytes, 'hex')), '{}') FROM survey.form_media m
                                WHERE m.form_id = f.form_id AND m.version = f.version) = $5::jsonb
                    FROM survey.forms f WHERE f.form_id = $1 AND f.version = $2
                    """, [form.formID, form.version, Self.hex(form.file), form.fileName, Self.mediaJSON(form.media)])
                guard same.scalar == "t" else {
                    throw DatabaseError(.statement(sqlState: "23505"),
                        "the form \(form.formID) version \(form.version) is already published with other contents: publish it as a new version")
                }
                return false
            }
            for name in form.media.keys.sorted() {
                try connection.execute("INSERT INTO survey.form_media (form_id, version, name, bytes) VALUES ($1, $2, $3, decode($4, 'hex'))",
                                       [form.formID, form.version, name, Self.hex(form.media[name] ?? Data())])
            }
            return true
        }
    }

    /// The form versions published after `cursor`, oldest first, and the cursor to ask from next.
    /// Below the change horizon only, as `pull` (`Schema.lockFreeChanges`).
    public func forms(since cursor: Int64) throws -> (forms: [PublishedForm], cursor: Int64) {
        let result = try connection.execute("""
            SELECT f.form_id, f.version, f.file_name, encode(f.file, 'hex'), f.published_by, f.change_seq,
                   (SELECT coalesce(jsonb_object_agg(name, encode(bytes, 'hex')), '{}')::text FROM survey.form_media m
                    WHERE m.form_id = f.form_id AND m.version = f.version)
            FROM survey.forms f WHERE f.change_seq > $1 AND f.change_seq < survey.change_horizon() ORDER BY f.change_seq
            """, [String(cursor)])
        var forms: [PublishedForm] = []
        for c in result.rows {
            guard let id = c[0], let version = c[1], let name = c[2], let file = c[3].flatMap(Self.bytes(hex:)),
                  let change = c[5].flatMap({ Int64($0) }) else {
                throw DatabaseError(.protocolError, "\(connection.target.shown) sent a form survey cannot read")
            }
            var media: [String: Data] = [:]
            if let json = c[6], let entries = try? PropertyValue.answers(jsonObject: Array(json.utf8)) {
                for (key, value) in entries { if case .string(let text) = value, let bytes = Self.bytes(hex: text) { media[key] = bytes } }
            }
            forms.append(PublishedForm(formID: id, version: version, fileName: name, file: file, media: media,
                                       publishedBy: c[4], change: change))
        }
        return (forms, forms.last?.change ?? cursor)
    }

    // MARK: What a sync fetches: only what the laptop lacks (issue 28)

    /// The versions published for `formID`, newest first, without their bytes: a sync asks
    /// this first, and fetches nothing more when the newest is the version it has (a 39 MB
    /// list of another form made an unrelated sync take 3.5 s and 416 MB).
    public func publishedVersions(of formID: String) throws -> [String] {
        try connection.execute("SELECT version FROM survey.forms WHERE form_id = $1 ORDER BY change_seq DESC", [formID])
            .rows.compactMap { $0.first ?? nil }
    }

    /// One published version's files without their bytes: each one's name, size and SHA-256
    /// (hex), hashed by the server (PostgreSQL's `sha256`), so a laptop fetches only the list
    /// files it does not already hold. nil when the server has no such version.
    public func manifest(of formID: String, version: String) throws -> FormManifest? {
        let result = try connection.execute("""
            SELECT true, file_name, octet_length(file), encode(sha256(file), 'hex') FROM survey.forms
            WHERE form_id = $1 AND version = $2
            UNION ALL
            SELECT false, name, octet_length(bytes), encode(sha256(bytes), 'hex') FROM survey.form_media
            WHERE form_id = $1 AND version = $2
            """, [formID, version])
        var manifest: FormManifest?
        var media: [String: FormManifest.File] = [:]
        for c in result.rows {
            guard let name = c[1], let size = c[2].flatMap({ Int($0) }), let hash = c[3] else {
                throw DatabaseError(.protocolError, "\(connection.target.shown) sent a form survey cannot read")
            }
            if c[0] == "t" {
                manifest = FormManifest(formID: formID, version: version, file: FormManifest.File(name: name, size: size, sha256: hash))
            } else {
                media[name] = FormManifest.File(name: name, size: size, sha256: hash)
            }
        }
        manifest?.media = media
        return manifest
    }

    /// The bytes of a published version's form file.
    public func formFile(of formID: String, version: String) throws -> Data {
        try fetchBytes("SELECT translate(encode(file, 'base64'), E'\\n', '') FROM survey.forms WHERE form_id = $1 AND version = $2",
                       [formID, version], what: "the form \(formID) version \(version)")
    }

    /// The bytes of one media file of a published version: one at a time, so a sync holds at
    /// most the largest of them.
    public func mediaFile(_ name: String, of formID: String, version: String) throws -> Data {
        try fetchBytes("""
            SELECT translate(encode(bytes, 'base64'), E'\\n', '') FROM survey.form_media WHERE form_id = $1 AND version = $2 AND name = $3
            """, [formID, version, name], what: "\(name) of the form \(formID) version \(version)")
    }

    private func fetchBytes(_ sql: String, _ parameters: [String], what: String) throws -> Data {
        let text = try connection.execute(sql, parameters).scalar
        guard let text, let bytes = Data(base64Encoded: text) else {
            throw DatabaseError(.protocolError, "\(connection.target.shown) did not send \(what)")
        }
        Self.formFetches.record(what: what, bytes: bytes.count)
        return bytes
    }

    /// Every form file and list file fetched, in order: tests count them (a sync fetches only
    /// the document's form, only a version it lacks, and a list file only once).
    static let formFetches = FetchLog()

    static func hex(_ data: Data) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(data.count * 2)
        for byte in data { out.append(digits[Int(byte >> 4)]); out.append(digits[Int(byte & 0xF)]) }
        return String(decoding: out, as: UTF8.self)
    }

    static func bytes(hex text: String) -> Data? {
        let utf8 = Array(text.utf8)
        guard utf8.count % 2 == 0 else { return nil }
        func nibble(_ c: UInt8) -> UInt8? {
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): return c - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): return c - UInt8(ascii: "a") + 10
            default: return nil
            }
        }
        var out = Data(capacity: utf8.count / 2)
        var i = 0
        while i < utf8.count {
            guard let high = nibble(utf8[i]), let low = nibble(utf8[i + 1]) else { return nil }
            out.append(high << 4 | low)
            i += 2
        }
        return out
    }

    /// `{"name": "hex…"}`, the media as the comparison in `publish` reads them.
    static func mediaJSON(_ media: [String: Data]) -> String {
        PropertyValue.jsonObjectText(media.mapValues { .string(hex($0)) })
    }
}
