import Foundation
import XCTest
@testable import SurveyValues
@testable import SurveyForms
@testable import SurveyStorage

final class AtomicSaveTests: TemporaryFolderTestCase {
    func testSaveReplacesTargetAndLeavesNoTemporaryFiles() throws {
        try store.save(SurveyDocument(records: [Record.sample(first: "Old")]), as: "Doc")
        try store.save(SurveyDocument(records: [Record.sample(first: "New")]), as: "Doc")
        XCTAssertEqual(try folderContents(), ["Doc.plist"])
        XCTAssertEqual(try store.load("Doc").get().records.first?.values["firstName"], .string("New"))
    }

    func testExistingPermissionsAreKept() throws {
        let url = store.url(for: "Private")
        try Data().write(to: url)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: url.path)
        try store.save(SurveyDocument(records: [Record.sample()]), as: "Private")
        XCTAssertEqual(try permissions(of: url), 0o600)
        try FileManager.default.setAttributes([.posixPermissions: 0o640], ofItemAtPath: url.path)
        try store.save(SurveyDocument(), as: "Private")
        XCTAssertEqual(try permissions(of: url), 0o640)
    }

    func testNewFileIsReadableByOwner() throws {
        try store.save(SurveyDocument(), as: "Fresh")
        XCTAssertEqual(try permissions(of: store.url(for: "Fresh")) & 0o600, 0o600)
    }

    func testSavingThroughSymlinkUpdatesTheLinkedFile() throws {
        let real = folder.appendingPathComponent("real-target.data")
        try Data().write(to: real)
        try FileManager.default.createSymbolicLink(atPath: store.url(for: "Linked").path, withDestinationPath: real.path)
        try store.save(SurveyDocument(records: [Record.sample()]), as: "Linked")
        let attributes = try FileManager.default.attributesOfItem(atPath: store.url(for: "Linked").path)
        XCTAssertEqual(attributes[.type] as? FileAttributeType, .typeSymbolicLink)
        XCTAssertEqual(try SurveyDocument(propertyListData: Data(contentsOf: real)).records, [Record.sample()])
    }

    func testFailedSaveLeavesOldFileAndNoTemporaryFiles() throws {
        try store.save(SurveyDocument(records: [Record.sample()]), as: "Doc")
        let before = try Data(contentsOf: store.url(for: "Doc"))
        // A folder where the file should be makes the final rename fail after the temp file exists.
        try FileManager.default.createDirectory(at: store.url(for: "Blocked"), withIntermediateDirectories: false)
        try Data("x".utf8).write(to: store.url(for: "Blocked").appendingPathComponent("inside"))
        XCTAssertThrowsError(try store.save(SurveyDocument(), as: "Blocked")) { error in
            XCTAssertTrue((error as? DocumentError)?.message.hasPrefix("Could not save Blocked.plist: ") == true, "\(error)")
        }
        XCTAssertEqual(try folderContents(), ["Blocked.plist", "Doc.plist"])
        XCTAssertEqual(try Data(contentsOf: store.url(for: "Doc")), before)
    }

    func testSaveIntoMissingFolderFailsCleanly() {
        let missing = DocumentStore(folder: folder.appendingPathComponent("missing"))
        XCTAssertThrowsError(try missing.save(SurveyDocument(), as: "Doc")) { error in
            XCTAssertTrue(error is DocumentError)
        }
    }

    func testTemporaryNamesAreHiddenAndNeverEndInPlist() {
        for target in ["Doc.plist", ".Doc.draft.plist"] {
            let name = AtomicFile.temporaryName(for: target)
            XCTAssertTrue(name.hasPrefix("."), name)
            XCTAssertFalse(name.hasPrefix(".."), name)
            XCTAssertFalse(name.hasSuffix(".plist"), name)
            XCTAssertTrue(name.contains(".tmp-\(ProcessInfo.processInfo.processIdentifier)-"), name)
        }
    }
}
