import Foundation
import XCTest
import SurveyTestSupport

/// Base of the end-to-end tests: a throw-away sandbox holding the document folder (with
/// fixtures copied into it) and the app's home and state folders, and the real `survey`
/// binary started in a tmux pane on that folder. tearDown kills the tmux server (and with it
/// the app) and removes the sandbox.
class EndToEndTestCase: XCTestCase {
    private var sandbox: URL!
    /// The document folder the app is started on (`--dir`).
    private(set) var folder: URL!
    private var sessions: [TmuxSession] = []

    override func setUpWithError() throws {
        try super.setUpWithError()
        sandbox = FileManager.default.temporaryDirectory
            .appendingPathComponent("survey-e2e-\(UUID().uuidString)", isDirectory: true)
        folder = sandbox.appendingPathComponent("docs", isDirectory: true)
        for sub in ["docs", "home", "state"] {
            try FileManager.default.createDirectory(at: sandbox.appendingPathComponent(sub, isDirectory: true),
                                                    withIntermediateDirectories: true)
        }
    }

    override func tearDownWithError() throws {
        for session in sessions { session.close() }
        sessions = []
        if let sandbox { try? FileManager.default.removeItem(at: sandbox) }
        try super.tearDownWithError()
    }

    // MARK: - The binary

    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// `SURVEY_BIN` (set by `make test`), else the debug build in the package.
    static var binaryPath: String {
        if let path = ProcessInfo.processInfo.environment["SURVEY_BIN"], !path.isEmpty { return path }
        return packageRoot.appendingPathComponent(".build/debug/survey").path
    }

    /// Starts the app in a `width`x`height` terminal with `arguments` (default: `--dir`
    /// the test's folder), run through `wrapper` when given (e.g. `env TERM=dumb`, or a
    /// `bash -c` that redirects). Fails the test, never skips it, when the binary is missing.
    func launch(_ arguments: [String]? = nil, width: Int = 120, height: Int = 40, through wrapper: [String] = [],
                file: StaticString = #filePath, line: UInt = #line) throws -> TmuxSession {
        let binary = Self.binaryPath
        guard FileManager.default.isExecutableFile(atPath: binary) else {
            XCTFail("""
                The survey binary is missing at \(binary). Run `make test` (which builds it and \
                sets SURVEY_BIN), or `swift build` first, or point SURVEY_BIN at a built binary.
                """, file: file, line: line)
            throw TmuxError("no survey binary at \(binary)")
        }
        // The app remembers sessions under $XDG_STATE_HOME (else ~/.local/state): keep that,
        // and anything else it might put in HOME, inside the sandbox, never the user's.
        let isolated = ["/usr/bin/env", "-u", "SURVEY_HOME", "-u", "XDG_DATA_HOME", "-u", "XDG_CONFIG_HOME",
                        "HOME=" + sandbox.appendingPathComponent("home").path,
                        "XDG_STATE_HOME=" + sandbox.appendingPathComponent("state").path]
        let session = try TmuxSession(command: isolated + wrapper + [binary] + (arguments ?? ["--dir", folder.path]),
                                      width: width, height: height)
        sessions.append(session)
        return session
    }

    // MARK: - Files

    static let fixtures = packageRoot.appendingPathComponent("Tests/SurveyModelTests/Fixtures")

    /// Copies a fixture into the folder as NAME.plist (a fresh, writable file; the fixtures
    /// in the repository are read-only).
    @discardableResult
    func installFixture(_ fixture: String, as name: String) throws -> URL {
        let data = try Data(contentsOf: Self.fixtures.appendingPathComponent(fixture))
        let url = documentURL(name)
        try data.write(to: url)
        return url
    }

    func documentURL(_ name: String) -> URL {
        folder.appendingPathComponent(name + ".plist")
    }

    /// The app makes a commit durable in `.NAME.journal` and rewrites the `.plist` behind it,
    /// emptying the journal (back to its one-line header) once the file holds it all. So a
    /// test that reads the file after the screen showed a commit waits for that: polled, with
    /// a deadline that fails the test, never a fixed sleep.
    func waitForFileToCatchUp(_ name: String, timeout: TimeInterval = 10,
                              file: StaticString = #filePath, line: UInt = #line) {
        let journal = folder.appendingPathComponent(".\(name).journal").path
        let header = "survey journal 1\n".utf8.count
        func holdsEntries() -> Bool {
            guard let size = (try? FileManager.default.attributesOfItem(atPath: journal))?[.size] as? Int else { return false }
            return size > header
        }
        if !Polling.until(timeout: timeout, { !holdsEntries() }) {
            XCTFail("\(name).plist did not catch up with its journal within \(timeout) s", file: file, line: line)
        }
    }

    func folderContents() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
    }

    /// Record `index` of the document as plistlib reads it; nil when there is no such record.
    func record(_ index: Int, in name: String, file: StaticString = #filePath, line: UInt = #line) throws -> PlistValue? {
        let all = try records(in: name, file: file, line: line)
        return all.indices.contains(index) ? all[index] : nil
    }

    /// The document's records as plistlib reads them, once the file holds every change
    /// committed so far (`waitForFileToCatchUp`).
    func records(in name: String, file: StaticString = #filePath, line: UInt = #line) throws -> [PlistValue] {
        waitForFileToCatchUp(name, file: file, line: line)
        let value = try Plistlib.load(documentURL(name))
        guard case .array(let records) = value else {
            XCTFail("\(name).plist is not an array: \(value)", file: file, line: line)
            return []
        }
        return records
    }
}
