import Foundation
import XCTest

final class UsageTests: CLITestCase {
    func testHelpDocumentsEveryCommand() throws {
        let outcome = try survey("--help")
        XCTAssertEqual(outcome.status, 0)
        XCTAssertEqual(outcome.stderr, "")
        for text in ["survey [--dir DIR] [--doc NAME] [--split-width N]", "survey docs new NAME",
                     "survey docs rename OLD NEW", "survey docs rm NAME", "survey docs restore [NAME]",
                     "XDG_STATE_HOME", ".trash/", "--                   end of options", "2  usage error",
                     "survey deleted [--doc NAME] [--format table|csv|json]", "survey undelete ID [--doc NAME]",
                     ".NAME.deleted.plist", "instanceID"] {
            XCTAssertTrue(outcome.stdout.contains(text), "help lacks \(text)")
        }
        XCTAssertEqual(try survey("--split-width", "90", "-h").stdout, outcome.stdout, "help wins wherever it is")
        XCTAssertEqual(try survey("frob", "--help").stdout, outcome.stdout, "an unknown command gets the whole page")
    }

    /// `survey COMMAND --help` is that command's help only (issue 30): its forms, what each
    /// does, its options and the shared ones it names; nothing of the other commands.
    func testACommandsHelpIsThatCommandAlone() throws {
        let diff = try survey("diff", "--help")
        XCTAssertEqual(diff.status, 0)
        XCTAssertTrue(diff.stdout.hasPrefix("usage: survey diff A B [--by FIELD[,FIELD...]] [--format table|csv|json]\n"), diff.stdout)
        for text in ["independent double entry", "--by FIELDS", "--format FORMAT", "--dir DIR", "-h, --help"] {
            XCTAssertTrue(diff.stdout.contains(text), "diff --help lacks \(text)")
        }
        for text in ["survey list", "--split-width", "--doc NAME", "XDG_STATE_HOME"] {
            XCTAssertFalse(diff.stdout.contains(text), "diff --help shows \(text)")
        }
        let docs = try survey("docs", "-h").stdout
        XCTAssertEqual(docs.components(separatedBy: "\n").filter { $0.contains("survey docs") }.count, 5, docs)
        XCTAssertTrue(docs.contains("--form FILE"), docs)
        let list = try survey("list", "--help").stdout
        XCTAssertTrue(list.contains("--doc NAME") && list.contains("--raw") && !list.contains("--by"), list)
    }

    func testVersion() throws {
        let outcome = try survey("--version")
        XCTAssertEqual(outcome.status, 0)
        XCTAssertTrue(outcome.stdout.hasPrefix("survey 0.2.0 (commit "), outcome.stdout)
    }

    func testUsageErrorsExitTwoWithTheReasonAndTheSynopsis() throws {
        let cases: [([String], String)] = [
            (["frob"], "survey: unknown command “frob” (use docs, list, add, export, import, deleted, undelete, delete, merge, diff, verify, stats, entities, conflicts, resolve, sync, pull, push, review, history, form, db, keys or decrypt)"),
            (["docs", "frob"], "survey: unknown docs command “frob” (use new, rename, rm or restore)"),
            (["docs", "new"], "survey: missing name: survey docs new NAME [--form FILE]"),
            (["docs", "new", "A", "B"], "survey: unexpected argument “B”: survey docs new NAME [--form FILE]"),
            (["docs", "rename", "A"], "survey: missing name: survey docs rename OLD NEW"),
            (["docs", "rename", "A", "B", "C"], "survey: unexpected argument “C”: survey docs rename OLD NEW"),
            (["docs", "rm"], "survey: missing name: survey docs rm NAME"),
            (["docs", "restore", "A", "B"], "survey: unexpected argument “B”: survey docs restore [NAME]"),
            (["docs", "new", "-weird-"], "survey: unknown option “-weird-” (put -- before a name that starts with \"-\")"),
            (["docs", "--dir"], "survey: --dir needs a value"),
            (["--split-width", "0"], "survey: --split-width needs a whole number of columns, got “0”"),
        ]
        for (arguments, message) in cases {
            let outcome = try survey(arguments)
            XCTAssertEqual(outcome.status, 2, "\(arguments)")
            XCTAssertEqual(outcome.stdout, "", "\(arguments)")
            let lines = outcome.stderr.split(separator: "\n", omittingEmptySubsequences: false)
            XCTAssertEqual(lines.first.map(String.init), message, "\(arguments)")
            // A command named: its own forms (the error stays in view); else the whole synopsis.
            if arguments.first == "docs" {
                XCTAssertTrue(outcome.stderr.contains("\nusage: survey docs [--dir DIR]\n       survey docs new NAME"), "\(arguments)")
                XCTAssertFalse(outcome.stderr.contains("survey list"), "only the command's own forms: \(arguments)")
                XCTAssertTrue(outcome.stderr.hasSuffix("survey docs --help tells more.\n"), "\(arguments)")
            } else {
                XCTAssertTrue(outcome.stderr.contains("usage: survey [--dir DIR]"), "\(arguments)")
                XCTAssertTrue(outcome.stderr.hasSuffix("survey --help tells more.\n"), "\(arguments)")
            }
        }
        // One command's one form: the whole of what follows the reason.
        let delete = try survey(["delete"])
        XCTAssertEqual(delete.status, 2)
        XCTAssertEqual(delete.stderr, "survey: missing id: survey delete ID [--doc NAME] (survey list --format csv shows them)\n"
            + "usage: survey delete ID [--doc NAME]\nsurvey delete --help tells more.\n")
        XCTAssertEqual(try folderContents(), [], "no usage error touched the folder")
    }

    func testAnOptionGivenTwiceIsAUsageError() throws {
        try installFixture("seed-serialized.xml", as: "Seed")
        let cases: [([String], String)] = [
            (["--dir", documents.path, "list"], "survey: --dir is given twice"),
            (["list", "--doc", "Seed", "--doc", "Other"], "survey: --doc is given twice (“Seed” and “Other”): give it once"),
            (["list", "--format", "csv", "--format=json"], "survey: --format is given twice (“csv” and “json”): give it once"),
            (["export", "--output", root.appendingPathComponent("a.csv").path, "--output", root.appendingPathComponent("b.csv").path],
             "survey: --output is given twice (“\(root.appendingPathComponent("a.csv").path)” and “\(root.appendingPathComponent("b.csv").path)”): give it once"),
            (["--split-width", "90", "--split-width", "100"], "survey: --split-width is given twice (“90” and “100”): give it once"),
        ]
        for (arguments, message) in cases {
            let outcome = try survey(arguments)
            XCTAssertEqual(outcome.status, 2, "\(arguments)")
            XCTAssertEqual(outcome.stdout, "", "\(arguments)")
            XCTAssertEqual(outcome.stderr.split(separator: "\n").first.map(String.init).map { $0.hasPrefix(message) }, true,
                           "\(arguments): \(outcome.stderr)")
        }
        XCTAssertEqual(try survey("export", "--force", "--force", "--output", root.appendingPathComponent("x.csv").path).status, 0,
                       "a flag without a value may be repeated: it says the same thing twice")
    }

    func testARefusedDocForTheAppExitsOneBeforeTheTerminalStarts() throws {
        let outcome = try survey("--doc", "a/b")
        XCTAssertEqual(outcome, Outcome(status: 1, stdout: "", stderr: "survey: A document name cannot contain \"/\"\n"))
    }
}
