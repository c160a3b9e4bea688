import Foundation
import XCTest
import SurveyTestSupport
import SurveyValues
import SurveyForms
import SurveyStorage
@testable import SurveyUI
@testable import SurveyRuntime

/// Every commit in the app goes to `.NAME.journal` at once and reaches the `.plist` in the
/// background. Driven on a real folder with the threshold at 0, as the app runs: the journal holds every committed change before the next
/// key, a crash before the `.plist` catches up loses nothing, and another program's change
/// is merged, never written over.
final class JournalProgramTests: XCTestCase {
    var folder: URL!
    var store: DocumentStore!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("survey-jprogram-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        store = DocumentStore(folder: folder)
        var doc = SurveyDocument(records: sampleRecords())
        doc.assignMissingInstanceIDs()
        try store.save(doc, as: "Site")
    }

    override func tearDownWithError() throws {
        _ = try? ChildProcess.run(["chattr", "-i", folder.path])
        try? FileManager.default.removeItem(at: folder)
    }

    private func launch() -> Program {
        var p = Program(store: store, documentName: "Site", size: Size(width: 120, height: 40), journalThreshold: 0)
        p.send(.system(.resized(Size(width: 120, height: 40))))
        return p
    }

    private func onDisk() throws -> SurveyDocument { try store.load("Site").get() }
    private var journalURL: URL { store.journalURL(for: "Site") }

    /// John's phone gets "9" added and is kept (Enter); the edit is then on disk in the journal.
    private func editJohnsPhone(_ p: inout Program, to digit: String = "9") {
        p.press(.enter, .down, .down, .down, .enter)
        p.type(digit)
        p.press(.enter, .escape)
    }

    func testACommitIsInTheJournalAtOnceAndThePlistCatchesUpInTheBackground() throws {
        var p = launch()
        p.files.writer.pause()
        editJohnsPhone(&p)
        XCTAssertNil(p.state.status?.kind == .error ? p.state.status : nil)
        let entries = try XCTUnwrap(DocumentJournal.entries(at: journalURL), "the journal exists at once")
        XCTAssertEqual(entries.count, 1)
        guard case .put(0, let record) = entries[0] else { return XCTFail("\(entries)") }
        XCTAssertEqual(record.values["phone"], .string("555-12349"))
        XCTAssertEqual(try onDisk().records[0].values["phone"], .string("555-1234"), "the .plist has not caught up yet")
        p.files.writer.resume()
        p.finishBackgroundWork()
        XCTAssertEqual(try onDisk().records[0].values["phone"], .string("555-12349"))
        XCTAssertEqual(DocumentJournal.entries(at: journalURL), [], "the journal is emptied once the file holds it")
    }

    /// Every commit goes through the journal: it is kept open (and locked) once emptied, so
    /// the next commit is one append, and goes when the document is closed.
    func testTheEmptiedJournalIsKeptForTheNextCommitAndGoesWhenTheDocumentCloses() throws {
        var p = launch()
        editJohnsPhone(&p)
        p.finishBackgroundWork()
        XCTAssertEqual(DocumentJournal.entries(at: journalURL), [], "kept, empty")
        XCTAssertTrue(DocumentJournal.isHeldElsewhere(at: journalURL), "and still locked by this session")
        p.files.writer.pause()
        p.press(.up, .up, .enter)                                // from Age up to Address
        p.type("!")
        p.press(.enter, .escape)
        let entries = try XCTUnwrap(DocumentJournal.entries(at: journalURL))
        XCTAssertEqual(entries.count, 1, "only the new change: \(entries)")
        p.files.writer.resume()
        p.press(.control("q"))
        XCTAssertTrue(p.isFinished)
        XCTAssertEqual(try onDisk().records[0].values["address"], .string("123 Any St.!"))
        XCTAssertFalse(FileManager.default.fileExists(atPath: journalURL.path), "closing the document removes it")
    }

