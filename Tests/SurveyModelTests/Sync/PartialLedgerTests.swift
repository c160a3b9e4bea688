import Foundation
import XCTest
@testable import SurveyValues
@testable import SurveyForms
@testable import SurveyStorage

/// Issue 28: a ledger read in part (`PartialLedger`, `LedgerIndex`) holds what the whole
/// ledger holds for every survey it reads, whatever the entries hold (rosters, strings over
/// several lines, a conflict, a review, a deleted base, the journal's changes), refuses any
/// file it cannot index rather than guess, and made whole keeps the changes made to the part.
final class PartialLedgerTests: PartialLedgerTestCase {
    /// A ledger whose entries hold every shape an entry takes.
    private func variedLedger() -> SyncLedger {
        var ledger = SyncLedger()
        ledger.pullCursor = 41
        ledger.role = "ana"
        ledger.pendingReasons = ["uuid:m": "typed\n\tover two lines <with> & marks"]
        for i in 0..<40 {
            let id = "uuid:s\(i)"
            ledger.bases[id] = SyncLedger.Version(answers: [
                "name": .string("Person \(i)"),
                "notes": .string(i % 3 == 0 ? "line one\n\t\t\t</dict>\n\t<dict>\nline four" : "short"),
                "starts": .string(i % 5 == 0 ? "\nbegins with a newline" : "plain"),
                "members": .array([.dictionary(["age": .integer(i), "ends": .string("tabs after\n\t\t\t")])]),
                "photo": .data(Data([0, 1, 2, UInt8(i)])),
            ], revision: SyncRevision(Int64(i + 1)), deleted: i == 7)
            if i % 4 != 0 { ledger.owners[id] = i % 2 == 0 ? "ana" : "bruno" }
        }
        ledger.conflicts["uuid:s3"] = SyncLedger.Conflict(
            theirs: SyncLedger.Version(answers: ["name": .string("Theirs")], revision: SyncRevision(9)),
            fields: [FieldConflict(path: SyncFieldPath([.key("name")]), base: .string("Person 3"), mine: .string("Mine"),
                                   theirs: .string("Theirs"))])
        ledger.reviews["uuid:s5"] = SyncReview(.hasIssues, comment: "age?\nsee the roster")
        ledger.owners["uuid:only-owner"] = "carla"
        ledger.reviews["uuid:only-review"] = SyncReview(.approved)
        return ledger
    }

    private func written(_ ledger: SyncLedger, in store: DocumentStore) throws -> URL {
        try store.save(SurveyDocument(records: []), as: "Field")
        try store.writeLedger(ledger, for: "Field")
        return store.syncURL(for: "Field")
    }

    func testTheIndexFindsEverySurveysEntryAndTheReadPartHoldsWhatTheWholeDoes() throws {
        let store = DocumentStore(folder: folder)
        let full = variedLedger()
        let url = try written(full, in: store)
        let bytes = [UInt8](try Data(contentsOf: url))
        let index = try XCTUnwrap(LedgerIndex(bytes: bytes), "the file survey wrote is indexed")
        XCTAssertEqual(index.entries.count, 42)
        XCTAssertEqual(index.entries.filter(\.conflict).count, 1)
        let whole = try DocumentStore.readLedger(at: url)
        var part = try XCTUnwrap(try SyncLedger.readInPart(at: url))
        XCTAssertTrue(part.isPartial)
        XCTAssertEqual(part.conflicts.count, 1, "every conflict is read")
        XCTAssertEqual(part.pendingReasons, whole.pendingReasons)
        XCTAssertEqual(part.pullCursor, 41)
        let ids = (0..<40).map { "uuid:s\($0)" } + ["uuid:only-owner", "uuid:only-review", "uuid:nowhere"]
        try part.load(ids)
        for id in ids {
            XCTAssertEqual(part.bases[id], whole.bases[id], id)
            XCTAssertEqual(part.owners[id], whole.owners[id], id)
            XCTAssertEqual(part.reviews[id], whole.reviews[id], id)
            XCTAssertEqual(part.conflicts[id], whole.conflicts[id], id)
        }
        XCTAssertEqual(part.bases["uuid:s7"]?.deleted, true)
        XCTAssertNil(part.bases["uuid:nowhere"], "a survey the file has no entry for is read as having none")
    }

