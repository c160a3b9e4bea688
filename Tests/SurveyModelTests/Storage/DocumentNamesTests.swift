import Foundation
import XCTest
@testable import SurveyValues
@testable import SurveyForms
@testable import SurveyStorage

final class DocumentNamesTests: TemporaryFolderTestCase {
    private func touch(_ names: [String]) {
        for name in names {
            XCTAssertTrue(FileManager.default.createFile(atPath: folder.appendingPathComponent(name).path, contents: Data()))
        }
    }

    func testSortsCaseInsensitivelyWithNumbersInOrder() throws {
        touch(["Untitled 10.plist", "untitled 2.plist", "Untitled.plist", "beta.plist", "Alpha.plist",
               "Zeta 1.plist", "Ábaco.plist"])
        let names = try store.documentNames()
        XCTAssertEqual(names, ["Alpha", "Ábaco", "beta", "Untitled", "untitled 2", "Untitled 10", "Zeta 1"])
    }

    func testExcludesDotfilesTemporariesOtherSuffixesAndFolders() throws {
        touch(["Real.plist", ".Real.draft.plist", ".Real.plist.tmp-12-ab", ".hidden.plist", "notes.txt",
               "Upper.PLIST", "Real.plist.bak", ".plist"])
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("Folder.plist"),
                                                withIntermediateDirectories: false)
        XCTAssertEqual(try store.documentNames(), ["Real"])
    }

    func testSavedDocumentsAndDraftsList() throws {
        try store.save(SurveyDocument(), as: "One")
        try store.saveDraft(Record.sample(), for: "One", in: .standard)
        try store.save(SurveyDocument(), as: "Two")
        XCTAssertEqual(try store.documentNames(), ["One", "Two"])
    }

    func testMissingFolderIsAnError() {
        let missing = DocumentStore(folder: folder.appendingPathComponent("missing"))
        XCTAssertThrowsError(try missing.documentNames()) { error in
            XCTAssertTrue((error as? DocumentError)?.message.hasPrefix("Could not list the folder ") == true)
        }
    }

    func testURLForName() {
        XCTAssertEqual(store.url(for: "Café 2").path, folder.appendingPathComponent("Café 2.plist").path)
        XCTAssertEqual(store.draftURL(for: "Café 2").lastPathComponent, ".Café 2.draft.plist")
    }
}