    /// The emptied journal cannot be cut back (a fault through the file-system seam): it is
    /// removed, and the next commit opens a new one and lands as always.
    func testAJournalThatCannotBeEmptiedIsRemovedAndTheNextCommitStillLands() throws {
        let failing = DocumentStore(folder: folder, fileSystem: .failing { operation, _ in operation == .truncate ? EIO : nil })
        var p = Program(store: failing, documentName: "Site", size: Size(width: 120, height: 40), journalThreshold: 0)
        p.send(.system(.resized(Size(width: 120, height: 40))))
        editJohnsPhone(&p)
        p.finishBackgroundWork()
        XCTAssertFalse(FileManager.default.fileExists(atPath: journalURL.path), "removed, not left holding the change")
        XCTAssertEqual(try onDisk().records[0].values["phone"], .string("555-12349"))
        p.files.writer.pause()
        p.press(.up, .up, .enter)
        p.type("!")
        p.press(.enter, .escape)
        XCTAssertEqual(DocumentJournal.entries(at: journalURL)?.count, 1, "a new journal holds the next change")
        XCTAssertNotEqual(p.state.status?.kind, .error, p.state.status?.text ?? "")
        p.files.writer.resume()
        p.finishBackgroundWork()
        XCTAssertEqual(try onDisk().records[0].values["address"], .string("123 Any St.!"))
    }

    func testACrashBeforeThePlistCaughtUpLosesNothing() throws {
        do {
            var p = launch()
            p.files.writer.pause()
            editJohnsPhone(&p)
            p.press(.control("n"))
            p.type("Grace")
            p.press(.enter, .escape, .backTab, .backTab)   // kept; up to First name, round to [ Add ]
            XCTAssertEqual(p.state.formItem, .add)
            p.press(.enter)
            XCTAssertEqual(p.state.recordCount, 3, p.state.status?.text ?? "")
            XCTAssertEqual(try onDisk().records.count, 2, "not in the .plist yet")
            // The process dies here: no quit, no write; its journal lock goes with it.
        }
        let again = launch()
        XCTAssertEqual(again.state.status?.text, "Put back 2 changes an interrupted session had saved only in its journal")
        let disk = try onDisk()
        XCTAssertEqual(disk.records.map(\.listTitle), ["Smith, John", "Jones, Doris", "Grace"])
        XCTAssertEqual(disk.records[0].values["phone"], .string("555-12349"))
        XCTAssertEqual(again.state.records, disk.records)
        XCTAssertFalse(FileManager.default.fileExists(atPath: journalURL.path))
    }

    func testAnotherProgramsChangeWhileThePlistCatchesUpIsMergedNotWrittenOver() throws {
        var p = launch()
        p.files.writer.pause()
        editJohnsPhone(&p)
        var outside = try onDisk()                                   // `survey add` meanwhile
        outside.records.append(record("Eve", "Outside"))
        try store.save(outside, as: "Site")
        p.files.writer.resume()
        p.finishBackgroundWork()
        let disk = try onDisk()
        XCTAssertEqual(disk.records.map(\.listTitle), ["Smith, John", "Jones, Doris", "Outside, Eve"])
        XCTAssertEqual(disk.records[0].values["phone"], .string("555-12349"), "ours is in")
        XCTAssertEqual(p.state.records.map(\.listTitle), ["Smith, John", "Jones, Doris", "Outside, Eve"], "and shown")
        XCTAssertEqual(p.state.status?.text, "“Site” was also changed elsewhere: your changes were added to that version")
        XCTAssertFalse(DocumentJournal.holdsEntries(at: journalURL))
    }

    func testTheSameAnswerChangedElsewhereKeepsOursAndTheirsAsARecoveredSurvey() throws {
        var p = launch()
        p.files.writer.pause()
        editJohnsPhone(&p)
        var outside = try onDisk()
        outside.records[0].values["phone"] = .string("000")
        try store.save(outside, as: "Site")
        p.files.writer.resume()
        p.finishBackgroundWork()
        XCTAssertEqual(try onDisk().records[0].values["phone"], .string("555-12349"), "ours was already saved: it stays")
        let status = try XCTUnwrap(p.state.status?.text)
        XCTAssertTrue(status.hasPrefix("“Site” was changed elsewhere in the same answers: yours are kept, theirs in .Site.recovered-"), status)
        let recovered = store.recoveries()
        XCTAssertEqual(recovered.flatMap(\.records).map { $0.values["phone"] }, [.string("000")], "theirs is kept")
    }

