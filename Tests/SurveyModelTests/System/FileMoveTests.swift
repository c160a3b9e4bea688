import Foundation
import XCTest
@testable import SurveyValues
@testable import SurveyForms
@testable import SurveyStorage

final class FileMoveTests: TemporaryFolderTestCase {
    private func path(_ name: String) -> String { folder.appendingPathComponent(name).path }

    func testMovesToAFreeName() throws {
        try Data("a".utf8).write(to: URL(fileURLWithPath: path("a")))
        try FileMove.withoutReplacing(from: path("a"), to: path("b"), in: .live)
        XCTAssertEqual(try folderContents(), ["b"])
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path("b"))), Data("a".utf8))
    }

    func testNeverReplacesAnExistingFile() throws {
        try Data("a".utf8).write(to: URL(fileURLWithPath: path("a")))
        try Data("b".utf8).write(to: URL(fileURLWithPath: path("b")))
        XCTAssertThrowsError(try FileMove.withoutReplacing(from: path("a"), to: path("b"), in: .live)) { error in
            XCTAssertEqual((error as? SystemError)?.code, EEXIST)
        }
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path("b"))), Data("b".utf8))
        XCTAssertEqual(try folderContents(), ["a", "b"])
    }

    /// The fallbacks for file systems without RENAME_NOREPLACE or hard links keep the promise too.
    func testFallbacksMoveAndNeverReplace() throws {
        let strategies: [(String, String) throws -> Void] = [
            { try FileMove.linkThenUnlink(from: $0, to: $1, in: .live) },
            { try FileMove.checkThenRename(from: $0, to: $1, in: .live) },
        ]
        for (index, move) in strategies.enumerated() {
            try Data("a".utf8).write(to: URL(fileURLWithPath: path("a\(index)")))
            try Data("b".utf8).write(to: URL(fileURLWithPath: path("b\(index)")))
            XCTAssertThrowsError(try move(path("a\(index)"), path("b\(index)"))) { error in
                XCTAssertEqual((error as? SystemError)?.code, EEXIST)
            }
            XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path("b\(index)"))), Data("b".utf8))
            try move(path("a\(index)"), path("c\(index)"))
            XCTAssertFalse(FileManager.default.fileExists(atPath: path("a\(index)")))
            XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path("c\(index)"))), Data("a".utf8))
        }
    }

    func testMissingSourceIsENOENT() {
        XCTAssertThrowsError(try FileMove.withoutReplacing(from: path("none"), to: path("b"), in: .live)) { error in
            XCTAssertEqual((error as? SystemError)?.code, ENOENT)
        }
    }

    func testAtomicCreateRefusesAnExistingFileAndLeavesNoTemporary() throws {
        let url = URL(fileURLWithPath: path("Doc.plist"))
        try Data("old".utf8).write(to: url)
        XCTAssertThrowsError(try AtomicFile.create(Data("new".utf8), at: url, in: .live)) { error in
            XCTAssertEqual((error as? SystemError)?.code, EEXIST)
        }
        XCTAssertEqual(try Data(contentsOf: url), Data("old".utf8))
        XCTAssertEqual(try folderContents(), ["Doc.plist"])
        try AtomicFile.create(Data("fresh".utf8), at: URL(fileURLWithPath: path("New.plist")), in: .live)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path("New.plist"))), Data("fresh".utf8))
    }
}
