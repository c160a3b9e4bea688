import Foundation

/// What a child process left behind.
public struct ChildOutcome: Equatable, Sendable {
    public var status: Int32
    public var stdout: Data
    public var stderr: Data

    public var output: String { String(decoding: stdout, as: UTF8.self) }
    public var errors: String { String(decoding: stderr, as: UTF8.self) }
}

/// Runs a program to completion with its output captured: python3 reading our files, the
/// `survey` binary, tmux, chattr. Every test target that runs one goes through here, so the
/// pipe handling (read both pipes fully before waiting, so a chatty child cannot block) is
/// written once.
public enum ChildProcess {
    /// `arguments[0]` is looked up on PATH (through /usr/bin/env) unless it is a path.
    /// `environment` nil inherits the test's. Standard input is `stdin`, else empty.
    public static func run(_ arguments: [String], environment: [String: String]? = nil,
                           stdin: URL? = nil) throws -> ChildOutcome {
        let process = Process()
        if let first = arguments.first, first.hasPrefix("/") {
            process.executableURL = URL(fileURLWithPath: first)
            process.arguments = Array(arguments.dropFirst())
        } else {
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = arguments
        }
        if let environment { process.environment = environment }
        process.standardInput = try stdin.map { try FileHandle(forReadingFrom: $0) } ?? FileHandle.nullDevice
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let outData = output.fileHandleForReading.readDataToEndOfFile()
        let errData = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return ChildOutcome(status: process.terminationStatus, stdout: outData, stderr: errData)
    }
}
