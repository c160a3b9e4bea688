import Foundation
import XCTest

/// Paths and names reach survey as bytes. `CommandLine.arguments` and `ProcessInfo` decode
/// them lossily, so `--dir 'caf\xE9'` (Latin-1) used to become the folder `caf\u{FFFD}`
/// and data went there. Such bytes are refused, before anything is read or created.
final class ArgumentBytesTests: CLITestCase {
    /// The test's folder, listed: nothing may appear in it.
    private func rootContents() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: root.path).sorted()
    }

    func testADirThatIsNotUTF8IsRefused() throws {
        let before = try rootContents()
        let outcome = try shell("""
            "$SURVEY" --dir "$(printf '%s/caf\\351' "$ROOT")" add --doc X --first Ana --last Lima
            """)
        XCTAssertEqual(outcome.status, 2)
        XCTAssertEqual(outcome.stdout, "")
        XCTAssertEqual(outcome.stderr.split(separator: "\n").first.map(String.init),
                       "survey: argument 2 is not UTF-8 text (\(root.path)/caf\\xE9): give names and paths in UTF-8")
        XCTAssertEqual(try rootContents(), before)
    }

    func testEveryArgumentIsChecked() throws {
        try installFixture("seed-serialized.xml", as: "Seed")
        let outcome = try shell("""
            "$SURVEY" --dir "$DOCS" export --output "$(printf '%s/out\\377.csv' "$ROOT")"
            """)
        XCTAssertEqual(outcome.status, 2)
        XCTAssertEqual(outcome.stderr.split(separator: "\n").first.map(String.init),
                       "survey: argument 5 is not UTF-8 text (\(root.path)/out\\xFF.csv): give names and paths in UTF-8")
        XCTAssertEqual(try folderContents(), ["Seed.plist"])
    }

    func testFolderVariablesThatAreNotUTF8AreRefused() throws {
        let before = try rootContents()
        for variable in ["SURVEY_HOME", "XDG_DATA_HOME"] {
            let outcome = try shell("""
                \(variable)="$(printf '%s/caf\\351' "$ROOT")" "$SURVEY" add --doc X --first Ana --last Lima
                """)
            XCTAssertEqual(outcome, Outcome(status: 2, stdout: "", stderr:
                "survey: $\(variable) is not UTF-8 text (\(root.path)/caf\\xE9): give names and paths in UTF-8\n"),
                variable)
        }
        XCTAssertEqual(try rootContents(), before)
    }

    func testAVariableNotUsedIsNotChecked() throws {
        let outcome = try shell("""
            SURVEY_HOME="$(printf 'caf\\351')" "$SURVEY" --dir "$DOCS" add --doc X --first Ana --last Lima
            """)
        XCTAssertEqual(outcome, Outcome(status: 0, stdout: "Added survey 1: Lima, Ana\n", stderr: ""))
    }
}
