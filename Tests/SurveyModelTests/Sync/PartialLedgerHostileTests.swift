import Foundation
import XCTest
@testable import SurveyValues
@testable import SurveyForms
@testable import SurveyStorage

/// A hostile review of the look for changes here over a ledger read in part (`ChangesLook`,
/// `DocumentDigests`, `LedgerIndex`): for files a hand, another tool or an odd survey makes,
/// the look in part must find what the whole look finds, or fall back to reading whole.
/// Each test writes the document and its ledger, edits their text, then compares
/// `SyncPlan.outgoing` over the ledger read in part with the one over the ledger read whole.
final class PartialLedgerHostileTests: PartialLedgerTestCase {
    private struct Looked {
        var inPart: [OutgoingChange]
        var whole: [OutgoingChange]
        var look: ChangesLook?
        /// The ledger was read in part (else the sync reads it whole, which is safe).
        var readInPart: Bool
        var partConflicts: Set<String>?
        var wholeConflicts: Set<String>
    }

    /// The records as "Field" and a ledger of `bases` (by default each record's answers at
    /// revision 3), their files' text passed through `document` and `ledger`; what a look in
    /// part and a whole look find. `beforeOutgoing` sees the partial snapshot after its look
    /// and may refuse to go on (returns false: a call that would stop the program).
    private func looks(_ records: [Record], bases: [String: SyncLedger.Version]? = nil,
                       conflicts: [String: SyncLedger.Conflict] = [:],
                       document: (String) -> String = { $0 }, ledger editLedger: (String) -> String = { $0 },
                       beforeOutgoing: (DocumentStore.SyncSnapshot, ChangesLook?) -> Bool = { _, _ in true }) throws -> Looked? {
        let store = DocumentStore(folder: folder)
        try store.save(SurveyDocument(records: records), as: "Field")
        var ledger = SyncLedger()
        ledger.role = "ana"
        if let bases {
            for (id, base) in bases { ledger.bases[id] = base; ledger.owners[id] = "ana" }
        } else {
            for record in records {
                var answers = record.values
                answers["instanceID"] = nil
                ledger.bases[record.instanceID!] = SyncLedger.Version(answers: answers, revision: SyncRevision(Int64(3)))
                ledger.owners[record.instanceID!] = "ana"
            }
        }
        for (id, conflict) in conflicts { ledger.conflicts[id] = conflict }
        try store.writeLedger(ledger, for: "Field")
        let documentURL = store.url(for: "Field")
        let documentText = try String(contentsOf: documentURL, encoding: .utf8)
        let editedDocument = document(documentText)
        if editedDocument != documentText { try Data(editedDocument.utf8).write(to: documentURL) }
        let ledgerURL = store.syncURL(for: "Field")
        let ledgerText = try String(contentsOf: ledgerURL, encoding: .utf8)
        let editedLedger = editLedger(ledgerText)
        if editedLedger != ledgerText { try Data(editedLedger.utf8).write(to: ledgerURL) }

        let wholeState = try store.syncSnapshot(of: "Field").state
        XCTAssertFalse(wholeState.ledger.isPartial)
        let whole = SyncPlan.outgoing(from: wholeState, device: "A")
        var part = try store.syncSnapshot(of: "Field", ledgerInPart: true)
        let readInPart = part.state.ledger.isPartial
        let partConflicts = readInPart ? Set(part.state.ledger.conflicts.keys) : nil
        let look = try part.lookForChangesHere(in: store)
        guard beforeOutgoing(part, look) else { return nil }
        let inPart = SyncPlan.outgoing(from: part.state, device: "A", look: look)
        return Looked(inPart: inPart, whole: whole, look: look, readInPart: readInPart, partConflicts: partConflicts,
                      wholeConflicts: Set(wholeState.ledger.conflicts.keys))
    }

