import Foundation
import XCTest
import SurveyTestSupport
import SurveyValues
import SurveyForms
import SurveyStorage

/// Runs the real `survey` binary ($SURVEY_BIN, else .build/debug/survey in this package) in
/// a throw-away folder, with HOME and XDG_STATE_HOME pointing inside it so no test touches
/// the real state file, and TZ=UTC so listed times are predictable.
class CLITestCase: XCTestCase {
    private(set) var root: URL!

    var documents: URL { root.appendingPathComponent("docs", isDirectory: true) }
    var stateHome: URL { root.appendingPathComponent("state", isDirectory: true) }
    var stateFile: URL { stateHome.appendingPathComponent("survey/state.plist") }
    var store: DocumentStore { DocumentStore(folder: documents) }

    struct Outcome: Equatable {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// The environment every child runs in: the sandbox's HOME and state folder, UTF-8, UTC.
    var childEnvironment: [String: String] {
        [
            "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin",
            "HOME": root.appendingPathComponent("home").path,
            "XDG_STATE_HOME": stateHome.path,
            "LANG": "C.UTF-8",
            "TZ": "UTC",
            "PYTHONIOENCODING": "utf-8",
        ]
    }

    override func setUpWithError() throws {
        try super.setUpWithError()
        root = FileManager.default.temporaryDirectory
            .appendingPathComponent("survey-cli-tests-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: documents, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        if let root { try? FileManager.default.removeItem(at: root) }
        try super.tearDownWithError()
    }

    static var binary: URL {
        if let given = ProcessInfo.processInfo.environment["SURVEY_BIN"], !given.isEmpty {
            return URL(fileURLWithPath: given)
        }
        return URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent(".build/debug/survey")
    }

    /// `survey ARGS...` with `--dir` pointing at `documents` unless `dir` is false.
    func survey(_ arguments: [String], dir: Bool = true, environment extra: [String: String] = [:],
                file: StaticString = #filePath, line: UInt = #line) throws -> Outcome {
        let binary = Self.binary
        guard FileManager.default.isExecutableFile(atPath: binary.path) else {
            XCTFail("no survey binary at \(binary.path): run `swift build` first or set SURVEY_BIN", file: file, line: line)
            throw CocoaError(.fileNoSuchFile)
        }
        var environment = childEnvironment
        environment.merge(extra) { _, new in new }
        return Outcome(try ChildProcess.run([binary.path] + (dir ? ["--dir", documents.path] : []) + arguments,
                                            environment: environment))
    }

    func survey(_ arguments: String..., file: StaticString = #filePath, line: UInt = #line) throws -> Outcome {
        try survey(arguments, file: file, line: line)
    }

    /// Files in the document folder (hidden ones included), sorted.
    func folderContents(_ url: URL? = nil) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: (url ?? documents).path).sorted()
    }

    func records(_ count: Int) -> SurveyDocument {
        SurveyDocument(records: (0..<count).map { Record(["firstName": .string("Person \($0)")]) })
    }
}

extension CLITestCase.Outcome {
    init(_ child: ChildOutcome) {
        self.init(status: child.status, stdout: child.output, stderr: child.errors)
    }
}
