import Foundation
import XCTest
import SurveyValues
import SurveyForms
import SurveyStorage

/// What `survey` does when its output cannot be written: a full disk (/dev/full), a closed
/// stdout, a reader that stops early (`| head -1`). A failed write is an error (a message on
/// stderr, exit 1), never a crash and never a silent success with a truncated file; a
/// broken pipe is the reader's choice, so it ends survey quietly with exit 0.
final class OutputFailureTests: CLITestCase {
    private let full = "survey: could not write to standard output: No space left on device\n"
    private let closed = "survey: could not write to standard output: it is closed\n"

    func testExportAndListToAFullDiskSayWhyAndExitOne() throws {
        try installFixture("seed-serialized.xml", as: "Seed")
        for command in ["export", "export --format json", "export --format plist",
                        "list --format csv", "list --format json", "list"] {
            XCTAssertEqual(try shell("\"$SURVEY\" --dir \"$DOCS\" \(command) >/dev/full"),
                           Outcome(status: 1, stdout: "", stderr: full), command)
        }
    }

    func testAListTooLongForOneWriteFailsOnAFullDiskToo() throws {
        try saveLargeDocument("Big")
        XCTAssertEqual(try shell("\"$SURVEY\" --dir \"$DOCS\" list >/dev/full"),
                       Outcome(status: 1, stdout: "", stderr: full))
    }

    func testMessagesOfOtherCommandsCountToo() throws {
        try installFixture("seed-serialized.xml", as: "Seed")
        XCTAssertEqual(try shell("\"$SURVEY\" --dir \"$DOCS\" docs >/dev/full"),
                       Outcome(status: 1, stdout: "", stderr: full))
        XCTAssertEqual(try shell("\"$SURVEY\" --dir \"$DOCS\" --help >/dev/full"),
                       Outcome(status: 1, stdout: "", stderr: full))
    }

    func testACommandThatChangedADocumentSaysTheChangeWasMade() throws {
        try store.save(SurveyDocument(), as: "Field")
        XCTAssertEqual(try shell("\"$SURVEY\" --dir \"$DOCS\" add --first Ana --last Lima >/dev/full"), Outcome(
            status: 1, stdout: "",
            stderr: "survey: could not write to standard output: No space left on device (the change was made; only its message was lost)\n"))
        XCTAssertEqual(try store.load("Field").get().records.count, 1)
    }

    func testAClosedStdoutSaysSoAndExitsOne() throws {
        try installFixture("seed-serialized.xml", as: "Seed")
        let before = try fileBytes(store.url(for: "Seed"))
        for command in ["export", "list --format csv", "list --format json", "list"] {
            XCTAssertEqual(try shell("\"$SURVEY\" --dir \"$DOCS\" \(command) >&-"),
                           Outcome(status: 1, stdout: "", stderr: closed), command)
        }
        XCTAssertEqual(try fileBytes(store.url(for: "Seed")), before, "no file took stdout's place")
    }

    func testABrokenPipeEndsQuietlyWithExitZero() throws {
        try saveLargeDocument("Big")
        let machineFirstLines = [
            "export": "firstName,lastName,address,phone,age,instanceID\r\n",
            "list --format csv": "firstName,lastName,address,phone,age,instanceID\r\n",
            "list --format json": "[\n",
        ]
        let table = try survey("list", "--doc", "Big")
        let firstLines = machineFirstLines.merging(["list": String(table.stdout.prefix { $0 != "\n" }) + "\n"]) { $1 }
        for (command, firstLine) in firstLines {
            let outcome = try shell("""
                { "$SURVEY" --dir "$DOCS" \(command); echo "survey exited $?" >&2; } | head -1
                """)
            XCTAssertEqual(outcome, Outcome(status: 0, stdout: firstLine, stderr: "survey exited 0\n"), command)
        }
    }
}