    private func summary(_ changes: [OutgoingChange]) -> [String] {
        changes.map { "\($0.id)\($0.deleted ? " deleted" : "")" }.sorted()
    }

    private func person(_ id: String, _ name: String, _ extra: [String: PropertyValue] = [:]) -> Record {
        var values: [String: PropertyValue] = ["instanceID": .string(id), "name": .string(name)]
        for (key, value) in extra { values[key] = value }
        return Record(values)
    }

    // MARK: - Bugs: a look in part that finds other changes than the whole look

    /// Was wrong before the review's fix (ids plain ASCII; only the lines survey writes; every survey here named by the file): a key running over lines is not tracked as text: its next line's tabs are hashed as layout (depth), so "k\n\t\tx" here and "k\n\t\t\t\tx" in the base give one digest.
    func testAKeyOverTwoLinesWhoseTabsChangedIsSent() throws {
        let here = Record(["instanceID": .string("uuid:a"), "k\n\t\tx": .string("1")])
        let base = SyncLedger.Version(answers: ["k\n\t\t\t\tx": .string("1")], revision: SyncRevision(Int64(3)))
        let looked = try XCTUnwrap(try looks([here, person("uuid:b", "B")],
                                             bases: ["uuid:a": base, "uuid:b": SyncLedger.Version(answers: ["name": .string("B")],
                                                                                                  revision: SyncRevision(Int64(3)))]))
        XCTAssertEqual(summary(looked.whole), ["uuid:a"], "the whole look sends the renamed field")
        XCTAssertEqual(summary(looked.inPart), summary(looked.whole), "a survey changed here must not pass for unchanged")
    }

    /// Was wrong before the review's fix (ids plain ASCII; only the lines survey writes; every survey here named by the file): DocumentDigests finds ids by the exact line "\t\t<key>instanceID</key>"; a trailing blank hides B's id from it, so B, in the document, is taken as gone and pushed as deleted.
    func testASurveyWhoseIdLineTheScannerMissesIsNotPushedAsDeleted() throws {
        let records = [person("uuid:a", "A"), person("uuid:b", "B"), person("uuid:c", "C")]
        var bases: [String: SyncLedger.Version] = [:]
        for id in ["a", "b", "c", "d"] {
            bases["uuid:\(id)"] = SyncLedger.Version(answers: ["name": .string(id.uppercased())], revision: SyncRevision(Int64(3)))
        }
        // d was deleted here (a base, no survey): the look then searches every base for the gone ones.
        let looked = try XCTUnwrap(try looks(records, bases: bases, document: { text in
            text.replacingOccurrences(of: "\t\t<key>instanceID</key>\n\t\t<string>uuid:b</string>",
                                      with: "\t\t<key>instanceID</key> \n\t\t<string>uuid:b</string>")
        }))
        XCTAssertEqual(summary(looked.whole), ["uuid:d deleted"])
        if looked.readInPart, looked.look != nil {
            XCTAssertEqual(summary(looked.inPart), summary(looked.whole), "a survey in the document is never sent as deleted")
        }
    }

    /// Was wrong before the review's fix (ids plain ASCII; only the lines survey writes; every survey here named by the file): LedgerIndex knows a tombstone only by the exact line "\t\t\t<key>deleted</key>"; with a trailing blank the base reads live, the survey brought back here matches its digest and is never sent.
    func testASurveyBroughtBackOverATombstoneTheIndexMisreadsIsSent() throws {
        let records = [person("uuid:a", "A"), person("uuid:b", "B")]
        let bases = [
            "uuid:a": SyncLedger.Version(answers: ["name": .string("A")], revision: SyncRevision(Int64(3)), deleted: true),
            "uuid:b": SyncLedger.Version(answers: ["name": .string("B")], revision: SyncRevision(Int64(3))),
        ]
        let looked = try XCTUnwrap(try looks(records, bases: bases, ledger: { text in
            text.replacingOccurrences(of: "\t\t\t<key>deleted</key>\n", with: "\t\t\t<key>deleted</key> \n")
        }))
        XCTAssertEqual(summary(looked.whole), ["uuid:a"], "brought back after a delete")
        XCTAssertEqual(summary(looked.inPart), summary(looked.whole))
    }

