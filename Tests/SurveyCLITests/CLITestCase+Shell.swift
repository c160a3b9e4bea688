import Foundation
import XCTest
import SurveyTestSupport

/// Running `survey` through `/bin/sh`, for what `Process` cannot set up: stdout sent to
/// /dev/full or closed, a pipe whose reader goes away, and arguments or environment values
/// that are not valid UTF-8 (Swift strings cannot hold such bytes; `printf '\351'` can).
extension CLITestCase {
    /// `sh -c SCRIPT` where "$SURVEY" is the binary and "$DOCS" the document folder; the
    /// script's stdout and stderr are captured. `$ROOT` is the test's folder.
    /// `shell` names another shell (`/bin/bash` for `set -o pipefail`).
    func shell(_ script: String, environment extra: [String: String] = [:], shell: String = "/bin/sh") throws -> Outcome {
        guard FileManager.default.isExecutableFile(atPath: shell) else { throw XCTSkip("\(shell) is not installed") }
        var environment = childEnvironment
        environment["SURVEY"] = Self.binary.path
        environment["DOCS"] = documents.path
        environment["ROOT"] = root.path
        environment.merge(extra) { _, new in new }
        return Outcome(try ChildProcess.run([shell, "-c", script], environment: environment))
    }

    /// A document of `count` records, enough that its listing overflows a pipe's buffer
    /// (64 KiB), so a reader that stops early breaks the pipe while survey still writes.
    func saveLargeDocument(_ name: String, records count: Int = 5000) throws {
        try store.save(records(count), as: name)
    }
}