    func testAFileNotLaidOutAsSurveyWritesItIsReadWhole() throws {
        let store = DocumentStore(folder: folder)
        let url = try written(variedLedger(), in: store)
        let text = try String(contentsOf: url, encoding: .utf8)
        // Each changed as a hand or another tool might: all are still ledgers survey reads whole.
        let variants = [
            text.replacingOccurrences(of: "\t", with: "  "),                     // indented otherwise
            text.replacingOccurrences(of: "<string>uuid:s1</string>", with: "<string>uuid:s1&amp;</string>"),   // an entity in an id
            text.replacingOccurrences(of: "<string>uuid:s2</string>", with: "<string>uuid:s1</string>"),    // one id twice
            String(text.dropLast()),                                              // no newline at the end
            text.replacingOccurrences(of: "</array>\n</plist>\n", with: ""),        // cut short
        ]
        for (n, variant) in variants.enumerated() {
            try Data(variant.utf8).write(to: url)
            XCTAssertNil(LedgerIndex(bytes: Array(variant.utf8)), "variant \(n)")
            XCTAssertNil(try? SyncLedger.readInPart(at: url) ?? nil, "variant \(n)")
        }
    }

    func testTheJournalsChangesAreReadWithThePartAndMadeWholeTheChangesStay() throws {
        let store = DocumentStore(folder: folder)
        let snapshot = try prepared(in: store)
        // A commit of one survey goes to the journal: b's base and owner, c removed.
        try commit(snapshot, in: store) { ledger in
            ledger.bases["uuid:b"] = SyncLedger.Version(answers: ["age": .integer(20)], revision: SyncRevision(2))
            ledger.owners["uuid:b"] = "bruno"
            ledger.bases["uuid:c"] = nil
            ledger.owners["uuid:c"] = nil
        }
        XCTAssertTrue(FileManager.default.fileExists(atPath: folder.appendingPathComponent(".Field.sync-journal").path))
        var part = try XCTUnwrap(try SyncLedger.readInPart(at: store.syncURL(for: "Field")))
        XCTAssertEqual(part.bases.known?.count, 2, "the journal's surveys are read with the part")
        XCTAssertEqual(part.bases["uuid:b"]?.revision, SyncRevision(2))
        XCTAssertNil(part.bases["uuid:c"])
        try part.load(["uuid:a"])
        XCTAssertEqual(part.owners["uuid:a"], "ana")
        // A change to the part, then the part made whole: the change is there, noted, with the rest.
        part.bases["uuid:a"] = SyncLedger.Version(answers: ["age": .integer(10)], revision: SyncRevision(3))
        part.role = "carla"
        let whole = try part.whole()
        XCTAssertFalse(whole.isPartial)
        XCTAssertEqual(whole.bases.count, 2)
        XCTAssertEqual(whole.bases["uuid:a"]?.revision, SyncRevision(3))
        XCTAssertEqual(whole.bases["uuid:b"]?.revision, SyncRevision(2))
        XCTAssertEqual(whole.role, "carla")
        XCTAssertEqual(whole.changedIDs, ["uuid:a"], "still appended alone to the journal")
    }

    func testAPartMadeWholeRefusesAFileReplacedMeanwhile() throws {
        let store = DocumentStore(folder: folder)
        _ = try prepared(in: store)
        let part = try XCTUnwrap(try SyncLedger.readInPart(at: store.syncURL(for: "Field")))
        var other = try DocumentStore.readLedger(at: store.syncURL(for: "Field"))
        other.bases["uuid:a"] = nil
        try store.writeLedger(other, for: "Field")
        XCTAssertThrowsError(try part.whole()) { error in
            XCTAssertTrue("\(error)".contains("changed by another program meanwhile"), "\(error)")
        }
    }

    func testPastItsLimitAPartIsMadeWhole() throws {
        let store = DocumentStore(folder: folder)
        var ledger = SyncLedger()
        // Larger than the megabyte the file is read by at a time, with lines split between reads.
        for i in 0..<(SyncLedger.mostReadInPart + 10) {
            ledger.bases["uuid:\(i)"] = SyncLedger.Version(answers: ["n": .integer(i), "text": .string(String(repeating: "x", count: 500 + i % 7))],
                                                          revision: SyncRevision(Int64(1)))
        }
        let url = try written(ledger, in: store)
        XCTAssertGreaterThan(try Data(contentsOf: url).count, 1 << 20)
        var part = try XCTUnwrap(try SyncLedger.readInPart(at: url))
        try part.load((0..<SyncLedger.mostReadInPart).map { "uuid:\($0)" })
        XCTAssertTrue(part.isPartial)
        try part.load(["uuid:\(SyncLedger.mostReadInPart + 1)"])
        XCTAssertFalse(part.isPartial, "made whole rather than read past its limit")
        XCTAssertEqual(part.bases.count, SyncLedger.mostReadInPart + 10)
    }

