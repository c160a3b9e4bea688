import FoundationEssentials
import SurveyModel

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
    static func takeNewest(from server: SurveyServer, formID: String, store: DocumentStore, document name: String,
                           current: XLSForm?) throws -> String? {
        let published = try server.forms(since: 0).forms.filter { $0.formID == formID }
        guard let newest = published.max(by: { $0.change < $1.change }),
              !(current?.isVersion(newest.version) ?? false) else { return nil }
        // Through files, so the attaching is `survey form attach`'s own (checked, renamed, its
        // list files into NAME.media/).
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("survey-form-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        // The server's file name only says which kind of form it is; never a path.
        let kind = [".xlsx", ".csv", ".md"].first { newest.fileName.lowercased().hasSuffix($0) } ?? ".xlsx"
        let fileURL = scratch.appendingPathComponent("published" + kind)
        try newest.file.write(to: fileURL)
        var media: [String] = []
        for (entry, bytes) in newest.media {
            // A list file's name is a plain name, never a path out of the scratch folder.
            guard DocumentStore.mediaNameProblem(entry) == nil else { continue }
            let url = scratch.appendingPathComponent(entry)
            try bytes.write(to: url)
            media.append(url.path)
        }
        _ = try store.attachForm(from: fileURL.path, to: name, media: media.sorted(), formID: formID)
        return "form \(formID) version \(newest.version) taken"
    }
}
