import Foundation
import XCTest
import SurveyModel

/// Helpers for the record commands: the handed-over fixtures, stdin for `import -`, and
/// Python as an independent reader and writer of our CSV and JSON.
extension CLITestCase {
    static func fixtureURL(_ name: String) -> URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("SurveyModelTests/Fixtures/\(name)")
    }

    /// Copies a fixture into the document folder as NAME.plist.
    func installFixture(_ fixture: String, as name: String) throws {
        try FileManager.default.copyItem(at: Self.fixtureURL(fixture), to: store.url(for: name))
    }

    func fileBytes(_ url: URL) throws -> Data {
        try Data(contentsOf: url)
    }

    /// A file in the test's folder, outside the document folder.
    func scratchFile(_ name: String, _ contents: String? = nil) throws -> URL {
        let url = root.appendingPathComponent(name)
        if let contents { try Data(contents.utf8).write(to: url) }
        return url
    }

    /// `survey ARGS...` (with --dir) reading `input` on stdin, in the same environment as
    /// `survey(_:)`, by way of the shell's redirection.
    func survey(_ arguments: [String], stdin input: URL) throws -> Outcome {
        let quoted = ([Self.binary.path, "--dir", documents.path] + arguments)
            .map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }.joined(separator: " ")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "exec \(quoted) < '\(input.path)'"]
        process.environment = [
            "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin",
            "HOME": root.appendingPathComponent("home").path,
            "XDG_STATE_HOME": stateHome.path,
            "LANG": "C.UTF-8",
            "TZ": "UTC",
        ]
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let outData = output.fileHandleForReading.readDataToEndOfFile()
        let errData = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Outcome(status: process.terminationStatus,
                       stdout: String(decoding: outData, as: UTF8.self),
                       stderr: String(decoding: errData, as: UTF8.self))
    }

    /// `python3 -c script args...` through /usr/bin/env; its stdout, failing on a non-zero exit.
    func python(_ script: String, _ arguments: [String] = [],
                file: StaticString = #filePath, line: UInt = #line) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", script] + arguments
        process.environment = [
            "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin",
            "XDG_STATE_HOME": stateHome.path,
            "LANG": "C.UTF-8",
            "PYTHONIOENCODING": "utf-8",
        ]
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let outData = output.fileHandleForReading.readDataToEndOfFile()
        let errData = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0,
                       "python3 failed: \(String(decoding: errData, as: UTF8.self))", file: file, line: line)
        return String(decoding: outData, as: UTF8.self)
    }
}
