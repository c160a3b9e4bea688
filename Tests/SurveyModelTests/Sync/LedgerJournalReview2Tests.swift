import Foundation
import XCTest
import SurveyTestSupport
@testable import SurveyValues
@testable import SurveyForms
@testable import SurveyStorage

/// A second hostile review of the ledger's journal (ab9ee6a, 96d5fa6) and of the ledger read in
/// one walk per entry (e5affbc).
final class LedgerJournalReview2Tests: TemporaryFolderTestCase {
    // MARK: - The digest of a ledger of 64 to 128 KB

    /// The variable that makes a run of this test the child that reads the ledger.
    private static let childFolder = "LEDGER_JOURNAL_REVIEW2_FOLDER"

    /// Crashed before the second review of the journal: `SyncLedgerJournal.firstLine(token:ledger:)` (SyncLedgerJournal.swift:42-54)
    /// reads a ledger of at most 128 KB whole (`want` = its size) into a buffer of 64 KB: `pread`
    /// writes past the buffer's end (a heap overflow), then `buffer[..<want]` traps
    /// ("Array index is out of range", line 54). Every reader of a ledger that has a token
    /// (every ledger `writeLedger` wrote) asks for the digest (`withJournal`,
    /// DocumentStore+Sync.swift:108), journal or not, so a document whose ledger is 64 to 128 KB
    /// (some 120 to 350 surveys synced) crashes its every sync, `survey conflicts`, `resolve`,
    /// and `survey merge` of a stick holding one. The read runs in a child (this test run again),
    /// so the crash fails this test and not the whole run.
    func testALedgerOf64To128KilobytesIsRead() throws {
        if let path = ProcessInfo.processInfo.environment[Self.childFolder] {
            // The child: reads the ledger its parent wrote.
            let read = try DocumentStore(folder: URL(fileURLWithPath: path)).syncLedger(for: "Field")
            XCTAssertEqual(read.bases.count, Self.midSizedSurveys)
            return
        }
        var ledger = SyncLedger()
        ledger.pullCursor = 5
        for i in 0..<Self.midSizedSurveys {
            ledger.bases["uuid:\(i)"] = SyncLedger.Version(answers: ["age": .integer(i), "name": .string("someone \(i)")],
                                                           revision: SyncRevision(1))
        }
        try store.writeLedger(ledger, for: "Field")
        let size = try XCTUnwrap(try FileManager.default.attributesOfItem(atPath: store.syncURL(for: "Field").path)[.size] as? Int)
        XCTAssertTrue((64 << 10) < size && size <= (128 << 10), "a ledger of \(size) bytes")

        var environment = ProcessInfo.processInfo.environment
        environment[Self.childFolder] = folder.path
        let me = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        let child = try ChildProcess.run([me, "SurveyModelTests.LedgerJournalReview2Tests/testALedgerOf64To128KilobytesIsRead"],
                                         environment: environment)
        XCTAssertEqual(child.status, 0, "reading a ledger of \(size) bytes: \(Self.crashLine(child.errors + child.output))")
        XCTAssertTrue(child.output.contains("Executed 1 test, with 0 failures") || child.errors.contains("Executed 1 test, with 0 failures"),
                      "the child ran the read")
    }

    // MARK: - e5affbc: the entries read as before

