import Foundation
import XCTest
import SurveyValues
import SurveyForms
import SurveyStorage

final class AddCommandTests: CLITestCase {
    func testAppendsARecordAndSaysWhichSurveyItIs() throws {
        try installFixture("seed-serialized.xml", as: "Seed")
        let outcome = try survey("add", "--first", "Zoë", "--last", "O'Brien", "--address", "1 Rue, Paris",
                                 "--phone", "+33 1", "--age", " 61 ")
        XCTAssertEqual(outcome, Outcome(status: 0, stdout: "Added survey 3: O'Brien, Zoë\n", stderr: ""))
        let records = try recordsCheckingIDs("Seed")   // the seed's two records get theirs at this save
        XCTAssertEqual(records.count, 3)
        XCTAssertEqual(records[2], Record(["firstName": .string("Zoë"), "lastName": .string("O'Brien"),
                                           "address": .string("1 Rue, Paris"), "phone": .string("+33 1"),
                                           "age": .integer(61)]))
        XCTAssertEqual(try folderContents(), ["Seed.plist"], "no temporary file left")
    }

    func testOmittedAnswersAreEmptyTextAndNoAge() throws {
        try store.save(SurveyDocument(), as: "Field")
        XCTAssertEqual(try survey("add", "--first", "Ana", "--last", "").stdout, "Added survey 1: Ana\n")
        XCTAssertEqual(try recordsCheckingIDs("Field"), [Record([
            "firstName": .string("Ana"), "lastName": .string(""), "address": .string(""), "phone": .string(""),
        ])])
    }

    func testEveryRefusalIsPrintedAndNothingIsWritten() throws {
        try installFixture("seed-serialized.xml", as: "Seed")
        let before = try fileBytes(store.url(for: "Seed"))
        let cases: [([String], [String])] = [
            (["--age", "151"], ["Age must be a whole number from 0 to 150, or empty"]),
            (["--age", "abc"], ["Age must be a whole number from 0 to 150, or empty"]),
            (["--phone", "555\u{1B}[2J", "--age", "4.5"],
             ["Phone cannot hold control characters", "Age must be a whole number from 0 to 150, or empty"]),
            (["--address", String(repeating: "x", count: 201), "--phone", "5\u{1}"],
             ["Address is limited to 200 characters", "Phone cannot hold control characters"]),
        ]
        for (extra, reasons) in cases {
            let outcome = try survey(["add", "--first", "Ana", "--last", "Lima"] + extra)
            XCTAssertEqual(outcome.status, 1, "\(extra)")
            XCTAssertEqual(outcome.stdout, "", "\(extra)")
            XCTAssertEqual(outcome.stderr, reasons.map { "survey: \($0)\n" }.joined(), "\(extra)")
        }
        XCTAssertEqual(try fileBytes(store.url(for: "Seed")), before)
        XCTAssertEqual(try folderContents(), ["Seed.plist"])
    }

    func testAnEmptySurveyIsRefusedAsTheFormRefusesIt() throws {
        try store.save(SurveyDocument(), as: "Field")
        XCTAssertEqual(try survey("add", "--first", "", "--last", ""),
                       Outcome(status: 1, stdout: "", stderr: "survey: Nothing to add: every answer is empty\n"))
        // Blanks are no answer: answers are stored trimmed, as the form stores them.
        XCTAssertEqual(try survey("add", "--first", "   ", "--last", "", "--address", "\t\n", "--age", " "),
                       Outcome(status: 1, stdout: "", stderr: "survey: Nothing to add: every answer is empty\n"))
        XCTAssertEqual(try store.load("Field").get().records, [])
    }

    func testAnswersAreStoredTrimmed() throws {
        try store.save(SurveyDocument(), as: "Field")
        XCTAssertEqual(try survey("add", "--first", "  Ana Maria ", "--last", "\tLima\n", "--phone", " 555 1234 ").stdout,
                       "Added survey 1: Lima, Ana Maria\n")
        XCTAssertEqual(try recordsCheckingIDs("Field"), [Record([
            "firstName": .string("Ana Maria"), "lastName": .string("Lima"), "address": .string(""),
            "phone": .string("555 1234"),
        ])])
    }

