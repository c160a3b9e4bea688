import Foundation
import XCTest
import SurveyTestSupport
import SurveyValues
import SurveyForms
import SurveyStorage
@testable import SurveyUI
@testable import SurveyRuntime

/// The UI core driven exactly as the terminal drives it, on a real folder: what reaches the disk.
final class ProgramTests: XCTestCase {
    var folder: URL!
    var store: DocumentStore!
    var memoryURL: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("survey-program-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        store = DocumentStore(folder: folder)
        memoryURL = folder.appendingPathComponent(".state-for-test/state.plist")
        try store.save(SurveyDocument(records: sampleRecords()), as: "Seed")
    }

    override func tearDownWithError() throws {
        try? chattr("-i", folder)
        try? FileManager.default.removeItem(at: folder)
    }

    private func chattr(_ flag: String, _ url: URL) throws {
        XCTAssertEqual(try ChildProcess.run(["chattr", flag, url.path]).status, 0, "chattr \(flag) failed")
    }

    private func launch(_ name: String = "Seed", width: Int = 120, height: Int = 40) -> Program {
        var p = Program(store: store, documentName: name, size: Size(width: width, height: height),
                        memory: SessionMemory(url: memoryURL))
        p.send(.system(.resized(Size(width: width, height: height))))
        return p
    }

    private func onDisk(_ name: String) throws -> SurveyDocument {
        try store.load(name).get()
    }

    func testCommittedFieldIsOnDiskAtOnce() throws {
        var p = launch()
        p.press(.enter, .enter)
        p.type("ny")
        p.press(.tab)
        XCTAssertEqual(try onDisk("Seed").records[0].listTitle, "Smith, Johnny")
        XCTAssertEqual(p.state.editing?.entry, 1, "still editing the next field")
    }

    func testAddWritesTheRecordAndEmptiesTheDraftFile() throws {
        var p = launch()
        p.press(.control("n"))
        p.type("Ada")
        XCTAssertFalse(FileManager.default.fileExists(atPath: store.draftURL(for: "Seed").path),
                       "nothing committed yet: no draft file")
        p.press(.tab)
        XCTAssertEqual(store.loadDraft(for: "Seed").listTitle, "Ada", "the draft survives a crash from here")
        p.type("Lovelace")
        p.press(.enter, .escape, .backTab, .backTab, .backTab)
        XCTAssertEqual(p.state.formItem, .add)
        p.press(.enter)
        let records = try onDisk("Seed").records
        XCTAssertEqual(records.count, 3)
        XCTAssertEqual(records[2].listTitle, "Lovelace, Ada")
        XCTAssertTrue(store.loadDraft(for: "Seed").isBlank(in: .standard))
        XCTAssertFalse(FileManager.default.fileExists(atPath: store.draftURL(for: "Seed").path))
    }

    func testDraftSurvivesARestart() throws {
        var p = launch()
        p.press(.control("n"))
        p.type("Grace")
        p.press(.enter, .control("q"))
        XCTAssertTrue(p.isFinished)
        var again = launch()
        again.press(.enter, .control("n"))
        XCTAssertEqual(again.state.shownForm.fieldText(0), "Grace")
    }

    func testFailedSaveLosesNothingTyped() throws {
        var p = launch()
        p.press(.control("n"))
        p.type("Ada")
        p.press(.enter, .escape, .up, .backTab)
        // The folder turns unwritable. Tests run as root, who ignores permissions, so use the
        // immutable attribute, which stops root too.
        try chattr("+i", folder)
        defer { try? chattr("-i", folder) }
        p.press(.enter)
        XCTAssertEqual(p.state.recordCount, 2, "the add is undone on screen")
        XCTAssertEqual(p.state.shown, .draft)
        XCTAssertEqual(p.state.draft.listTitle, "Ada", "the typed text is still on the form")
        XCTAssertEqual(p.state.status?.kind, .error)
        // The draft then fails to save the same way; the message still names the failed Add.
        XCTAssertTrue(p.state.status?.text.hasPrefix("Could not save Seed") ?? false, p.state.status?.text ?? "")
    }

    func testRefusedAgeNeverReachesTheDisk() throws {
        var p = launch()
        p.press(.enter, .down, .down, .down, .down, .enter)
        p.type("x")
        p.press(.enter, .tab, .control("q"))
        XCTAssertEqual(try onDisk("Seed").records[0].values["age"], .integer(20))
    }

    func testUnreadableFileIsNeverWritten() throws {
        let url = store.url(for: "Broken")
        let garbage = Data("this is not a plist <<<".utf8)
        try garbage.write(to: url)
        var p = launch("Broken")
        XCTAssertNotNil(p.state.session.loadError)
        p.pressUnbound(.enter, .character("x"), .enter, .control("n"), .tab, .enter)
        p.press(.control("q"))
        XCTAssertEqual(try Data(contentsOf: url), garbage)
    }

    func testForbiddenCharactersAreReplacedOnSaveWithANotice() throws {
        try store.save(SurveyDocument(records: [record("Bad\u{1}Name", "X")]), as: "Ctl")
        // save() itself cleans; write the raw record through a binary plist instead.
        let raw: [Any] = [["firstName": "Bad\u{1}Name", "lastName": "X\u{2}"]]
        let data = try PropertyListSerialization.data(fromPropertyList: raw, format: .binary, options: 0)
        try data.write(to: store.url(for: "Ctl"))
        var p = launch("Ctl")
        p.press(.enter, .down, .down, .enter)
        p.type("Somewhere")
        p.press(.enter)
        XCTAssertEqual(p.state.status?.text, "Replaced 2 control characters XML cannot hold with U+FFFD")
        XCTAssertEqual(try onDisk("Ctl").records[0].listTitle, "X\u{FFFD}, Bad\u{FFFD}Name")
        p.press(.up)                                             // back up to Address, editing
        p.type("!")
        p.press(.enter)
        XCTAssertNil(p.state.status, "the notice is shown once")
    }