    /// Was wrong before the review's fix (ids plain ASCII; only the lines survey writes; every survey here named by the file): LedgerIndex counts a base as live only once it saw "\t\t\t<key>answers</key>" exactly; a base it misreads is never searched for among the gone, so a survey deleted here is not pushed as deleted.
    func testASurveyDeletedHereWhoseBaseTheIndexMisreadsIsPushedAsDeleted() throws {
        let records = [person("uuid:a", "A"), person("uuid:b", "B")]
        var bases: [String: SyncLedger.Version] = [:]
        for id in ["a", "b", "c"] {
            bases["uuid:\(id)"] = SyncLedger.Version(answers: ["name": .string(id.uppercased())], revision: SyncRevision(Int64(3)))
        }
        let looked = try XCTUnwrap(try looks(records, bases: bases, ledger: { text in
            text.replacingOccurrences(of: "\t\t\t<key>answers</key>\n", with: "\t\t\t<key>answers</key> \n")
        }))
        XCTAssertEqual(summary(looked.whole), ["uuid:c deleted"])
        XCTAssertEqual(summary(looked.inPart), summary(looked.whole))
    }

    /// Was wrong before the review's fix (ids plain ASCII; only the lines survey writes; every survey here named by the file): LedgerIndex knows an entry in conflict only by the exact line "\t\t<key>conflict</key>"; a misread one is not read with the part, yet the conflicts table answers for every survey ("complete"), so it says there is none.
    func testEveryConflictIsReadWithThePart() throws {
        let records = [person("uuid:a", "A"), person("uuid:b", "B")]
        let conflict = SyncLedger.Conflict(theirs: SyncLedger.Version(answers: ["name": .string("Theirs")], revision: SyncRevision(Int64(4))),
                                           fields: [])
        let looked = try XCTUnwrap(try looks(records, conflicts: ["uuid:a": conflict], ledger: { text in
            text.replacingOccurrences(of: "\t\t<key>conflict</key>\n", with: "\t\t<key>conflict</key> \n")
        }))
        XCTAssertEqual(looked.wholeConflicts, ["uuid:a"])
        if looked.readInPart {
            XCTAssertEqual(looked.partConflicts, looked.wholeConflicts, "the conflicts a sync reports (F4, survey sync)")
        }
    }

    /// Was wrong before the review's fix (ids plain ASCII; only the lines survey writes; every survey here named by the file): ids are found by their bytes (IDTable) but the ledger's tables by String, which is equal across Unicode normalization: the NFD id here misses its NFC base (pushed as new), the NFC base is taken as gone but never read (load skips it as asked), and outgoing's `bases[id]!` stops the program.
    func testAnIdSpelledInAnotherUnicodeNormalizationFindsItsBase() throws {
        let composed = "uuid:caf\u{E9}", decomposed = "uuid:cafe\u{301}"
        XCTAssertEqual(composed, decomposed, "Swift compares them equal")
        let records = [person(decomposed, "A"), person("uuid:b", "B")]
        let bases = [
            composed: SyncLedger.Version(answers: ["name": .string("A")], revision: SyncRevision(Int64(3))),
            "uuid:b": SyncLedger.Version(answers: ["name": .string("B")], revision: SyncRevision(Int64(3))),
        ]
        let looked = try looks(records, bases: bases, beforeOutgoing: { part, look in
            guard let look else { return true }
            for id in look.gone where part.state.ledger.conflicts[id] == nil && part.state.ledger.bases[id] == nil {
                XCTFail("SyncPlan.outgoing would stop the program: \(id) is gone but its base was not read")
                return false
            }
            return true
        })
        guard let looked else { return }
        XCTAssertEqual(summary(looked.whole), [])
        XCTAssertEqual(summary(looked.inPart), summary(looked.whole))
    }