    /// A pulled survey whose id is not plain ASCII (the server may hold "uuid:\u{212A}", which a
    /// `String` takes for "uuid:K") makes the part whole: its entry is found by bytes, its
    /// table by `String`, and the two disagree.
    func testAnIdNotPlainASCIIMakesThePartWhole() throws {
        let store = DocumentStore(folder: folder)
        var ledger = SyncLedger()
        ledger.bases["uuid:K"] = SyncLedger.Version(answers: ["n": .integer(1)], revision: SyncRevision(Int64(1)))
        ledger.bases["uuid:b"] = SyncLedger.Version(answers: ["n": .integer(2)], revision: SyncRevision(Int64(1)))
        let url = try written(ledger, in: store)
        var part = try XCTUnwrap(try SyncLedger.readInPart(at: url))
        XCTAssertEqual("uuid:\u{212A}", "uuid:K", "a String takes the Kelvin sign for K")
        try part.load(["uuid:\u{212A}"])
        XCTAssertFalse(part.isPartial)
        XCTAssertEqual(part.bases["uuid:\u{212A}"]?.revision, SyncRevision(Int64(1)), "the base is found as the whole ledger finds it")
    }

    func testASnapshotForAPullReadsTheLedgerInPartAndACommitAppendsToItsJournal() throws {
        let store = DocumentStore(folder: folder)
        _ = try prepared(in: store)
        var snapshot = try store.syncSnapshot(of: "Field", ledgerInPart: true)
        XCTAssertTrue(snapshot.state.ledger.isPartial)
        var ledger = snapshot.lendLedger()
        try ledger.load(["uuid:b"])
        ledger.bases["uuid:b"] = SyncLedger.Version(answers: ["age": .integer(22)], revision: SyncRevision(2))
        let state = SyncState(records: snapshot.state.records, deleted: snapshot.state.deleted, ledger: ledger)
        let ledgerBytes = try Data(contentsOf: store.syncURL(for: "Field"))
        _ = try XCTUnwrap(try store.committed(state, over: snapshot, ledgerChanged: true, at: Date()))
        XCTAssertEqual(try Data(contentsOf: store.syncURL(for: "Field")), ledgerBytes, "the file stays; the journal has the change")
        let read = try store.syncLedger(for: "Field")
        XCTAssertEqual(read.bases["uuid:b"]?.revision, SyncRevision(2))
        XCTAssertEqual(read.bases["uuid:a"]?.revision, SyncRevision(1))
        XCTAssertEqual(read.owners.count, 3)
    }

