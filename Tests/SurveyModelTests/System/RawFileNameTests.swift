import Foundation
import XCTest
import SurveyTestSupport
@testable import SurveyValues
@testable import SurveyForms
@testable import SurveyStorage

/// A document whose file name is not valid UTF-8 ("caf\xE9.plist", written by an old tool in
/// Latin-1) is listed under its name with U+FFFD, opened from its own file, and can be
/// renamed to a valid name; saving under the shown name would make a second file, so it is
/// refused until it is renamed.
final class RawFileNameTests: TemporaryFolderTestCase {
    private let latin1 = Array("caf".utf8) + [0xE9] + Array(".plist".utf8)
    private let shown = "caf\u{FFFD}"

    override func setUpWithError() throws {
        try super.setUpWithError()
        let two = try SurveyDocument(records: [Record.sample(), Record.sample(first: "B")]).propertyListData()
        try RawFileNames.create(latin1, in: folder, contents: two)
    }

    func testItIsListedAndLoadsFromItsOwnFile() throws {
        XCTAssertEqual(try store.documentNames(), [shown])
        XCTAssertTrue(store.exists(shown))
        XCTAssertEqual(try store.load(shown).get().records.count, 2)
        XCTAssertEqual(store.summary(of: shown)?.recordCount, 2)
        XCTAssertNotNil(store.fingerprint(of: shown))
    }

    func testPrepareOpensItInsteadOfCreatingUntitled() throws {
        XCTAssertEqual(try store.prepare(requested: nil), shown)
        XCTAssertEqual(RawFileNames.entries(of: folder), [latin1])
    }

    func testRenameGivesTheFileAValidName() throws {
        XCTAssertEqual(try store.rename(shown, to: "café", at: Date()), "café")
        XCTAssertEqual(RawFileNames.entries(of: folder), [Array("café.plist".utf8)])
        XCTAssertEqual(try store.load("café").get().records.count, 2)
    }

    func testSavingUnderTheShownNameIsRefusedAndMakesNoSecondFile() throws {
        XCTAssertThrowsError(try store.save(SurveyDocument(), as: shown)) { error in
            XCTAssertTrue("\(error)".contains("rename"), "\(error)")
        }
        XCTAssertThrowsError(try store.create(named: shown))
        XCTAssertEqual(RawFileNames.entries(of: folder), [latin1])
        XCTAssertEqual(try store.load(shown).get().records.count, 2)
    }

    func testDeleteMovesItToTheTrashUnderItsShownName() throws {
        try store.delete(shown, at: Date())
        XCTAssertEqual(RawFileNames.entries(of: folder), [Array(".trash".utf8)])
        XCTAssertEqual(store.trash().map(\.name), [shown])
        XCTAssertEqual(try store.restore(at: Date()), shown)
        XCTAssertEqual(try store.load(shown).get().records.count, 2)
    }
}
