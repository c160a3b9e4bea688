import Foundation
import XCTest
import SurveyTestSupport
@testable import SurveyValues
@testable import SurveyForms
@testable import SurveyStorage

/// `.NAME.sync.plist`: read back as written, refused (and never written over) when it
/// cannot be read, and moved with its document.
final class SyncLedgerFileTests: TemporaryFolderTestCase {
    private var sample: SyncLedger {
        var ledger = SyncLedger()
        ledger.pullCursor = 812
        ledger.lastSync = Date(timeIntervalSince1970: 1_700_000_000)
        ledger.bases["uuid:a"] = SyncLedger.Version(answers: ["age": .integer(3), "m": .array([.dictionary(["x": .real(1.5)])])],
                                                    revision: SyncRevision(41))
        ledger.bases["uuid:b"] = SyncLedger.Version(answers: [:], revision: SyncRevision("c:00ff"), deleted: true)
        ledger.conflicts["uuid:a"] = SyncLedger.Conflict(
            theirs: SyncLedger.Version(answers: ["age": .integer(4)], revision: SyncRevision(42)),
            fields: [FieldConflict(path: SyncFieldPath([.key("m"), .index(0), .key("x")]), base: nil, mine: .real(1.5), theirs: nil)])
        ledger.reviews["uuid:a"] = SyncReview(.hasIssues, comment: "age?")
        ledger.reviews["uuid:b"] = SyncReview(.approved)
        // Rows of the server set aside (issue 28): an id with a control character is kept
        // printable, an empty one as empty, so the file reads back.
        ledger.setAside(SetAsideRow(id: "uuid:bell\u{7}", owner: "mallory", reason: "its instance id holds a control character"))
        ledger.setAside(SetAsideRow(id: "", owner: "mallory", reason: "its instance id is empty"))
        // Whose surveys they are (issue 28): the server's owner, and "" for one merged from a
        // copy that never synced; the role this laptop synced as.
        ledger.owners["uuid:a"] = "ana"
        ledger.owners["uuid:c"] = ""
        ledger.role = "bruno"
        return ledger
    }

    /// The ledger is written entry by entry straight from its packed bases (a third of a
    /// 100,000-survey pull went into building dictionaries for them): the same bytes as the
    /// writer makes of the entries spelled out as dictionaries, for ids and revisions that
    /// need escaping, a roster in a base, an entry with no base, and ids beyond ASCII.
    func testTheLedgerIsWrittenAsItsEntriesSpelledOutWouldBe() throws {
        var ledger = sample
        ledger.bases["uuid:é & <b>"] = SyncLedger.Version(
            answers: ["member": .array([.dictionary(["m_name": .string("Zoë"), "m_age": .integer(4)])]), "when": .date(Date(timeIntervalSince1970: 0))],
            revision: SyncRevision("r&<1>"))
        ledger.bases["uuid:0123456789abcdef0123456789abcdef0123"] = SyncLedger.Version(answers: ["age": .integer(1)], revision: nil)
        ledger.owners["uuid:only-owner"] = "ana"
        ledger.reviews["uuid:only-review"] = SyncReview(.approved, comment: "fine\r\n")
        try store.save(SurveyDocument(), as: "Field")
        try store.writeLedger(ledger, for: "Field")
        let written = try Data(contentsOf: store.syncURL(for: "Field"))
        // The file's header also names its token (a journal extends only that file).
        var tokened = ledger
        tokened.fileToken = try store.syncLedger(for: "Field").fileToken
        XCTAssertNotNil(tokened.fileToken.value)
        let spelledOut = PropertyListWriter.data(for: .array(tokened.propertyListEntries.map(PropertyValue.dictionary)))
        XCTAssertEqual(String(decoding: written, as: UTF8.self), String(decoding: spelledOut, as: UTF8.self))
        XCTAssertEqual(try store.syncLedger(for: "Field"), ledger)
    }

