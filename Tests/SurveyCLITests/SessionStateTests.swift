import Foundation
import XCTest
import SurveyValues
import SurveyForms
import SurveyStorage

/// `docs rename` and `docs rm` keep the app's remembered document and records right.
final class SessionStateTests: CLITestCase {
    private func seed(_ change: (inout SessionMemory) -> Void) throws {
        var memory = SessionMemory(url: stateFile)
        change(&memory)
        try memory.save()
    }

    private var memory: SessionMemory { SessionMemory(url: stateFile) }

    func testRenameCarriesTheLastDocumentAndItsRecord() throws {
        try store.save(records(5), as: "Old")
        try store.save(records(1), as: "Other")
        try seed {
            $0.remember(document: "Other", record: 0, in: documents)
            $0.remember(document: "Old", record: 4, in: documents)
        }
        XCTAssertEqual(try survey("docs", "rename", "old", "New").status, 0)
        XCTAssertEqual(memory.lastDocument(in: documents), "New")
        XCTAssertEqual(memory.lastRecord(of: "New", in: documents), 4)
        XCTAssertNil(memory.lastRecord(of: "Old", in: documents))
        XCTAssertEqual(memory.lastRecord(of: "Other", in: documents), 0)
    }

    func testRmForgetsTheDocument() throws {
        try store.save(records(5), as: "Gone")
        try store.save(records(1), as: "Stays")
        try seed {
            $0.remember(document: "Stays", record: 0, in: documents)
            $0.remember(document: "Gone", record: 3, in: documents)
        }
        XCTAssertEqual(try survey("docs", "rm", "Gone").status, 0)
        XCTAssertNil(memory.lastDocument(in: documents))
        XCTAssertNil(memory.lastRecord(of: "Gone", in: documents))
        XCTAssertEqual(memory.lastRecord(of: "Stays", in: documents), 0)
    }

    func testRmOfAnotherDocumentKeepsTheLastOne() throws {
        try store.save(records(1), as: "A")
        try store.save(records(1), as: "B")
        try seed { $0.remember(document: "A", record: 0, in: documents) }
        XCTAssertEqual(try survey("docs", "rm", "B").status, 0)
        XCTAssertEqual(memory.lastDocument(in: documents), "A")
    }

    func testOtherFoldersAreLeftAlone() throws {
        let elsewhere = root.appendingPathComponent("elsewhere")
        try store.save(records(1), as: "A")
        try seed {
            $0.remember(document: "A", record: 0, in: documents)
            $0.remember(document: "A", record: 7, in: elsewhere)
        }
        XCTAssertEqual(try survey("docs", "rename", "A", "B").status, 0)
        XCTAssertEqual(memory.lastDocument(in: elsewhere), "A")
        XCTAssertEqual(memory.lastRecord(of: "A", in: elsewhere), 7)
    }

    func testNothingRememberedMeansNoStateFileIsWritten() throws {
        try store.save(records(1), as: "A")
        XCTAssertEqual(try survey("docs", "rename", "A", "B").status, 0)
        XCTAssertEqual(try survey("docs", "rm", "B").status, 0)
        XCTAssertFalse(FileManager.default.fileExists(atPath: stateFile.path))
    }

    func testAGarbageStateFileIsNotAnError() throws {
        try FileManager.default.createDirectory(at: stateFile.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data("garbage".utf8).write(to: stateFile)
        try store.save(records(1), as: "A")
        XCTAssertEqual(try survey("docs", "rename", "A", "B"),
                       Outcome(status: 0, stdout: "Renamed “A” to “B”\n", stderr: ""))
    }
}