    /// The same clash, offered at once: the kept survey is shown with the answers both
    /// changed, typing into the offer is refused, and m merges it into the survey as it is
    /// now: on disk both changes are in, and their version is in .trash, never erased.
    func testTheKeptSurveyIsOfferedAtOnceAndMergingKeepsBothChanges() throws {
        let clock = TestClock()
        var p = Program(store: store, documentName: "Site", size: Size(width: 120, height: 40), journalThreshold: 0,
                        clock: clock.wallClock)
        p.send(.system(.resized(Size(width: 120, height: 40))))
        p.files.writer.pause()
        editJohnsPhone(&p)
        var outside = try onDisk()
        outside.records[0].values["phone"] = .string("000")
        outside.records[0].values["address"] = .string("1 New St.")
        try store.save(outside, as: "Site")
        p.files.writer.resume()
        p.finishBackgroundWork()
        guard case .recovery(let kept) = p.state.popover else { return XCTFail("offered at once: \(String(describing: p.state.popover))") }
        XCTAssertEqual(kept.bases.values.map { $0.values["phone"] }, [.string("555-1234")], "with the version both started from")
        let screen = p.screen.lines.joined(separator: "\n")
        XCTAssertTrue(screen.contains("Phone: yours 555-12349, theirs 000"), screen)
        p.type("45")
        p.press(.enter)
        guard case .recovery = p.state.popover else { return XCTFail("typing chose nothing") }
        clock.advance(2)
        p.press(.character("m"))
        p.finishBackgroundWork()
        let john = try onDisk().records[0]
        XCTAssertEqual(john.values["phone"], .string("555-12349"), "ours")
        XCTAssertEqual(john.values["address"], .string("1 New St."), "theirs")
        XCTAssertEqual(store.recoveries(), [])
        let trash = try FileManager.default.contentsOfDirectory(atPath: store.trashFolder.path).sorted()
        XCTAssertEqual(trash, [kept.fileName, Recovery.baseFileName(of: kept.fileName)].sorted())
        XCTAssertEqual(p.state.status?.text, "Merged 1 kept survey into “Site”; took theirs for Address; kept yours where both "
                       + "changed: Phone (theirs was 000); the other version is in .trash")
    }

    func testAJournalThatCannotBeWrittenPutsTheEntryBackOnTheForm() throws {
        var p = launch()
        XCTAssertEqual(try ChildProcess.run(["chattr", "+i", folder.path]).status, 0)
        p.press(.enter, .down, .down, .down, .enter)
        p.type("9")
        p.press(.enter)
        XCTAssertEqual(p.state.status?.kind, .error)
        XCTAssertTrue(p.state.status?.text.hasPrefix("Could not save Site") == true, p.state.status?.text ?? "")
        XCTAssertEqual(p.state.editing?.text, "555-12349", "the typed text is back on the form")
        XCTAssertEqual(p.state.records[0].values["phone"], .string("555-1234"))
        _ = try ChildProcess.run(["chattr", "-i", folder.path])
        p.press(.enter, .escape)
        p.finishBackgroundWork()
        XCTAssertEqual(try onDisk().records[0].values["phone"], .string("555-12349"), "saved once the folder is writable")
    }

    /// The journal is written but the `.plist` cannot be replaced (here: made immutable):
    /// the status says so, the change stays safe in the journal, and the next change writes both.
    func testABackgroundRewriteThatFailsKeepsTheChangeInTheJournal() throws {
        var p = launch()
        let plist = store.url(for: "Site")
        XCTAssertEqual(try ChildProcess.run(["chattr", "+i", plist.path]).status, 0)
        editJohnsPhone(&p)
        p.finishBackgroundWork()
        _ = try ChildProcess.run(["chattr", "-i", plist.path])
        let status = try XCTUnwrap(p.state.status?.text)
        XCTAssertTrue(status.hasPrefix("Could not update Site.plist:"), status)
        XCTAssertTrue(status.hasSuffix("Your changes are safe in .Site.journal and are written again with the next change"), status)
        XCTAssertEqual(try onDisk().records[0].values["phone"], .string("555-1234"))
        XCTAssertEqual(DocumentJournal.entries(at: journalURL)?.count, 1, "the change is in the journal")
        // The next change writes both.
        p.press(.up, .up, .enter)                                // from Age up to Address
        p.type("!")
        p.press(.enter, .escape)
        p.finishBackgroundWork()
        let john = try onDisk().records[0]
        XCTAssertEqual(john.values["phone"], .string("555-12349"))
        XCTAssertEqual(john.values["address"], .string("123 Any St.!"))
        XCTAssertFalse(DocumentJournal.holdsEntries(at: journalURL))
    }