    func testARepeatedAnswerIsAUsageError() throws {
        try store.save(SurveyDocument(), as: "Field")
        for (arguments, message) in [
            (["--first", "A", "--last", "B", "--age", "3", "--age", "4"], "survey: --age is given twice (“3” and “4”): give it once"),
            (["--first", "A", "--first=B", "--last", "C"], "survey: --first is given twice (“A” and “B”): give it once"),
        ] {
            let outcome = try survey(["add"] + arguments)
            XCTAssertEqual(outcome.status, 2, "\(arguments)")
            XCTAssertEqual(outcome.stderr.split(separator: "\n").first.map(String.init), message, "\(arguments)")
        }
        XCTAssertEqual(try store.load("Field").get().records, [])
    }

    func testDocNamesTheDocumentAndCreatesItWhenNew() throws {
        try store.save(SurveyDocument(), as: "Other")
        XCTAssertEqual(try survey("add", "--doc", " Market Day.plist ", "--first", "Ana", "--last", "Lima").stdout,
                       "Added survey 1: Lima, Ana\n")
        XCTAssertEqual(try store.documentNames(), ["Market Day", "Other"])
        XCTAssertEqual(try survey("add", "--doc", "market day", "--first", "Bo", "--last", "Ng").stdout,
                       "Added survey 2: Ng, Bo\n")
        XCTAssertEqual(try store.load("Market Day").get().records.count, 2)
        XCTAssertEqual(try survey("add", "--doc", ".hidden", "--first", "A", "--last", "B"),
                       Outcome(status: 1, stdout: "", stderr: "survey: A document name cannot start with \".\"\n"))
        XCTAssertEqual(try store.documentNames(), ["Market Day", "Other"])
    }

    func testWithoutDocAndWithoutDocumentsNothingIsCreated() throws {
        XCTAssertEqual(try survey("add", "--first", "Ana", "--last", "Lima"), Outcome(
            status: 1, stdout: "",
            stderr: "survey: There are no documents in \(documents.path): name one with --doc NAME to create it\n"))
        XCTAssertEqual(try folderContents(), [])
    }

    func testWithoutDocTheRememberedDocumentGetsTheRecord() throws {
        try store.save(SurveyDocument(), as: "A")
        try store.save(SurveyDocument(), as: "B")
        var memory = SessionMemory(url: stateFile)
        memory.remember(document: "B", record: nil, in: documents)
        try memory.save()
        XCTAssertEqual(try survey("add", "--first", "Ana", "--last", "Lima").status, 0)
        XCTAssertEqual(try store.load("B").get().records.count, 1)
        XCTAssertEqual(try store.load("A").get().records.count, 0)
    }

    func testUsageErrors() throws {
        let cases: [([String], String)] = [
            (["add", "--first", "Ana"],
             "survey: survey add needs --set NAME=VALUE for each answer, or --first and --last: survey add [--doc NAME] [--set NAME=VALUE]... [--first X --last Y] [--address A] [--phone P] [--age N] [--incomplete]"),
            (["add"],
             "survey: survey add needs --set NAME=VALUE for each answer, or --first and --last: survey add [--doc NAME] [--set NAME=VALUE]... [--first X --last Y] [--address A] [--phone P] [--age N] [--incomplete]"),
            (["add", "--first", "A", "--last", "B", "age=3"],
             "survey: unexpected argument “age=3”: an answer is given as --set age=3"),
            (["add", "--first", "A", "--last", "B", "Lima"],
             "survey: unexpected argument “Lima”: survey add [--doc NAME] [--set NAME=VALUE]... [--first X --last Y] [--address A] [--phone P] [--age N] [--incomplete]"),
            (["add", "--set", "age"], "survey: --set needs NAME=VALUE, got “age”"),
            (["add", "--set", "=3"], "survey: --set needs a question name before “=”, got “=3”"),
            (["add", "--set", "age=3", "--set=age=4"],
             "survey: age is answered twice (--set age “3” and --set age “4”): give it once"),
            (["add", "--first", "Ana", "--last", "Lima", "--set", "firstName=Bo"],
             "survey: firstName is answered twice (--first “Ana” and --set firstName “Bo”): give it once"),
            (["list", "--set", "age=3"], "survey: --set only works with survey add"),
            (["add", "--first", "A", "--last", "B", "--format", "csv"],
             "survey: --format only works with survey list, export, import, deleted, diff, stats, entities, conflicts and history"),
            (["add", "--first"], "survey: --first needs a value"),
        ]
        for (arguments, message) in cases {
            let outcome = try survey(arguments)
            XCTAssertEqual(outcome.status, 2, "\(arguments)")
            XCTAssertEqual(outcome.stderr.split(separator: "\n").first.map(String.init), message, "\(arguments)")
        }
        XCTAssertEqual(try folderContents(), [])
    }
}
