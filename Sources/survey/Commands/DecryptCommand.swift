import FoundationEssentials
import SurveyValues
import SurveyForms
import SurveyStorage

/// `survey decrypt --key FILE FOLDER|DOCUMENT.plist... [--output FOLDER]`: ODK encrypted
/// submissions (as Collect's `instances/` or Briefcase's storage hold them, as `survey export
/// --format odk-xml` writes an encrypted form's surveys, or as a document keeps the surveys
/// of a form with a `public_key`, `Record.Sealed`) opened with the data manager's private key
/// into plaintext instance folders, `submission.xml` and the media, as Briefcase keeps
/// them. Each submission is decrypted whole in memory before anything of it is written,
/// then its folder appears in one rename; one that fails is named with the reason and the
/// rest still decrypt. Its signature's verdict is reported, as Briefcase's `isValidated`.
/// Exit 0 when every one decrypted and validated, 1 otherwise.
struct DecryptCommand: Equatable {
    static let shape = "survey decrypt --key FILE FOLDER|DOCUMENT.plist... [--output FOLDER]"

    var key: String
    var folders: [String]
    var output: String

    init(_ options: CommandLineOptions, _ words: ArraySlice<String>) throws {
        guard let key = options.key else {
            throw CommandLineOptions.UsageError(description: "--key FILE names the private key: \(Self.shape)")
        }
        guard !words.isEmpty else {
            throw CommandLineOptions.UsageError(description: "missing folder: \(Self.shape)")
        }
        self.key = key
        folders = Array(words)
        output = options.output ?? "."
    }

    func run(environment: [String: String]) -> Int32 {
        let privateKey: RSAPrivateKey
        do {
            privateKey = try loadKey(environment: environment)
        } catch {
            ShellOutput.error("\(key): \(error)")
            return 1
        }
        do {
            try PrivateFiles.makeFolders(output)
        } catch {
            ShellOutput.failure(error)
            return 1
        }
        var decrypted = 0, unvalidated = 0, failed = 0
        for argument in folders {
            for (path, outcome) in Self.isDocument(argument) ? sealedSurveys(in: argument) : SubmissionFolder.collect(argument).map({ item in
                (item.path, item.outcome.map { Source.folder($0) })
            }) {
                do {
                    let (opened, target): (ODKDecryptedSubmission, String)
                    switch try outcome.get() {
                    case .folder(let folder): (opened, target) = try decrypt(folder, with: privateKey)
                    case .survey(let record): (opened, target) = try write(try SealedSurvey.open(record, with: privateKey))
                    }
                    decrypted += 1
                    let verdict: String
                    switch opened.signature {
                    case .validated:
                        verdict = "signature validated"
                    case .notValidated(let why):
                        unvalidated += 1
                        verdict = "signature NOT validated: \(why)"
                    }
                    ShellOutput.line("\(path): \(opened.manifest.instanceID) (form \(opened.manifest.formID)) into \(target), \(verdict)")
                } catch {
                    failed += 1
                    ShellOutput.error("\(path): \(error); nothing written")
                }
            }
        }
        var summary = "\(decrypted) decrypted"
        if unvalidated > 0 { summary += ", \(unvalidated) of them not validated" }
        if failed > 0 { summary += ", \(failed) failed" }
        ShellOutput.line(summary)
        return unvalidated == 0 && failed == 0 ? 0 : 1
    }

    private func loadKey(environment: [String: String]) throws -> RSAPrivateKey {
        let pem: [UInt8]
        do {
            pem = try SubmissionFolder.read(key, limit: 1 << 20)
        } catch {
            throw SubmissionFolder.Refusal(description: "cannot be read (\(error))")
        }
        let passphrase = RSAPrivateKey.isEncrypted(pem: pem) ? try Passphrase.existing(for: key, environment: environment) : nil
        return try RSAPrivateKey(pem: pem, passphrase: passphrase)
    }

    /// One submission opened, then written into `output` under its instanceID: into a
    /// hidden folder first, renamed into place once every file is on disk (`PrivateFiles`).
    private func decrypt(_ folder: SubmissionFolder, with key: RSAPrivateKey) throws -> (ODKDecryptedSubmission, String) {
        let manifest: [UInt8]
        do {
            manifest = try SubmissionFolder.read(folder.path + "/" + folder.manifest, limit: ODKManifest.largest)
        } catch {
            throw SubmissionFolder.Refusal(description: "its manifest \(folder.manifest) cannot be read (\(error))")
        }
        return try write(try ODKSubmissionCrypto.decrypt(manifestXML: manifest, file: { try folder.read($0) }, with: key))
    }

