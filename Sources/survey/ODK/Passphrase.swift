import FoundationEssentials
import SurveyValues
import SurveyForms
import SurveyStorage
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The passphrase of a private key: `$SURVEY_KEY_PASSPHRASE` for scripts, else asked on the
/// terminal (`/dev/tty`, so it works with stdin and stdout redirected) with echo off, as
/// ssh-keygen and gpg ask. Never an option on the command line: `ps` and the shell's history
/// would show it to anyone on the laptop.
enum Passphrase {
    static let variable = "SURVEY_KEY_PASSPHRASE"
    /// For a new key: short passphrases fall to guessing however many PBKDF2 rounds guard them.
    static let shortest = 8

    struct Refusal: Error, CustomStringConvertible {
        let description: String
    }

    /// The passphrase for an existing key.
    static func existing(for file: String, environment: [String: String]) throws -> [UInt8] {
        if let given = environment[variable] { return Array(given.utf8) }
        return try ask("Passphrase for \(file): ")
    }

    /// A passphrase for a new key: typed twice, the same both times, at least `shortest`
    /// characters and at most what OpenSSL reads back.
    static func new(for file: String, environment: [String: String]) throws -> [UInt8] {
        let passphrase: [UInt8]
        if let given = environment[variable] {
            passphrase = Array(given.utf8)
        } else {
            passphrase = try ask("Passphrase for the new key \(file): ")
            guard try ask("The same passphrase again: ") == passphrase else {
                throw Refusal(description: "the two passphrases differ: nothing was written")
            }
        }
        let source = environment[variable] != nil ? " ($\(variable))" : ""
        guard String(decoding: passphrase, as: UTF8.self).count >= shortest else {
            throw Refusal(description: "the passphrase\(source) is shorter than \(shortest) characters: nothing was written")
        }
        guard passphrase.count <= RSAPrivateKey.longestPassphrase else {
            throw Refusal(description: "the passphrase\(source) is longer than \(RSAPrivateKey.longestPassphrase) bytes: nothing was written")
        }
        return passphrase
    }

    /// One line typed on the terminal, echo off. The terminal's settings come back however
    /// the line ends: Enter, end of file, or a signal (Ctrl-C) that ends survey.
    private static func ask(_ prompt: String) throws -> [UInt8] {
        let tty = open("/dev/tty", O_RDWR | O_NOCTTY | O_CLOEXEC)
        guard tty >= 0 else {
            throw Refusal(description: "no terminal to ask for the passphrase on: set \(variable) (for a script)")
        }
        defer { close(tty) }
        var saved = termios()
        let quiet = tcgetattr(tty, &saved) == 0
        if quiet {
            var silent = saved
            silent.c_lflag &= ~tcflag_t(ECHO | ECHONL)
            TerminalEcho.remember(tty, saved)
            _ = tcsetattr(tty, TCSAFLUSH, &silent)
        }
        defer {
            if quiet {
                _ = tcsetattr(tty, TCSAFLUSH, &saved)
                TerminalEcho.forget()
            }
        }
        _ = Array(prompt.utf8).withUnsafeBytes { write(tty, $0.baseAddress, $0.count) }
        var line: [UInt8] = []
        var byte: UInt8 = 0
        var ended = false
        while true {
            let got = read(tty, &byte, 1)
            if got < 0, errno == EINTR { continue }
            guard got == 1 else { break }
            if byte == UInt8(ascii: "\n") { ended = true; break }
            line.append(byte)
            guard line.count <= 4 * RSAPrivateKey.longestPassphrase else { break }
        }
        _ = [UInt8(ascii: "\n")].withUnsafeBytes { write(tty, $0.baseAddress, 1) }
        if line.last == UInt8(ascii: "\r") { line.removeLast() }
        guard ended || !line.isEmpty else { throw Refusal(description: "no passphrase was typed") }
        return line
    }
}

/// While echo is off: a signal that ends survey (Ctrl-C, the terminal closing) puts the
/// terminal's settings back first, then ends it as the signal would have.
private enum TerminalEcho {
    // Set and read on the main thread and in its signal handler only; `tcsetattr` is
    // async-signal-safe.
    nonisolated(unsafe) static var descriptor: Int32 = -1
    nonisolated(unsafe) static var settings = termios()
    static let signals = [SIGINT, SIGTERM, SIGHUP, SIGQUIT]

    static func remember(_ fd: Int32, _ saved: termios) {
        settings = saved
        descriptor = fd
        for number in signals { signal(number, restoreAndDie) }
    }

    static func forget() {
        descriptor = -1
        for number in signals { signal(number, SIG_DFL) }
    }
}

private func restoreAndDie(_ number: Int32) {
    if TerminalEcho.descriptor >= 0 { _ = tcsetattr(TerminalEcho.descriptor, TCSAFLUSH, &TerminalEcho.settings) }
    signal(number, SIG_DFL)
    raise(number)
}