    /// Odd but valid ledgers (and bad ones) written by plistlib, as a person repairing one would,
    /// or by hand: keys sorted (`id` after `base`) or in any order, non-ASCII ids, keys and text,
    /// revisions as numbers (an older ledger), a base deleted, without answers, not a dictionary,
    /// keys given twice. Each is read by `readLedger` and by the reading before e5affbc (ported
    /// below, `oldReading`): the same ledger, every base's packed bytes the same, or the same
    /// message. Passes today: e5affbc reads these as before.
    func testTheLedgerIsReadAsBeforeTheOneWalk() throws {
        let script = #"""
import plistlib, sys, os, datetime
folder = sys.argv[1]
header = {"ledger": 1, "pullCursor": 812, "pullDataset": "household", "role": "bruno",
          "lastSync": datetime.datetime(2026, 3, 1, 12, 0, 0), "ownChanges": [[900, 1400]]}
roster = [{"nome": "Zoë", "idade": 31}, {"nome": "Ana", "idade": 4}]
conflict = {"theirs": {"answers": {"age": 20}, "revision": "8"},
            "fields": [{"path": ["member", 1, "age"], "base": 2, "mine": 3, "theirs": 20}, {"path": ["gone"], "mine": "x"}]}
good = [header,
    {"id": "uuid:a", "owner": "ana", "base": {"answers": {"age": 1, "名前": "Zoë", "member": roster}, "revision": 41}},
    {"id": "uuid:é-ü", "base": {"answers": {"édad": 3.5, "ok": True, "when": datetime.datetime(2025, 1, 2, 3, 4, 5)},
                                 "revision": "7", "deleted": True}},
    {"id": "uuid:c", "owner": "", "conflict": conflict, "review": {"state": "hasIssues", "comment": "falta o nome"}},
    {"id": "uuid:d", "base": {"answers": {}}},
    {"id": "uuid:e", "base": {"answers": {"a": 1}, "deleted": False, "extra": "kept?"}, "note": "unknown key"},
    {"id": "uuid:f", "review": {"state": "approved"}}]
def dump(name, entries, sort_keys=True):
    with open(os.path.join(folder, name), "wb") as f:
        plistlib.dump(entries, f, sort_keys=sort_keys)
dump("good-sorted.plist", good)
# Keys in the order written above but reversed within each entry: review first, id last.
dump("good-reversed.plist", [dict(reversed(list(e.items()))) for e in good], sort_keys=False)
dump("good-binary.plist", good)  # replaced below by the binary form
with open(os.path.join(folder, "good-binary.plist"), "wb") as f:
    plistlib.dump(good, f, fmt=plistlib.FMT_BINARY)
bad = {
    "base-string": {"id": "uuid:x", "base": "none"},
    "base-array": {"id": "uuid:x", "base": [1, 2]},
    "base-no-answers": {"id": "uuid:x", "base": {"revision": "3"}},
    "answers-string": {"id": "uuid:x", "base": {"answers": "none", "revision": "3"}},
    "revision-real": {"id": "uuid:x", "base": {"answers": {"a": 1}, "revision": 2.5}},
    "no-id": {"owner": "ana", "base": {"answers": {"a": 1}}},
    "empty-id": {"id": "", "base": {"answers": {"a": 1}}},
    "id-integer": {"id": 7},
    "owner-integer": {"id": "uuid:x", "owner": 3, "base": "none"},
    "owner-then-base": {"id": "uuid:x", "owner": "ana", "base": 3, "conflict": 4},
    "conflict-string": {"id": "uuid:x", "base": {"answers": {"a": 1}}, "conflict": "no"},
    "conflict-path": {"id": "uuid:x", "conflict": {"theirs": {"answers": {}}, "fields": [{"path": [-1]}]}},
    "conflict-theirs": {"id": "uuid:x", "conflict": {"theirs": {"revision": "1"}, "fields": []}},
    "review-state": {"id": "uuid:x", "review": {"state": "maybe"}},
}
for name, entry in bad.items():
    dump("bad-" + name + ".plist", [header, entry])
# Keys given twice (no writer makes these; an editor can).
def raw(name, body):
    with open(os.path.join(folder, name), "w", encoding="utf-8") as f:
        f.write('<?xml version="1.0" encoding="UTF-8"?>\n<plist version="1.0"><array>'
                '<dict><key>ledger</key><integer>1</integer></dict>' + body + '</array></plist>\n')
ans = '<dict><key>answers</key><dict><key>a</key><integer>1</integer></dict></dict>'
raw("dup-id.plist", '<dict><key>id</key><string>uuid:one</string><key>base</key>' + ans + '<key>id</key><string>uuid:two</string></dict>')
raw("dup-base.plist", '<dict><key>id</key><string>uuid:one</string><key>base</key><string>x</string><key>base</key>' + ans + '</dict>')
raw("dup-base-2.plist", '<dict><key>id</key><string>uuid:one</string><key>base</key>' + ans + '<key>base</key><string>x</string></dict>')
raw("dup-answers.plist", '<dict><key>id</key><string>uuid:one</string><key>base</key><dict><key>answers</key><string>x</string>'
    '<key>answers</key><dict><key>a</key><integer>2</integer></dict><key>revision</key><string>1</string>'
    '<key>revision</key><integer>2</integer><key>deleted</key><true/><key>deleted</key><false/></dict></dict>')
raw("dup-owner.plist", '<dict><key>owner</key><string>ana</string><key>id</key><string>uuid:one</string><key>owner</key><integer>1</integer></dict>')
"""#
        _ = try TestSupport.python(script, [folder.path])
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".plist") }.sorted()
        XCTAssertEqual(files.count, 3 + 14 + 5)
        for file in files {
            let url = folder.appendingPathComponent(file)
            let records = Array(try SurveyDocument(propertyListData: try Data(contentsOf: url)).records)
            let old = Result { try Self.oldReading(records) }
            let new = Result { try DocumentStore.readLedger(at: url) }
            switch (old, new) {
            case (.success(let before), .success(let now)):
                XCTAssertEqual(now, before, file)
                XCTAssertEqual(now.bases.count, before.bases.count, file)
                for (id, base) in before.bases {
                    XCTAssertEqual(now.bases[id]?.packed.packed, base.packed.packed, "\(file): \(id)'s answers, byte for byte")
                    XCTAssertEqual(now.bases[id]?.revision, base.revision, "\(file): \(id)")
                    XCTAssertEqual(now.bases[id]?.deleted, base.deleted, "\(file): \(id)")
                }
                XCTAssertFalse(file.hasPrefix("bad-"), "\(file) was read: \(now)")
            case (.failure(let before), .failure(let now)):
                let message = try XCTUnwrap(before as? DocumentError, file).message
                XCTAssertEqual((now as? DocumentError)?.message.hasPrefix("\(file): \(message);"), true,
                               "\(file): before “\(message)”, now “\(now)”")
            default:
                XCTFail("\(file): before \(old), now \(new)")
            }
        }
        // The good files say what they hold.
        let good = try DocumentStore.readLedger(at: folder.appendingPathComponent("good-sorted.plist"))
        XCTAssertEqual(good.bases["uuid:a"]?.revision, SyncRevision(41))
        XCTAssertEqual(good.bases["uuid:a"]?.answers["名前"], .string("Zoë"))
        XCTAssertEqual(good.bases["uuid:é-ü"]?.deleted, true)
        XCTAssertEqual(good.owners["uuid:c"], "")
        XCTAssertEqual(good.conflicts["uuid:c"]?.fields.count, 2)
        XCTAssertEqual(good.reviews["uuid:c"]?.comment, "falta o nome")
        XCTAssertEqual(good.bases["uuid:d"]?.answers, [:])
        XCTAssertEqual(try DocumentStore.readLedger(at: folder.appendingPathComponent("good-reversed.plist")), good)
    }

    /// The ledger as read before e5affbc: each part of an entry looked up on its own
    /// (`SyncLedger.take` and `Version(packedEntry:)` of 96d5fa6), the header read as now
    /// (e5affbc left it alone).
    private static func oldReading(_ records: [Record]) throws -> SyncLedger {
        var ledger = try SyncLedger(propertyListEntries: min(records.count, 1)) { records[$0] }
        for (number, entry) in records.enumerated().dropFirst() {
            guard case .string(let id)? = entry["id"], !id.isEmpty else {
                throw DocumentError("not a sync ledger: entry \(number + 1) has no id")
            }
            switch entry["owner"] {
            case nil: break
            case .string(let owner)?: ledger.owners[id] = owner
            case let other?: throw SyncLedger.bad("the owner of \(id)", other)
            }
            if let base = try oldVersion(packedEntry: entry, id) { ledger.bases[id] = base }
            if let conflict = entry["conflict"] {
                guard case .dictionary(let fields) = conflict, let theirs = fields["theirs"],
                      case .array(let list)? = fields["fields"] else { throw SyncLedger.bad("the conflict of \(id)", conflict) }
                ledger.conflicts[id] = SyncLedger.Conflict(theirs: try SyncLedger.Version(theirs, id),
                                                           fields: try list.map { try FieldConflict($0, id) })
            }
            if let review = entry["review"] {
                guard case .dictionary(let fields) = review, case .string(let name)? = fields["state"],
                      let state = ReviewState(rawValue: name) else { throw SyncLedger.bad("the review of \(id)", review) }
                var comment: String?
                if case .string(let text)? = fields["comment"] { comment = text }
                ledger.reviews[id] = SyncReview(state, comment: comment)
            }
        }
        return ledger
    }

    private static func oldVersion(packedEntry entry: Record, _ id: String) throws -> SyncLedger.Version? {
        guard let base = PackedAnswers.dictionaryEntries(forKey: "base", in: entry.packed) else {
            if let other = entry["base"] { throw SyncLedger.bad("the base of \(id)", other) }
            return nil
        }
        guard let answers = PackedAnswers.dictionaryEntries(forKey: "answers", in: base) else {
            throw SyncLedger.bad("the base of \(id)", entry["base"] ?? .dictionary([:]))
        }
        var deleted = false
        if case .bool(let flag)? = PackedAnswers.value(forKey: "deleted", in: base) { deleted = flag }
        let revision: SyncRevision?
        switch PackedAnswers.value(forKey: "revision", in: base) {
        case nil: revision = nil
        case .string(let text)?: revision = SyncRevision(text)
        case .integer(let number)?: revision = SyncRevision(Int64(number))
        case let other?: throw SyncLedger.bad("the revision of \(id)", other)
        }
        return SyncLedger.Version(packed: Record(packed: answers), revision: revision, deleted: deleted)
    }

    private static let midSizedSurveys = 350

    private static func crashLine(_ text: String) -> String {
        text.split(separator: "\n").first { $0.contains("Fatal error") || $0.contains("error:") }.map(String.init) ?? "(no message)"
    }
}