    /// A plain `mv` of the document while its change is only in the journal: the change
    /// follows the file to its new name, and nothing is recreated under the old one.
    func testARenameFromOutsideBeforeThePlistCaughtUpIsFollowed() throws {
        var p = launch()
        p.files.writer.pause()
        editJohnsPhone(&p)
        try FileManager.default.moveItem(at: store.url(for: "Site"), to: store.url(for: "Field"))
        p.files.writer.resume()
        p.finishBackgroundWork()
        XCTAssertEqual(p.state.documentName, "Field")
        XCTAssertFalse(FileManager.default.fileExists(atPath: store.url(for: "Site").path), "never recreated")
        XCTAssertEqual(try store.load("Field").get().records[0].values["phone"], .string("555-12349"))
        XCTAssertFalse(FileManager.default.fileExists(atPath: store.journalURL(for: "Site").path), "the journal followed")
        XCTAssertEqual(DocumentJournal.entries(at: store.journalURL(for: "Field")), [])
    }

    /// The journal of a crashed session cannot be put into the file at the next open (the
    /// `.plist` cannot be replaced): its changes are still what the app shows and what the
    /// next save writes, never a version without them.
    func testAJournalThatCannotBePutBackAtOpenIsStillWhatIsShownAndSaved() throws {
        do {
            var p = launch()
            p.files.writer.pause()
            editJohnsPhone(&p)
        }
        let plist = store.url(for: "Site")
        XCTAssertEqual(try ChildProcess.run(["chattr", "+i", plist.path]).status, 0)
        var again = launch()
        _ = try ChildProcess.run(["chattr", "-i", plist.path])
        XCTAssertTrue(again.state.status?.text.hasPrefix("Could not put back the changes in .Site.journal") == true,
                      again.state.status?.text ?? "")
        XCTAssertEqual(again.state.records[0].values["phone"], .string("555-12349"), "shown with the journal's change")
        again.press(.enter, .down, .down, .enter)                 // and another change: Address
        again.type("!")
        again.press(.enter, .escape)
        again.finishBackgroundWork()
        let john = try onDisk().records[0]
        XCTAssertEqual(john.values["phone"], .string("555-12349"), "the journal's change is written too")
        XCTAssertEqual(john.values["address"], .string("123 Any St.!"))
        XCTAssertFalse(DocumentJournal.holdsEntries(at: journalURL))
    }

    /// A delete and its undo go through the journal by id; a crash in between replays both.
    func testADeleteAndItsUndoThroughTheJournalSurviveACrash() throws {
        do {
            var p = launch()
            p.files.writer.pause()
            p.press(.character("d"), .character("y"))                // John, from the list
            XCTAssertEqual(p.state.records.map(\.listTitle), ["Jones, Doris"])
            p.press(.control("z"))
            XCTAssertEqual(p.state.records.map(\.listTitle), ["Smith, John", "Jones, Doris"])
            p.press(.control("y"))
            XCTAssertEqual(p.state.records.map(\.listTitle), ["Jones, Doris"])
            XCTAssertEqual(DocumentJournal.entries(at: journalURL)?.count, 3, "delete, put back, delete")
        }
        let again = launch()
        XCTAssertEqual(try onDisk().records.map(\.listTitle), ["Jones, Doris"])
        XCTAssertEqual(again.state.records.map(\.listTitle), ["Jones, Doris"])
    }

    func testASecondWindowSavesWholeFilesAndBothChangesLand() throws {
        var a = launch(), b = launch()
        a.files.writer.pause()
        editJohnsPhone(&a)                                           // A holds the journal
        b.press(.enter, .down, .down, .enter)                     // B: John's address
        b.type(" Apt 2")
        b.press(.enter, .escape)
        XCTAssertEqual(try onDisk().records[0].values["address"], .string("123 Any St. Apt 2"), "B wrote the file itself")
        a.files.writer.resume()
        a.finishBackgroundWork()
        let john = try onDisk().records[0]
        XCTAssertEqual(john.values["phone"], .string("555-12349"))
        XCTAssertEqual(john.values["address"], .string("123 Any St. Apt 2"))
    }

    func testQuittingWaitsForThePlistAndLeavesNoJournal() throws {
        var p = launch()
        editJohnsPhone(&p)
        p.press(.control("q"))
        XCTAssertTrue(p.isFinished)
        XCTAssertEqual(try onDisk().records[0].values["phone"], .string("555-12349"))
        XCTAssertFalse(FileManager.default.fileExists(atPath: journalURL.path))
    }
}
