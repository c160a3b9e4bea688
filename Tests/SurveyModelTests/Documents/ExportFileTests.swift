import Foundation
import XCTest
@testable import SurveyValues
@testable import SurveyForms
@testable import SurveyStorage

/// `ExportFile.write`: atomic, and replacing only when asked.
final class ExportFileTests: TemporaryFolderTestCase {
    func testWritesANewFile() throws {
        let url = folder.appendingPathComponent("out.csv")
        try ExportFile.write(Data("a\r\n".utf8), to: url, replacing: false)
        XCTAssertEqual(try Data(contentsOf: url), Data("a\r\n".utf8))
        XCTAssertEqual(try folderContents(), ["out.csv"])
    }

    func testRefusesAnExistingFileUnlessReplacing() throws {
        let url = folder.appendingPathComponent("out.json")
        try Data("old".utf8).write(to: url)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: url.path)
        XCTAssertThrowsError(try ExportFile.write(Data("new".utf8), to: url, replacing: false)) { error in
            XCTAssertEqual(error as? ExportFile.AlreadyExists, ExportFile.AlreadyExists(path: url.path))
        }
        XCTAssertEqual(try Data(contentsOf: url), Data("old".utf8))
        try ExportFile.write(Data("new".utf8), to: url, replacing: true)
        XCTAssertEqual(try Data(contentsOf: url), Data("new".utf8))
        XCTAssertEqual(try permissions(of: url), 0o600)
        XCTAssertEqual(try folderContents(), ["out.json"])
    }

    func testADanglingLinkCountsAsExisting() throws {
        let url = folder.appendingPathComponent("link.csv")
        try FileManager.default.createSymbolicLink(atPath: url.path, withDestinationPath: folder.appendingPathComponent("nowhere").path)
        XCTAssertThrowsError(try ExportFile.write(Data("x".utf8), to: url, replacing: false))
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder.appendingPathComponent("nowhere").path))
    }

    func testAMissingFolderIsAPlainError() {
        let url = folder.appendingPathComponent("no/such/out.csv")
        XCTAssertThrowsError(try ExportFile.write(Data(), to: url, replacing: false)) { error in
            XCTAssertEqual(error as? DocumentError, DocumentError("Could not write \(url.path): No such file or directory"))
        }
    }
}