    /// A submission opened, written into `output` under its instanceID.
    private func write(_ opened: ODKDecryptedSubmission) throws -> (ODKDecryptedSubmission, String) {
        if let clash = opened.media.first(where: { $0.name == "submission.xml" }) {
            throw SubmissionFolder.Refusal(description: "a media file is named \(clash.name), as the submission is written")
        }
        let target = (output == "." ? "" : output.hasSuffix("/") ? output : output + "/") + Self.folderName(opened.manifest.instanceID)
        guard !PrivateFiles.exists(target) else {
            throw SubmissionFolder.Refusal(description: "\(target) already exists: survey never replaces it")
        }
        try PrivateFiles.createFolder(target, holding: [ODKSubmissionFile(name: "submission.xml", bytes: opened.submissionXML)] + opened.media)
        return (opened, target)
    }

    /// Where a submission comes from: an instance's folder, or a survey a document keeps
    /// encrypted (issue 31).
    enum Source {
        case folder(SubmissionFolder)
        case survey(Record)
    }

    /// A document file (`NAME.plist`, a regular file) rather than a folder of submissions.
    static func isDocument(_ argument: String) -> Bool {
        argument.hasSuffix(".plist") && PrivateFiles.exists(argument) && !PrivateFiles.isFolder(argument)
    }

    /// The encrypted surveys of a document file, each named `DOCUMENT.plist#instanceID`; its
    /// surveys kept as keyed (incomplete ones) are not encrypted and are passed over, the
    /// usual exports give them. A file that is no document, or holds no encrypted survey, is
    /// one refusal.
    private func sealedSurveys(in path: String) -> [(String, Result<Source, Error>)] {
        let document: SurveyDocument
        do {
            document = try SurveyDocument(propertyListData: Data(try SubmissionFolder.read(path, limit: Int.max)))
        } catch {
            return [(path, .failure(SubmissionFolder.Refusal(description: "not a document survey can read (\(error))")))]
        }
        let sealed = document.records.filter(\.isSealed)
        guard !sealed.isEmpty else {
            return [(path, .failure(SubmissionFolder.Refusal(description: "it holds no encrypted survey (a form with a public_key encrypts each survey when it is finished)")))]
        }
        return sealed.map { ("\(path)#\($0.instanceID ?? "?")", .success(.survey($0))) }
    }

    /// Briefcase's instance folder name: the instanceID without its colon (`uuid494c…`);
    /// anything but letters, digits, `-`, `_` and `.` becomes `_`, so an id read from a
    /// manifest never makes a path.
    static func folderName(_ instanceID: String) -> String {
        var name = String(instanceID.unicodeScalars.filter { $0 != ":" }.prefix(100).map { scalar -> Character in
            let plain = ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar) || "-_.".unicodeScalars.contains(scalar)
            return plain ? Character(scalar) : "_"
        })
        if name.isEmpty || name.hasPrefix(".") { name = "_" + name }
        return name
    }
}

extension DecryptCommand: ReadsItsWords {
    static let name = "decrypt"

    static let forms: [CommandSpec] = [
        CommandSpec(words: ["decrypt"], synopsis: "--key FILE FOLDER|DOCUMENT.plist... [--output FOLDER]", arguments: [.directory],
                    help: "open ODK encrypted submissions with the private key FILE (its passphrase asked on the terminal or read from $SURVEY_KEY_PASSPHRASE): each FOLDER is one submission's folder (its manifest .xml and .enc files) or a folder of them (Collect's instances/, Briefcase's instances/), and each DOCUMENT.plist a document whose form has a public_key (its encrypted surveys); each is written to --output FOLDER (default the current one) as uuid…/submission.xml and its media, 0600, never over an existing folder, and whether its signature validated is reported (as Briefcase's isValidated); one that fails is named with the reason and the rest still decrypt; exit 1 when any failed or did not validate"),
    ]

    static let options: [OptionSpec] = [
        OptionSpec(names: ["--key"], placeholder: "FILE", completion: .file,
                   help: "decrypt: the private key's PEM file (survey keys new, or openssl genrsa as ODK's guide makes it)") { $0.key = $1 },
        .output,
    ]

    func run(in context: CommandContext) -> Int32 { run(environment: ProcessInfo.processInfo.environment) }

    var changesDocuments: Bool { false }
}
