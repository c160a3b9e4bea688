import Foundation
import XCTest
import SurveyTestSupport
import SurveyValues
import SurveyForms
import SurveyStorage

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
    /// `survey(_:)`.
    func survey(_ arguments: [String], stdin input: URL) throws -> Outcome {
        Outcome(try ChildProcess.run([Self.binary.path, "--dir", documents.path] + arguments,
                                     environment: childEnvironment, stdin: input))
    }

    /// `python3 -c script args...` through /usr/bin/env; its stdout, failing on a non-zero exit.
    func python(_ script: String, _ arguments: [String] = [],
                file: StaticString = #filePath, line: UInt = #line) throws -> String {
        let outcome = try ChildProcess.run(["python3", "-c", script] + arguments, environment: childEnvironment)
        XCTAssertEqual(outcome.status, 0, "python3 failed: \(outcome.errors)", file: file, line: line)
        return outcome.output
    }
}

extension CLITestCase {
    /// Document `name`'s records after a command saved it: each must carry a fresh,
    /// distinct `instanceID` (uuid: + an RFC 4122 UUID), which is checked here; they come
    /// back without it, so the rest can be compared exactly.
    func recordsCheckingIDs(_ name: String, file: StaticString = #filePath, line: UInt = #line) throws -> [Record] {
        let records = try store.load(name).get().records
        let ids = records.map(\.instanceID)
        for id in ids {
            XCTAssertTrue(InstanceIDCheck.isFresh(id), "\(id ?? "no id") is uuid: + a UUID", file: file, line: line)
        }
        XCTAssertEqual(Set(ids).count, ids.count, "ids are distinct: \(ids)", file: file, line: line)
        return records.map { Record($0.answers) }
    }
}

extension Record {
    /// The survey's title under the original five (`Questionnaire.standard.title(of:)`, the
    /// one title rule): "Last, First", for tests that state five-field surveys by name.
    var listTitle: String { Questionnaire.standard.title(of: self) }
    func listTitle(limit: Int?) -> String { Questionnaire.standard.title(of: self, limit: limit) }
}