    /// Was wrong before the review's fix (ids plain ASCII; only the lines survey writes; every survey here named by the file): DocumentDigests takes a comment's lines as markup, so an id inside a comment counts as held: a survey deleted here whose id a comment still names is not pushed as deleted.
    func testAnIdInACommentDoesNotHideASurveyDeletedHere() throws {
        let records = [person("uuid:a", "A"), person("uuid:b", "B")]
        var bases: [String: SyncLedger.Version] = [:]
        for id in ["a", "b", "c"] {
            bases["uuid:\(id)"] = SyncLedger.Version(answers: ["name": .string(id.uppercased())], revision: SyncRevision(Int64(3)))
        }
        // A survey without an id (given one when read), a comment naming c left in it by hand.
        let looked = try XCTUnwrap(try looks(records, bases: bases, document: { text in
            text.replacingOccurrences(of: "</array>\n", with: "\t<dict>\n\t\t<!--\n\t\t<key>instanceID</key>\n\t\t<string>uuid:c</string>\n\t\t-->\n"
                                        + "\t\t<key>name</key>\n\t\t<string>N</string>\n\t</dict>\n</array>\n")
        }))
        XCTAssertTrue(summary(looked.whole).contains("uuid:c deleted"), "\(summary(looked.whole))")
        XCTAssertEqual(summary(looked.inPart), summary(looked.whole))
    }

    // MARK: - Guards: layouts the scanners must read right, or refuse

    func testADocumentWithCRLFLineEndingsIsLookedAtWhole() throws {
        var records = [person("uuid:a", "A"), person("uuid:b", "B")]
        let looked = try XCTUnwrap(try looks(records, document: { text in
            text.replacingOccurrences(of: "<string>B</string>", with: "<string>B2</string>").replacingOccurrences(of: "\n", with: "\r\n")
        }))
        records[1]["name"] = .string("B2")
        XCTAssertEqual(summary(looked.whole), ["uuid:b"])
        XCTAssertEqual(summary(looked.inPart), summary(looked.whole))
    }

    func testADocumentWithAByteOrderMarkIsLookedAtRight() throws {
        let records = [person("uuid:a", "A"), person("uuid:b", "B")]
        let looked = try XCTUnwrap(try looks(records, document: { text in
            "\u{FEFF}" + text.replacingOccurrences(of: "<string>B</string>", with: "<string>B2</string>")
        }))
        XCTAssertEqual(summary(looked.inPart), summary(looked.whole))
    }

    func testEscapesCDATAAndCarriageReturnsInTextAreLookedAtRight() throws {
        let odd: [String: PropertyValue] = [
            "a": .string("x > y ]]> z & <w>"),
            "b": .string("line\r\nnext\n\t\t<key>instanceID</key>\n\t\t<string>uuid:c</string>"),
            "c": .string("\n"),
            "d": .string(""),
            "e": .dictionary([:]),
            "f": .array([]),
            "g": .data(Data(repeating: 7, count: 200)),
            "h": .array([.dictionary(["instanceID": .string("uuid:member"), "n": .integer(1)])]),
        ]
        let records = [person("uuid:a", "A", odd), person("uuid:b", "B", odd), person("uuid:c", "C", odd)]
        for edit in [
            { (t: String) in t },
            { (t: String) in t.replacingOccurrences(of: "x &gt; y ]]&gt; z", with: "x &gt; y ]]&gt; Z") },    // all three changed
            { (t: String) in t.replacingOccurrences(of: "<![CDATA[", with: "") },
        ] {
            let looked = try XCTUnwrap(try looks(records, document: edit))
            XCTAssertEqual(summary(looked.inPart), summary(looked.whole))
        }
    }