    func testACommitThatMustWriteTheLedgerWholeMakesThePartWholeFirst() throws {
        let store = DocumentStore(folder: folder)
        _ = try prepared(in: store)
        DocumentStore.ledgerJournaledFrom = .max      // every commit writes the ledger whole
        var snapshot = try store.syncSnapshot(of: "Field", ledgerInPart: true)
        XCTAssertTrue(snapshot.state.ledger.isPartial)
        var ledger = snapshot.lendLedger()
        try ledger.load(["uuid:c"])
        ledger.bases["uuid:c"] = nil
        ledger.owners["uuid:c"] = nil
        let state = SyncState(records: snapshot.state.records, deleted: snapshot.state.deleted, ledger: ledger)
        _ = try XCTUnwrap(try store.committed(state, over: snapshot, ledgerChanged: true, at: Date()))
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder.appendingPathComponent(".Field.sync-journal").path))
        let read = try DocumentStore.readLedger(at: store.syncURL(for: "Field"))
        XCTAssertEqual(Set(read.bases.keys), ["uuid:a", "uuid:b"], "every survey not read is still in the file")
        XCTAssertEqual(read.owners["uuid:a"], "ana")
    }

    // MARK: - The look for changes here, by digests

    /// Surveys of every shape, as the document holds them and as their bases hold them.
    private func shapes() -> [Record] {
        (0..<30).map { i in
            Record(["instanceID": .string("uuid:d\(i)"), "name": .string("Person \(i)"), "age": .integer(i),
                    "weight": .real(60.5 + Double(i)), "when": .date(Date(timeIntervalSince1970: 1_700_000_000 + Double(i))),
                    "photo": .data(Data([1, 2, UInt8(i)])), "done": .bool(i % 2 == 0),
                    "notes": .string("a\n\tb\(i)"), "ends": .string("tabs after\n\t"), "starts": .string("\nfirst line empty"),
                    "members": .array([.dictionary(["name": .string("M \(i)"), "ages": .array([.integer(i), .integer(i + 1)])])])])
        }
    }

    /// A document of `shapes()` whose ledger has each one's base, then `change` keyed into it;
    /// the changes a look finds with the ledger read in part and with it read whole.
    private func looks(journaling: (inout SyncLedger) -> Void = { _ in },
                       _ change: (inout [Record]) -> Void) throws -> (inPart: [OutgoingChange], whole: [OutgoingChange], lookedAt: Int) {
        let store = DocumentStore(folder: folder)
        var records = shapes()
        try store.save(SurveyDocument(records: records), as: "Field")
        var ledger = SyncLedger()
        ledger.role = "ana"
        for record in records {
            var answers = record.values
            answers["instanceID"] = nil
            ledger.bases[record.instanceID!] = SyncLedger.Version(answers: answers, revision: SyncRevision(Int64(3)))
            ledger.owners[record.instanceID!] = "ana"
        }
        try store.writeLedger(ledger, for: "Field")
        // A commit through the journal, as a sync of a few surveys makes.
        var snapshot = try store.syncSnapshot(of: "Field")
        var lent = snapshot.lendLedger()
        journaling(&lent)
        if lent.changedIDs?.isEmpty == false {
            let state = SyncState(records: snapshot.state.records, deleted: snapshot.state.deleted, ledger: lent)
            _ = try store.committed(state, over: snapshot, ledgerChanged: true, at: Date())
        }
        change(&records)
        try store.save(SurveyDocument(records: records), as: "Field")

        var part = try store.syncSnapshot(of: "Field", ledgerInPart: true)
        XCTAssertTrue(part.state.ledger.isPartial)
        let look = try part.lookForChangesHere(in: store)
        XCTAssertNotNil(look, "the document's file is read by its lines")
        XCTAssertTrue(part.state.ledger.isPartial, "a few changes do not make the ledger whole")
        let inPart = SyncPlan.outgoing(from: part.state, device: "A", look: look)
        let whole = SyncPlan.outgoing(from: try store.syncSnapshot(of: "Field").state, device: "A")
        return (inPart, whole, look?.places.count ?? -1)
    }

    private func ids(_ changes: [OutgoingChange]) -> [String] { changes.map(\.id) }

    func testALookInPartFindsEveryChangeAWholeLookFinds() throws {
        let (inPart, whole, lookedAt) = try looks { records in
            records[1]["notes"] = .string("a\n\t\tb1")                       // one tab more inside a string's text
            records[2]["ends"] = .string("tabs after\n\t\t")                    // the same where the text ends
            records[3]["starts"] = .string("first line empty")                  // the newline gone
            records[4]["age"] = .string("4")                                   // the same digits, another type
            if case .array(var members)? = records[5]["members"], case .dictionary(var member) = members[0] {
                member["ages"] = .array([.integer(5), .integer(7)])
                members[0] = .dictionary(member)
                records[5]["members"] = .array(members)
            }
            records[6]["extra"] = .string("")                                   // a field added, empty
            records[7]["photo"] = nil                                           // a field removed
            records[8]["weight"] = .real(68.50000000001)
            records[9]["done"] = .bool(false)
            records.remove(at: 10)                                              // deleted here
            records.append(Record(["instanceID": .string("uuid:new"), "name": .string("New")]))   // new
            records.append(records[12])                                         // one survey twice
        }
        XCTAssertEqual(inPart, whole)
        XCTAssertEqual(Set(ids(inPart)), ["uuid:d1", "uuid:d2", "uuid:d3", "uuid:d4", "uuid:d5", "uuid:d6", "uuid:d7", "uuid:d8",
                                         "uuid:d10", "uuid:new"])
        XCTAssertEqual(inPart.first { $0.id == "uuid:d10" }?.deleted, true)
        XCTAssertEqual(lookedAt, 11, "only the surveys changed, new or twice are looked at; the others' digests are their bases'")
    }

    func testALookInPartReadsTheJournalsSurveysAndSkipsConflicts() throws {
        let (inPart, whole, lookedAt) = try looks(journaling: { ledger in
            // d20's base moved on (the journal holds it), d21 deleted on the server side, d22 in conflict.
            ledger.bases["uuid:d20"]?.revision = SyncRevision(Int64(4))
            ledger.bases["uuid:d20"]?.answers["age"] = .integer(99)
            ledger.bases["uuid:d21"]?.deleted = true
            ledger.conflicts["uuid:d22"] = SyncLedger.Conflict(theirs: SyncLedger.Version(answers: [:], revision: SyncRevision(Int64(4))),
                                                               fields: [])
        }) { records in
            records[22]["age"] = .integer(1)        // in conflict: not sent until settled
            records[23]["age"] = .integer(1)
        }
        XCTAssertEqual(inPart, whole)
        XCTAssertEqual(Set(ids(inPart)), ["uuid:d20", "uuid:d21", "uuid:d23"])
        XCTAssertEqual(lookedAt, 3, "the journal's two and the one changed (the conflict is not sent)")
    }

    func testNothingChangedFindsNothingInPart() throws {
        let (inPart, whole, lookedAt) = try looks { _ in }
        XCTAssertEqual(inPart, [])
        XCTAssertEqual(whole, [])
        XCTAssertEqual(lookedAt, 0)
    }
}
