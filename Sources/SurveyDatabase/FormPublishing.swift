import FoundationEssentials
import SurveyValues
import SurveyForms
import SurveyStorage
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Forms travel as ODK Central publishes them: a supervisor publishes the document's form
/// file and its list files as a version (`survey form publish`); every laptop's sync takes
/// the newest version published for its form and attaches it as `survey form attach` would,
/// list files included, so the whole team keys the same questions.
public enum FormPublishing {
    /// Publishes `document`'s form; what to tell the person. `warn` gets the connection's
    /// warning (unencrypted over a network) as soon as it is open.
    public static func publish(store: DocumentStore, document name: String, target: ConnectionString,
                               warn: (String) -> Void = { _ in }) throws -> String {
        guard let url = store.formURL(for: name) else {
            throw DocumentError("“\(name)” has no form to publish: survey form attach FILE --doc \(name) first")
        }
        let questionnaire = try store.questionnaire(for: name)
        guard let form = questionnaire.form, let id = form.formID else { throw DocumentError("“\(name)”'s form has no id") }
        guard let version = form.version, !version.isEmpty else {
            throw DocumentError("\(url.lastPathComponent) has no version in its settings sheet: a published form needs one, as in ODK Central")
        }
        let file = try Data(contentsOf: url)
        var media: [String: Data] = [:]
        let folder = store.mediaFolderURL(for: name)
        for entry in (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [] where !entry.hasPrefix(".") {
            // The form's list files only (attachments of surveys stay on the laptop).
            guard form.mediaFiles.contains(entry), let bytes = try? Data(contentsOf: folder.appendingPathComponent(entry)) else { continue }
            media[entry] = bytes
        }
        let server = try SurveyServer(target)
        defer { server.connection.close() }
        if let warning = server.warning { warn(warning) }
        let stored = try server.publish(PublishedForm(formID: id, version: version, fileName: url.lastPathComponent, file: file, media: media))
        return stored ? "Published \(id) version \(version) (\(counted(media.count, "list file"))): each laptop takes it at its next sync"
            : "\(id) version \(version) is already published with these contents: nothing to do"
    }

    /// The newest version published for `formID`, attached to `document` when it differs
    /// from the one it has; what changed, for the sync's message (nil: nothing).
    ///
    /// Only what this laptop lacks travels (issue 28): first the versions' names; when the
    /// newest is the one it keys, nothing more. Otherwise that version's manifest (names,
    /// sizes, SHA-256s, hashed by the server), the form file, and only the list files this
    /// laptop does not hold: one it has is known by the manifest of the version it keys,
    /// under any name, when the file there still hashes to what that version published (a
    /// list edited by hand to the same size is fetched again); it is copied here rather than
    /// fetched again. Another form's versions are never read.
    static func takeNewest(from server: SurveyServer, formID: String, store: DocumentStore, document name: String,
                           current: XLSForm?, at date: Date) throws -> String? {
        let versions = try server.publishedVersions(of: formID)
        guard let newest = versions.first, !(current?.isVersion(newest) ?? false),
              let wanted = try server.manifest(of: formID, version: newest) else { return nil }
        // The list files here, by hash: those of the published version this document keys.
        var held: [String: URL] = [:]
        if let current, current.formID == formID, let version = versions.first(where: current.isVersion),
           let had = try server.manifest(of: formID, version: version) {
            let folder = store.mediaFolderURL(for: name)
            for file in had.media.values where DocumentStore.mediaNameProblem(file.name) == nil {
                let url = folder.appendingPathComponent(file.name)
                if Self.regularFileSize(url) == file.size, let bytes = try? Data(contentsOf: url),
                   MessageDigest.sha256Hex(bytes) == file.sha256.lowercased() {
                    held[file.sha256] = url
                }
            }
        }
        // Through files, so the attaching is `survey form attach`'s own (checked, renamed, its
        // list files into NAME.media/).
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("survey-form-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        defer { try? FileManager.default.removeItem(at: scratch) }
        // The server's file name only says which kind of form it is; never a path.
        let kind = [".xlsx", ".csv", ".md"].first { wanted.file.name.lowercased().hasSuffix($0) } ?? ".xlsx"
        let fileURL = scratch.appendingPathComponent("published" + kind)
        try server.formFile(of: formID, version: newest).write(to: fileURL)
        var media: [String] = []
        for file in wanted.media.values.sorted(by: { $0.name < $1.name }) {
            // A list file's name is a plain name, never a path out of the scratch folder.
            guard DocumentStore.mediaNameProblem(file.name) == nil else { continue }
            let here = held[file.sha256]
            // Held under its own name: it stays where it is.
            if here?.lastPathComponent == file.name { continue }
            let url = scratch.appendingPathComponent(file.name)
            if let here, let bytes = try? Data(contentsOf: here), bytes.count == file.size {
                try bytes.write(to: url)
            } else {
                try server.mediaFile(file.name, of: formID, version: newest).write(to: url)
                held[file.sha256] = url   // the same bytes under another name are not fetched twice
            }
            media.append(url.path)
        }
        _ = try store.attachForm(from: fileURL.path, to: name, media: media, formID: formID, at: date)
        return "form \(formID) version \(newest) taken"
    }

    /// The size of the regular file at `url` (never through a link), or nil.
    private static func regularFileSize(_ url: URL) -> Int? {
        var status = stat()
        guard lstat(url.path, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { return nil }
        return Int(status.st_size)
    }
}