    /// The file's order: the surveys with a base by id, then those with only an owner, a
    /// conflict or a review by id; an owner-only survey is written even when every other
    /// owner has a base (the write stops looking for owners once it has found them all).
    func testSurveysWithABaseComeFirstThenTheOthersEachSortedByTheirBytes() throws {
        var ledger = SyncLedger()
        for id in ["uuid:d", "uuid:b", "uuid:é", "uuid:a1"] {
            ledger.bases[id] = SyncLedger.Version(answers: ["age": .integer(1)], revision: SyncRevision(1))
            ledger.owners[id] = "ana"
        }
        ledger.owners["uuid:0-owner-only"] = "bo"
        ledger.reviews["uuid:c-review-only"] = SyncReview(.approved)
        ledger.reviews["uuid:b"] = SyncReview(.hasIssues)
        try store.save(SurveyDocument(), as: "Field")
        try store.writeLedger(ledger, for: "Field")
        let python = try TestSupport.python("""
            import plistlib, sys
            d = plistlib.load(open(sys.argv[1], 'rb'))
            print(' '.join(e['id'] + ('' if 'base' in e else '*') for e in d[1:]))
            """, [store.syncURL(for: "Field").path])
        XCTAssertEqual(python, "uuid:a1 uuid:b uuid:d uuid:é uuid:0-owner-only* uuid:c-review-only*\n")
        XCTAssertEqual(ledger.entryIDs, ["uuid:a1", "uuid:b", "uuid:d", "uuid:é", "uuid:0-owner-only", "uuid:c-review-only"])
        XCTAssertEqual(try store.syncLedger(for: "Field"), ledger)
    }

    /// The header says how many bases follow, so a reader makes room once; a count no file
    /// of its size could hold (a hand-edited or hostile file) is ignored, not allocated.
    func testTheHeadersCountOfBasesIsRoomMadeAndAnImpossibleOneIsIgnored() throws {
        try store.save(SurveyDocument(), as: "Field")
        try store.writeLedger(sample, for: "Field")
        let url = store.syncURL(for: "Field")
        let text = try String(contentsOf: url, encoding: .utf8)
        XCTAssertTrue(text.contains("<key>bases</key>\n\t\t<integer>2</integer>"), text)
        XCTAssertEqual(try store.syncLedger(for: "Field"), sample)
        for count in ["1000000000000", "-5", "0", "3"] {
            try Data(text.replacingOccurrences(of: "<key>bases</key>\n\t\t<integer>2</integer>",
                                               with: "<key>bases</key>\n\t\t<integer>\(count)</integer>").utf8).write(to: url)
            XCTAssertEqual(try store.syncLedger(for: "Field"), sample, count)
        }
    }

    /// The in-place sort the ledger's table uses gives what the standard sort gives, for
    /// empty, single, repeated, sorted, reversed and random arrays.
    func testTheInPlaceSortAgreesWithTheStandardOne() {
        var random = SplitMix(seed: 17)
        var cases: [[Int]] = [[], [1], [2, 1], [1, 1, 1], Array(0..<50), Array((0..<50).reversed())]
        for _ in 0..<300 { cases.append((0..<random.next(below: 70)).map { _ in random.next(below: 30) }) }
        for (n, items) in cases.enumerated() {
            var sorted = items
            SyncLedger.heapSort(count: sorted.count, precedes: { sorted[$0] < sorted[$1] }, swap: { sorted.swapAt($0, $1) })
            XCTAssertEqual(sorted, items.sorted(), "case \(n)")
        }
    }