    func testAChangeByAnotherProgramIsKeptAndTheEditAddedToIt() throws {
        var p = launch()
        p.press(.enter, .enter)
        p.type("ny")
        // Meanwhile `survey add` (or a second survey) appends a record to the same file.
        var outside = try onDisk("Seed")
        outside.records.append(record("Grace", "Hopper"))
        try store.save(outside, as: "Seed")
        p.press(.enter)
        XCTAssertEqual(try onDisk("Seed").records.map(\.listTitle),
                       ["Smith, Johnny", "Jones, Doris", "Hopper, Grace"], "both changes are on disk")
        XCTAssertEqual(p.state.recordCount, 3, "and shown")
        XCTAssertEqual(p.state.shown, .record(0))
        XCTAssertEqual(p.state.editing?.entry, 1, "heads-down on to Last name")
        XCTAssertEqual(p.state.status?.text, "“Seed” was also changed elsewhere: your change was added to that version")
    }

    func testAnAddAfterAnOutsideChangeIsNotLost() throws {
        var p = launch()
        p.press(.control("n"))
        p.type("Ada")
        p.press(.enter, .escape, .up, .backTab)
        try store.save(SurveyDocument(records: [record("Only", "Outside")]), as: "Seed")
        p.press(.enter)
        XCTAssertEqual(try onDisk("Seed").records.map(\.listTitle), ["Outside, Only", "Ada"])
        XCTAssertEqual(p.state.shown, .record(1), "the added record shows")
        XCTAssertFalse(FileManager.default.fileExists(atPath: store.draftURL(for: "Seed").path), "the New form was sent")
    }

    func testAnEditFollowsItsRecordWhenAnotherProgramRemovesOneBeforeIt() throws {
        var p = launch()
        p.press(.down, .enter, .down, .down, .down, .enter)      // Doris's phone
        p.type("9")
        try store.save(SurveyDocument(records: [try onDisk("Seed").records[1]]), as: "Seed")  // John removed
        p.press(.enter)
        XCTAssertEqual(p.state.shown, .record(0), "Doris is now the first record")
        XCTAssertEqual(try onDisk("Seed").records.map { $0.values["phone"] }, [.string("555-12349")])
    }

    func testAnEditOfARecordRemovedElsewhereIsNotAppliedToAnother() throws {
        var p = launch()
        p.press(.enter, .down, .down, .down, .enter)             // John's phone
        p.type("EXTRA")
        try store.save(SurveyDocument(records: [try onDisk("Seed").records[1]]), as: "Seed")  // John removed
        p.press(.enter)
        XCTAssertNil(p.state.editing)
        XCTAssertEqual(p.state.status?.text,
                       "“Seed” was changed elsewhere and that record is gone: “555-1234EXTRA” was not saved")
        p.press(.enter, .enter)
        XCTAssertEqual(try onDisk("Seed").records.map { $0.values["phone"] }, [.string("555-1234")], "Doris untouched")
    }

    /// Two copies of survey on one document, editing different fields of the same record.
    func testTwoInstancesEditingDifferentFieldsOfOneRecordBothLand() throws {
        var a = launch(), b = launch()
        a.press(.enter, .down, .down, .down, .enter)             // A: John's phone
        a.type("0")
        a.press(.enter, .escape, .up)                            // kept; back on the phone
        b.press(.enter, .down, .down, .enter)                    // B: John's address, still shown as it was
        b.type(" Apt 2")
        b.press(.enter, .escape, .up)
        let john = try onDisk("Seed").records[0]
        XCTAssertEqual(john.values["phone"], .string("555-12340"))
        XCTAssertEqual(john.values["address"], .string("123 Any St. Apt 2"))
        XCTAssertNotNil(john.instanceID, "saved records carry their id")
        XCTAssertEqual(b.state.records[0], john, "B shows the merged record")
        // A real clash: both change the phone. B's typed text is quoted and not written.
        a.press(.enter)                                          // A: the phone again
        a.type("1")
        a.press(.enter)
        b.press(.down, .enter)
        b.type("7")
        b.press(.enter)
        XCTAssertEqual(try onDisk("Seed").records[0].values["phone"], .string("555-123401"))
        XCTAssertEqual(b.state.editing?.text, "555-123407", "B's entry is back on the form")
        XCTAssertEqual(b.state.status?.text,
                       "Phone also changed elsewhere: re-read “Seed”. Your entry is back on the form: save it again to replace theirs")
    }

    func testAddIntoADocumentRemovedElsewhereKeepsTheNewFormOnDisk() throws {
        var p = launch()
        p.press(.control("n"))
        p.type("Ann")
        p.press(.enter, .escape, .up, .backTab)
        try FileManager.default.removeItem(at: store.url(for: "Seed"))
        p.press(.enter)
        XCTAssertEqual(store.loadDraft(for: "Seed").listTitle, "Ann", "the New form is still on disk")
        XCTAssertEqual(p.state.recordCount, 2, "the add did not happen")
        guard case .saveAs = p.state.popover else { return XCTFail("offers a name") }
    }

    func testTypingInATooSmallTerminalChangesNothing() {
        var p = launch()
        p.press(.enter, .enter)
        p.send(.system(.resized(Size(width: 10, height: 3))))
        p.typeUnbound("blind")
        p.pressUnbound(.enter)
        p.send(.system(.resized(Size(width: 120, height: 40))))
        XCTAssertEqual(p.state.editing?.text, "John")
    }
}
