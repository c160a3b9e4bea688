import FoundationEssentials
import SurveyValues
import SurveyForms
import SurveyStorage

/// `survey keys new FILE [--bits N]`: the data manager's key pair for encrypted forms
/// (issue 31). The private key goes to FILE, PKCS#8 PEM protected by a passphrase (asked
/// twice on the terminal, or `$SURVEY_KEY_PASSPHRASE`), created 0600 and never over an
/// existing file; the public key is printed as XLSForm's `public_key` takes it, for the
/// form's settings sheet. Collect, Central, Briefcase and survey then encrypt for it.
enum KeysCommand: Equatable {
    case new(file: String, bits: Int)

    static let shape = "survey keys new FILE [--bits N]"

    static func parse(_ options: CommandLineOptions, _ words: ArraySlice<String>) throws -> KeysCommand {
        guard let verb = words.first else { throw CommandLineOptions.UsageError(description: "missing subcommand: \(shape)") }
        guard verb == "new" else { throw CommandLineOptions.UsageError(description: "unknown keys command “\(verb)” (use new)") }
        guard let file = words.dropFirst().first else { throw CommandLineOptions.UsageError(description: "missing file: \(shape)") }
        try ShellCommands.expectNoArguments(words.dropFirst(2), shape: shape)
        return .new(file: file, bits: options.bits ?? RSAPrivateKey.defaultBits)
    }

    func run(environment: [String: String]) -> Int32 {
        switch self {
        case .new(let file, let bits): return makeKeys(file: file, bits: bits, environment: environment)
        }
    }

    private func makeKeys(file: String, bits: Int, environment: [String: String]) -> Int32 {
        return ShellOutput.exitStatus {
            // Refused before the passphrase is asked: nobody types one twice for nothing.
            guard !PrivateFiles.exists(file) else {
                throw PrivateFiles.Failure(description: "\(file) already exists: survey never replaces a key (name a new file)")
            }
            guard PrivateFiles.isFolder(PrivateFiles.parent(of: file)) else {
                throw PrivateFiles.Failure(description: "\(file): the folder \(PrivateFiles.parent(of: file)) does not exist")
            }
            let passphrase = try Passphrase.new(for: file, environment: environment)
            let key = try RSAPrivateKey.generate(bits: bits)
            try PrivateFiles.createNew(file, try key.encryptedPEM(passphrase: passphrase))
            ShellOutput.line(try key.publicKey.base64)
            StandardOutput.writeError("""
            The line above is the public key: put it in the form's settings sheet, column public_key.
            The private key is in \(ShellOutput.printable(file)) (\(bits)-bit RSA, protected by the passphrase). Keep both safe:
            without them no survey encrypted for this key can be opened, by survey or by ODK.

            """)
            return 0
        }
    }
}

extension KeysCommand: ShellCommand {
    static let name = "keys"

    static let forms: [CommandSpec] = [
        CommandSpec(words: ["keys", "new"], synopsis: "FILE [--bits N]", arguments: [.file],
                    help: "make a key pair for encrypted forms: the private key to FILE (PKCS#8 PEM, protected by a passphrase asked twice on the terminal or read from $SURVEY_KEY_PASSPHRASE; 0600; never over an existing file), the public key printed as the form's public_key setting takes it; RSA 2048 bits, or --bits N up to 16384"),
    ]

    static let options: [OptionSpec] = [
        OptionSpec(names: ["--bits"], placeholder: "N", completion: .words(["2048", "3072", "4096"]),
                   help: "keys new: the RSA key's size in bits, 2048 (the default) to 16384") { options, text in
            guard let bits = Int(text), bits >= RSAPublicKey.minimumBits, bits <= RSAPrivateKey.largestBits else {
                throw CommandLineOptions.UsageError(description: "--bits takes a number of bits from 2048 to 16384, got “\(text)”")
            }
            options.bits = bits
        },
    ]

    func run(in context: CommandContext) -> Int32 { run(environment: ProcessInfo.processInfo.environment) }

    var changesDocuments: Bool { false }
}