    /// Ids are sorted by their UTF-8: eight bytes compared as one number first, the whole
    /// text on a tie (a shared prefix, ids shorter than eight bytes, the empty id).
    func testIdsAreSortedByTheirBytes() {
        var random = SplitMix(seed: 5)
        let pieces = ["uuid:", "a", "ab", "0", "f", "é", "\u{7}", "zz", "uuid:0123", "山"]
        for round in 0..<200 {
            var ids = Set<String>()
            for _ in 0..<random.next(below: 40) {
                ids.insert((0..<random.next(below: 5)).map { _ in pieces[random.next(below: pieces.count)] }.joined())
            }
            let expected = ids.sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }
            XCTAssertEqual(SyncLedger.sortedByBytes(Array(ids)), expected, "round \(round)")
        }
    }

    func testALedgerReadsBackAsWrittenAndPlistlibReadsIt() throws {
        try store.save(SurveyDocument(), as: "Field")
        try store.writeLedger(sample, for: "Field")
        XCTAssertEqual(try store.syncLedger(for: "Field"), sample)
        XCTAssertEqual(try folderContents(), [".Field.sync.plist", "Field.plist"])
        let text = try String(contentsOf: store.syncURL(for: "Field"), encoding: .utf8)
        XCTAssertFalse(text.lowercased().contains("password"))
        let python = try TestSupport.python("""
            import plistlib, sys
            d = plistlib.load(open(sys.argv[1], 'rb'))
            a = [e for e in d if e.get('id') == 'uuid:a'][0]
            c = [e for e in d if e.get('id') == 'uuid:c'][0]
            print(d[0]['pullCursor'], a['base']['revision'], a['review']['state'], len(d), [r['id'] for r in d[0]['setAside']],
                  d[0]['role'], a['owner'], repr(c['owner']), sorted(c))
            """, [store.syncURL(for: "Field").path])
        XCTAssertEqual(python, "812 41 hasIssues 4 ['uuid:bell\\\\u{7}', ''] bruno ana '' ['id', 'owner']\n")
    }

    /// The deepest answers the team keeps (`SetAsideRow.maximumAnswerDepth`, the schema's
    /// bound too), in a conflict, the deepest place the ledger puts them, leave a ledger the
    /// fast reader takes whole (a deeper one goes to Foundation's decoder: seconds a read);
    /// ten levels more do not.
    func testTheDeepestAnswersKeptLeaveALedgerTheFastReaderTakes() throws {
        /// Answers nested `depth` levels, the answers object counted, a leaf in the deepest.
        func answers(depth: Int) -> [String: PropertyValue] {
            var deep = PropertyValue.array([.string("leaf")])
            for _ in 0..<(depth - 2) { deep = .array([deep]) }
            return ["deep": deep]
        }
        func ledger(depth: Int) -> SyncLedger {
            var ledger = SyncLedger()
            ledger.conflicts["uuid:a"] = SyncLedger.Conflict(
                theirs: SyncLedger.Version(answers: answers(depth: depth), revision: SyncRevision(2)),
                fields: [FieldConflict(path: SyncFieldPath([.key("deep")]), base: nil, mine: .string("mine"),
                                       theirs: answers(depth: depth)["deep"])])
            return ledger
        }
        let deepest = SetAsideRow.maximumAnswerDepth
        XCTAssertNil(SetAsideRow.problem(withAnswers: answers(depth: deepest)))
        XCTAssertEqual(SetAsideRow.problem(withAnswers: answers(depth: deepest + 1)), "its answers nest deeper than \(deepest) levels")
        try store.save(SurveyDocument(), as: "Field")
        try store.writeLedger(ledger(depth: deepest), for: "Field")
        XCTAssertNotNil(PropertyListScanner.value(in: try Data(contentsOf: store.syncURL(for: "Field"))))
        XCTAssertEqual(try store.syncLedger(for: "Field"), ledger(depth: deepest))
        try store.writeLedger(ledger(depth: deepest + 10), for: "Field")
        XCTAssertNil(PropertyListScanner.value(in: try Data(contentsOf: store.syncURL(for: "Field"))))
    }

    func testAnUnreadableLedgerIsRefusedAndLeftAlone() throws {
        try store.save(SurveyDocument(records: [Record(["instanceID": .string("uuid:a")])]), as: "Field")
        for garbage in [Data("garbage".utf8), PropertyListWriter.data(for: .array([])),
                        PropertyListWriter.data(for: .array([.dictionary(["ledger": .integer(99)])])),
                        PropertyListWriter.data(for: .array([.dictionary(["ledger": .integer(1)]), .dictionary(["base": .string("x")])])),
                        PropertyListWriter.data(for: .array([.dictionary(["ledger": .integer(1), "role": .integer(7)])])),
                        PropertyListWriter.data(for: .array([.dictionary(["ledger": .integer(1)]),
                                                             .dictionary(["id": .string("uuid:a"), "owner": .array([])])])),
                        try Data(contentsOf: store.url(for: "Field"))] {
            try garbage.write(to: store.syncURL(for: "Field"))
            XCTAssertThrowsError(try store.deleteSurvey(id: "uuid:a", from: "Field", at: Date())) { error in
                XCTAssertTrue("\(error)".contains(".Field.sync.plist"), "\(error)")
                XCTAssertTrue("\(error)".contains("does not write over it"), "\(error)")
            }
            XCTAssertEqual(try Data(contentsOf: store.syncURL(for: "Field")), garbage)
            XCTAssertEqual(try store.load("Field").get().records.count, 1)
        }
    }

    func testTheLedgerGoesWhereItsDocumentGoes() throws {
        try store.save(SurveyDocument(), as: "Field")
        try store.writeLedger(sample, for: "Field")
        try store.rename("Field", to: "Farm", at: Date())
        XCTAssertEqual(try folderContents(), [".Farm.sync.plist", "Farm.plist"])
        _ = try store.delete("Farm", at: Date())
        XCTAssertFalse(try folderContents().contains(".Farm.sync.plist"))
        _ = try store.restore(at: Date())
        XCTAssertEqual(try store.syncLedger(for: "Farm"), sample)
    }

    /// Issue 28: a million surveys' ledger came to 533 MB, more than the 512 MB survey reads,
    /// so the sync after the one that wrote it failed for good. The ledger is read up to
    /// `SyncLedger.maximumFileBytes` (four times a document's limit) and never written past
    /// it: one that would be larger is refused with the old file kept, so a ledger the sync
    /// wrote is always one it can read. Shown here with a small limit.
    func testALedgerIsNeverWrittenLargerThanWhatIsReadBack() throws {
        let store = DocumentStore(folder: folder)
        XCTAssertGreaterThan(SyncLedger.maximumFileBytes, 2 * DocumentFileReader.maximumBytes,
                             "a ledger holds a copy of every survey's answers, and more")
        try store.writeLedger(sample, for: "Doc", limit: 8_192)
        let size = try XCTUnwrap(try FileManager.default.attributesOfItem(atPath: store.syncURL(for: "Doc").path)[.size] as? Int)
        XCTAssertEqual(try DocumentStore.readLedger(at: store.syncURL(for: "Doc"), limit: size), sample)
        let before = try Data(contentsOf: store.syncURL(for: "Doc"))

        var larger = sample
        for i in 0..<200 { larger.bases["uuid:n\(i)"] = SyncLedger.Version(answers: ["name": .string("Person \(i)")], revision: SyncRevision(1)) }
        XCTAssertThrowsError(try store.writeLedger(larger, for: "Doc", limit: 8_192)) { error in
            XCTAssertTrue("\(error)".contains("more than survey reads back"), "\(error)")
        }
        XCTAssertEqual(try Data(contentsOf: store.syncURL(for: "Doc")), before, "the old ledger stays")
        XCTAssertThrowsError(try DocumentStore.readLedger(at: store.syncURL(for: "Doc"), limit: size - 1))
    }

    /// Bases are read as packed bytes straight from the file (issue 28): known keys, other
    /// keys, a key that is not ASCII (that entry read the slow way), rosters, an empty base;
    /// each reads back equal and still matches the survey it is the base of.
    func testBasesReadPackedMatchTheirSurveys() throws {
        let store = DocumentStore(folder: folder)
        let surveys = [
            Record([Record.instanceIDKey: .string("uuid:1"), "firstName": .string("Zoë"), "age": .integer(41),
                    "members": .array([.dictionary(["name": .string("Ana"), "age": .integer(3)])])]),
            Record([Record.instanceIDKey: .string("uuid:2"), "número": .string("7"), "notes": .string("a < b & c")]),
            Record([Record.instanceIDKey: .string("uuid:3")]),
        ]
        try store.save(SurveyDocument(records: surveys), as: "Doc")
        var ledger = SyncLedger()
        for survey in surveys { ledger.bases[survey.instanceID!] = SyncLedger.Version(answers: survey.answers, revision: SyncRevision(5)) }
        try store.writeLedger(ledger, for: "Doc")
        let read = try store.syncLedger(for: "Doc")
        XCTAssertEqual(read, ledger)
        for survey in try store.load("Doc").get().records {
            XCTAssertTrue(try XCTUnwrap(read.bases[survey.instanceID!]).holdsSameAnswers(as: survey), "\(survey.instanceID!)")
        }
        XCTAssertEqual(read.bases["uuid:2"]?.answers, ["número": .string("7"), "notes": .string("a < b & c")])
        XCTAssertFalse(try XCTUnwrap(read.bases["uuid:1"]).holdsSameAnswers(as: surveys[1]))
    }
}