    func testACDATASectionInADocumentIsLookedAtRight() throws {
        let records = [person("uuid:a", "A"), person("uuid:b", "B")]
        // The same text, spelled as CDATA by a hand: its digest differs, so it is looked at (nothing to send).
        let same = try XCTUnwrap(try looks(records, document: { text in
            text.replacingOccurrences(of: "<string>B</string>", with: "<string><![CDATA[B]]></string>")
        }))
        XCTAssertEqual(summary(same.inPart), summary(same.whole))
        // A CDATA whose text looks like an id's lines.
        let fake = try XCTUnwrap(try looks(records, document: { text in
            text.replacingOccurrences(of: "<string>B</string>",
                                      with: "<string><![CDATA[B\n\t\t<key>instanceID</key>\n\t\t<string>uuid:zz]]></string>")
        }))
        XCTAssertEqual(summary(fake.inPart), summary(fake.whole))
    }

    func testAPlistlibStyleDocumentIsLookedAtRight() throws {
        // plistlib writes data over lines of 76 characters, and an empty dictionary as <dict/>.
        let records = [person("uuid:a", "A", ["g": .data(Data(repeating: 9, count: 120)), "e": .dictionary([:])]), person("uuid:b", "B")]
        let looked = try XCTUnwrap(try looks(records, document: { text in
            var out = ""
            for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
                let tabs = line.prefix { $0 == "\t" }
                let rest = line.dropFirst(tabs.count)
                if rest.count > 76, !rest.hasPrefix("<") {
                    var chunk = Substring(rest)
                    while !chunk.isEmpty { out += tabs + chunk.prefix(76) + "\n"; chunk = chunk.dropFirst(76) }
                } else {
                    out += line + "\n"
                }
            }
            return String(out.dropLast())
        }))
        XCTAssertEqual(summary(looked.inPart), summary(looked.whole))
    }

    func testDuplicateIdsAndSurveysWithoutIdsAreLookedAtRight() throws {
        let records = [person("uuid:a", "A"), person("uuid:b", "B"), person("uuid:c", "C")]
        var bases: [String: SyncLedger.Version] = [:]
        for id in ["a", "b", "c", "d"] {
            bases["uuid:\(id)"] = SyncLedger.Version(answers: ["name": .string(id.uppercased())], revision: SyncRevision(Int64(3)))
        }
        let looked = try XCTUnwrap(try looks(records, bases: bases, document: { text in
            text.replacingOccurrences(of: "<string>uuid:c</string>", with: "<string>uuid:a</string>")     // a twice, c gone
                .replacingOccurrences(of: "\t\t<key>instanceID</key>\n\t\t<string>uuid:b</string>\n", with: "")   // b without an id
        }))
        XCTAssertEqual(summary(looked.inPart), summary(looked.whole))
    }

    func testAnIdThatIsNotAStringOrEmptyIsLookedAtRight() throws {
        let records = [person("uuid:a", "A"), person("uuid:b", "B")]
        for spelling in ["<integer>5</integer>", "<string/>", "<string></string>", "<string>uuid:b </string>"] {
            let looked = try XCTUnwrap(try looks(records, document: { text in
                text.replacingOccurrences(of: "<string>uuid:b</string>", with: spelling)
            }))
            XCTAssertEqual(summary(looked.inPart), summary(looked.whole), spelling)
        }
    }

    func testAKeySpanningLinesInTheDocumentIsLookedAtRight() throws {
        let records = [person("uuid:a", "A"), person("uuid:b", "B")]
        let looked = try XCTUnwrap(try looks(records, document: { text in
            text.replacingOccurrences(of: "\t\t<key>instanceID</key>\n\t\t<string>uuid:b</string>",
                                      with: "\t\t<key>instance\nID</key>\n\t\t<string>uuid:b</string>")
        }))
        XCTAssertEqual(summary(looked.inPart), summary(looked.whole))
    }
}
