import Foundation
import XCTest
import SurveyTestSupport

/// `survey keys new FILE [--bits N]` run as a data manager or a script runs it: the private
/// key opens in Python's `cryptography` with the passphrase, its public half is the line
/// printed, the file is 0600 and never replaces another, and a passphrase asked on the
/// terminal is not echoed (and echo comes back).
final class KeysCommandTests: CLITestCase {
    static let passphrase = "correct horse battery"

    /// The private key's size and public key as Python reads them with `passphrase`.
    func pythonOpens(_ file: URL, passphrase: String) throws -> String {
        let outcome = try ChildProcess.run(["python3", "-c", #"""
        import base64, sys
        from cryptography.hazmat.primitives import serialization
        key = serialization.load_pem_private_key(open(sys.argv[1], "rb").read(), sys.argv[2].encode())
        der = key.public_key().public_bytes(serialization.Encoding.DER, serialization.PublicFormat.SubjectPublicKeyInfo)
        print(key.key_size, base64.b64encode(der).decode())
        """#, file.path, passphrase])
        XCTAssertEqual(outcome.status, 0, outcome.errors)
        return outcome.output
    }

    func mode(_ url: URL) throws -> Int {
        (try FileManager.default.attributesOfItem(atPath: url.path)[.posixPermissions] as? NSNumber)?.intValue ?? -1
    }

    func testKeysNewWritesAKeyPythonOpensAndPrintsItsPublicKey() throws {
        let file = root.appendingPathComponent("household.pem")
        let made = try survey(["keys", "new", file.path], environment: ["SURVEY_KEY_PASSPHRASE": Self.passphrase])
        XCTAssertEqual(made.status, 0, made.stderr)
        let lines = made.stdout.split(separator: "\n", omittingEmptySubsequences: false)
        XCTAssertEqual(lines.count, 2, "one line, the public key: \(made.stdout)")
        let publicKey = String(lines[0])
        XCTAssertEqual(try pythonOpens(file, passphrase: Self.passphrase), "2048 \(publicKey)\n")
        XCTAssertEqual(try mode(file), 0o600)
        XCTAssertTrue(made.stderr.contains("put it in the form's settings sheet, column public_key"), made.stderr)
        XCTAssertTrue(try String(contentsOf: file, encoding: .utf8).hasPrefix("-----BEGIN ENCRYPTED PRIVATE KEY-----\n"))
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: root.path).filter { $0.hasPrefix(".") }, [],
                       "no temporary file left beside it")

        let bigger = root.appendingPathComponent("bigger.pem")
        let made3072 = try survey(["keys", "new", bigger.path, "--bits", "3072"], environment: ["SURVEY_KEY_PASSPHRASE": Self.passphrase])
        XCTAssertEqual(made3072.status, 0, made3072.stderr)
        XCTAssertTrue(try pythonOpens(bigger, passphrase: Self.passphrase).hasPrefix("3072 "))
    }

    func testAnExistingFileIsNeverReplaced() throws {
        let file = try scratchFile("key.pem", "my old key\n")
        let outcome = try survey(["keys", "new", file.path], environment: ["SURVEY_KEY_PASSPHRASE": Self.passphrase])
        XCTAssertEqual(outcome, Outcome(status: 1, stdout: "",
                                        stderr: "survey: \(file.path) already exists: survey never replaces a key (name a new file)\n"))
        XCTAssertEqual(try String(contentsOf: file, encoding: .utf8), "my old key\n")
        // Refused before any passphrase is asked: no terminal is needed to hear it.
        XCTAssertEqual(try survey(["keys", "new", file.path]).stderr,
                       "survey: \(file.path) already exists: survey never replaces a key (name a new file)\n")
    }

    func testAPassphraseTooShortOrMissingWritesNothing() throws {
        let file = root.appendingPathComponent("key.pem")
        XCTAssertEqual(try survey(["keys", "new", file.path], environment: ["SURVEY_KEY_PASSPHRASE": "1234567"]),
                       Outcome(status: 1, stdout: "", stderr: "survey: the passphrase ($SURVEY_KEY_PASSPHRASE) is shorter than 8 characters: nothing was written\n"))
        // No variable, and no terminal to ask on (the tests run without one).
        XCTAssertEqual(try survey(["keys", "new", file.path]),
                       Outcome(status: 1, stdout: "", stderr: "survey: no terminal to ask for the passphrase on: set SURVEY_KEY_PASSPHRASE (for a script)\n"))
        XCTAssertEqual(try survey(["keys", "new", root.appendingPathComponent("no/such/key.pem").path],
                                  environment: ["SURVEY_KEY_PASSPHRASE": Self.passphrase]).stderr,
                       "survey: \(root.appendingPathComponent("no/such/key.pem").path): the folder \(root.appendingPathComponent("no/such").path) does not exist\n")
        XCTAssertFalse(FileManager.default.fileExists(atPath: file.path))
    }

    func testUsageErrors() throws {
        let cases: [([String], String)] = [
            (["keys"], "survey: missing subcommand: survey keys new FILE [--bits N]"),
            (["keys", "old"], "survey: unknown keys command “old” (use new)"),
            (["keys", "new"], "survey: missing file: survey keys new FILE [--bits N]"),
            (["keys", "new", "a.pem", "b.pem"], "survey: unexpected argument “b.pem”: survey keys new FILE [--bits N]"),
            (["keys", "new", "a.pem", "--bits", "1024"], "survey: --bits takes a number of bits from 2048 to 16384, got “1024”"),
            (["keys", "new", "a.pem", "--bits", "lots"], "survey: --bits takes a number of bits from 2048 to 16384, got “lots”"),
            (["list", "--bits", "2048"], "survey: --bits only works with survey keys"),
        ]
        for (arguments, message) in cases {
            let outcome = try survey(arguments)
            XCTAssertEqual(outcome.status, 2, "\(arguments)")
            XCTAssertEqual(outcome.stderr.split(separator: "\n").first.map(String.init), message, "\(arguments)")
        }
    }

    /// Python plays the person at a terminal: survey gets a pseudo-terminal as its
    /// controlling terminal, with stdin and stdout redirected elsewhere; what the "screen"
    /// shows and whether echo is on again afterwards come back as JSON.
    static let terminal = #"""
    import fcntl, json, os, select, subprocess, sys, termios, time
    survey, answers = sys.argv[1], sys.argv[3:]
    master, slave = os.openpty()
    def controlling():
        os.setsid()
        fcntl.ioctl(slave, termios.TIOCSCTTY, 0)
    child = subprocess.Popen([survey] + sys.argv[2].split("\x1f"), stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, preexec_fn=controlling, pass_fds=(slave,))
    screen = b""
    for answer in answers:
        deadline = time.time() + 20
        while b": " not in screen[screen.rfind(b"\n") + 1:] and time.time() < deadline:
            ready, _, _ = select.select([master], [], [], 0.2)
            if ready:
                screen += os.read(master, 4096)
        time.sleep(0.2)
        os.write(master, answer.encode() + b"\n")
        time.sleep(0.2)
        while select.select([master], [], [], 0.2)[0]:
            screen += os.read(master, 4096)
    out, err = child.communicate(timeout=120)
    while select.select([master], [], [], 0.1)[0]:
        try:
            screen += os.read(master, 4096)
        except OSError:
            break
    echo = bool(termios.tcgetattr(slave)[3] & termios.ECHO)
    print(json.dumps({"status": child.returncode, "stdout": out.decode(), "stderr": err.decode(),
                      "screen": screen.decode(errors="replace"), "echo": echo}))
    """#

    struct TerminalRun: Decodable {
        let status: Int32
        let stdout: String
        let stderr: String
        let screen: String
        let echo: Bool
    }

    func atTerminal(_ arguments: [String], typing answers: [String]) throws -> TerminalRun {
        let outcome = try ChildProcess.run(["python3", "-c", Self.terminal, Self.binary.path,
                                            arguments.joined(separator: "\u{1F}")] + answers, environment: childEnvironment)
        XCTAssertEqual(outcome.status, 0, outcome.errors)
        return try JSONDecoder().decode(TerminalRun.self, from: outcome.stdout)
    }

    func testThePassphraseIsAskedTwiceOnTheTerminalWithoutEcho() throws {
        let file = root.appendingPathComponent("typed.pem")
        let typed = try atTerminal(["keys", "new", file.path], typing: ["typed at the keyboard", "typed at the keyboard"])
        XCTAssertEqual(typed.status, 0, typed.stderr)
        XCTAssertTrue(typed.screen.contains("Passphrase for the new key \(file.path): "), typed.screen)
        XCTAssertTrue(typed.screen.contains("The same passphrase again: "), typed.screen)
        XCTAssertFalse(typed.screen.contains("typed at"), "the passphrase is not echoed: \(typed.screen)")
        XCTAssertTrue(typed.echo, "echo is on again once survey is done")
        XCTAssertEqual(try pythonOpens(file, passphrase: "typed at the keyboard"), "2048 \(typed.stdout)")

        let differ = root.appendingPathComponent("differ.pem")
        let mistyped = try atTerminal(["keys", "new", differ.path], typing: ["typed at the keyboard", "typed at the keybaord"])
        XCTAssertEqual(mistyped.status, 1)
        XCTAssertEqual(mistyped.stderr, "survey: the two passphrases differ: nothing was written\n")
        XCTAssertTrue(mistyped.echo)
        XCTAssertFalse(FileManager.default.fileExists(atPath: differ.path))
    }
}
