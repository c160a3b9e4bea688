import Foundation
import XCTest
@testable import SurveyValues
@testable import SurveyForms
@testable import SurveyStorage

/// The three-way merge a save falls back on when another program changed the file.
final class MergeTests: XCTestCase {
    private func person(_ first: String, _ phone: String = "", id: String? = nil) -> Record {
        var values: [String: PropertyValue] = ["firstName": .string(first), "phone": .string(phone)]
        if let id { values[Record.instanceIDKey] = .string(id) }
        return Record(values)
    }

    func testAFieldEditAppliesWhenThatFieldIsUnchangedOnDisk() throws {
        let base = SurveyDocument(records: [person("Ada", "1", id: "uuid:a"), person("Bob", id: "uuid:b")])
        var mine = base
        mine.records[1].values["phone"] = .string("555")
        // Elsewhere: a record inserted before Bob, and Bob's first name corrected.
        var theirs = base
        theirs.records.insert(person("Cy", id: "uuid:c"), at: 0)
        theirs.records[2].values["firstName"] = .string("Robert")
        let merge = try SurveyDocument.merge(base: base, mine: mine, theirs: theirs).get()
        XCTAssertEqual(merge.document.records.map(\.values), [
            person("Cy", id: "uuid:c").values, person("Ada", "1", id: "uuid:a").values,
            person("Robert", "555", id: "uuid:b").values,
        ])
        XCTAssertEqual(merge.indexInMerged[1], 2, "Bob moved down one")
    }

    func testTheSameFieldChangedOnBothSidesIsAClash() {
        let base = SurveyDocument(records: [person("Ada", "1", id: "uuid:a")])
        var mine = base
        mine.records[0].values["phone"] = .string("2")
        var theirs = base
        theirs.records[0].values["phone"] = .string("3")
        XCTAssertEqual(SurveyDocument.merge(base: base, mine: mine, theirs: theirs),
                       .failure(SurveyDocument.MergeClash(mineIndex: 0, keys: ["phone"])))
    }

    func testARecordRemovedElsewhereIsAClashNotAnEditOfAnotherRecord() {
        let base = SurveyDocument(records: [person("Ada", id: "uuid:a"), person("Bob", id: "uuid:b")])
        var mine = base
        mine.records[0].values["phone"] = .string("2")
        let theirs = SurveyDocument(records: [person("Bob", id: "uuid:b")])
        XCTAssertEqual(SurveyDocument.merge(base: base, mine: mine, theirs: theirs),
                       .failure(SurveyDocument.MergeClash(mineIndex: 0, keys: [])))
    }

    func testAnAddedRecordIsAppendedOnceAndRecordsWithoutIdsAreFoundByTheirAnswers() throws {
        let base = SurveyDocument(records: [person("Ada"), person("Ada"), person("Bob")])
        var mine = base
        mine.records[1].values["phone"] = .string("9")
        mine.records.append(person("Dee", id: "uuid:d"))
        var theirs = base
        theirs.records.append(person("Eve"))
        let merge = try SurveyDocument.merge(base: base, mine: mine, theirs: theirs).get()
        XCTAssertEqual(merge.document.records.map { $0.values["firstName"] }, ["Ada", "Ada", "Bob", "Eve", "Dee"].map { .string($0) })
        XCTAssertEqual(merge.document.records[1].values["phone"], .string("9"), "the second Ada, at its own position")
        XCTAssertEqual(merge.document.records[0].values["phone"], .string(""))
        // A retry of the same save on a version that already has the added record adds it once.
        let again = try SurveyDocument.merge(base: base, mine: mine, theirs: merge.document).get()
        XCTAssertEqual(again.document.records.count, merge.document.records.count)
    }

    /// The first save after two copies opened a file without ids: the other copy's save gave
    /// every record an id and changed a field, so no record has the same answers any more.
    func testWithoutIdsTheRecordAtTheSamePlaceIsUsedWhenItIsClearlyTheSamePerson() throws {
        let base = SurveyDocument(records: [person("Ada", "1"), person("Bob", "2")])
        var mine = base
        mine.records[1].values["address"] = .string("Elm St")
        var theirs = base
        theirs.assignMissingInstanceIDs()
        theirs.records[1].values["phone"] = .string("22")
        let merged = try SurveyDocument.merge(base: base, mine: mine, theirs: theirs).get().document
        XCTAssertEqual(merged.records[1].values["address"], .string("Elm St"))
        XCTAssertEqual(merged.records[1].values["phone"], .string("22"))
        XCTAssertEqual(merged.records[1].instanceID, theirs.records[1].instanceID)
        // Another person at that place (the other copy replaced Bob) is a clash, not an edit of theirs.
        var replaced = theirs
        replaced.records[1] = person("Cy", "3")
        XCTAssertEqual(SurveyDocument.merge(base: base, mine: mine, theirs: replaced),
                       .failure(SurveyDocument.MergeClash(mineIndex: 1, keys: [])))
    }

    func testMissingIdsAreAssignedAndKept() {
        var doc = SurveyDocument(records: [person("Ada", id: "uuid:a"), person("Bob")])
        XCTAssertEqual(doc.assignMissingInstanceIDs(), 1)
        XCTAssertEqual(doc.records[0].instanceID, "uuid:a")
        let id = try? XCTUnwrap(doc.records[1].instanceID)
        XCTAssertTrue(id?.hasPrefix("uuid:") == true && id?.count == 41, "uuid: + 36 characters, got \(id ?? "nil")")
        XCTAssertEqual(doc.assignMissingInstanceIDs(), 0)
    }

    /// Undo and delete change the shape of the document; with ids every shape replays.
    func testWithIdsRemovalsAndInsertionsInTheMiddleReplayOnAChangedFile() throws {
        let a = person("Ada", id: "uuid:a"), b = person("Bob", id: "uuid:b"), c = person("Cy", id: "uuid:c")
        let e = person("Eve", id: "uuid:e")
        // Undo of a delete: Bob comes back between Ada and Cy, while elsewhere Eve was added.
        let undoDelete = try SurveyDocument.merge(base: SurveyDocument(records: [a, c]),
                                                  mine: SurveyDocument(records: [a, b, c]),
                                                  theirs: SurveyDocument(records: [a, c, e])).get()
        XCTAssertEqual(undoDelete.document.records.map(\.instanceID), ["uuid:a", "uuid:b", "uuid:c", "uuid:e"])
        XCTAssertEqual(undoDelete.indexInMerged, [0: 0, 1: 1, 2: 2])
        // A delete (or the undo of an add) while Ada's phone was changed elsewhere.
        var a2 = a
        a2.values["phone"] = .string("9")
        let delete = try SurveyDocument.merge(base: SurveyDocument(records: [a, b, c]),
                                              mine: SurveyDocument(records: [a, c]),
                                              theirs: SurveyDocument(records: [a2, b, c])).get()
        XCTAssertEqual(delete.document.records, [a2, c])
        // Deleting a record someone else changed meanwhile is a clash, not a silent loss.
        var b2 = b
        b2.values["phone"] = .string("7")
        XCTAssertEqual(SurveyDocument.merge(base: SurveyDocument(records: [a, b, c]),
                                            mine: SurveyDocument(records: [a, c]),
                                            theirs: SurveyDocument(records: [a, b2, c])),
                       .failure(SurveyDocument.MergeClash(mineIndex: 1, keys: [])))
    }

    func testARecordWithAnIdIsFoundAmongRecordsAnotherToolWroteWithoutIds() {
        var plain = SurveyDocument(records: [person("Ada", "1"), person("Bob", "2")])
        let withIDs = SurveyDocument(records: plain.records.enumerated().map { i, r in
            var r = r
            r.values[Record.instanceIDKey] = .string("uuid:\(i)")
            return r
        })
        plain.records.reverse()
        XCTAssertEqual(plain.locate(withIDs.records[0], near: 0), 1)
    }

    /// Another tool (plistlib) rewrote the file without ids and inserted a record first:
    /// our records are found by their answers and keep their ids.
    func testIdsComeBackWhenAnotherToolDroppedThem() throws {
        let a = person("Ada", "1", id: "uuid:a"), b = person("Bob", "2", id: "uuid:b")
        var mineB = b
        mineB.values["phone"] = .string("22")
        let theirs = SurveyDocument(records: [person("New"), person("Ada", "1"), person("Bob", "2")])
        let merged = try SurveyDocument.merge(base: SurveyDocument(records: [a, b]), mine: SurveyDocument(records: [a, mineB]),
                                              theirs: theirs).get()
        XCTAssertEqual(merged.document.records.map(\.instanceID), [nil, "uuid:a", "uuid:b"])
        XCTAssertEqual(merged.document.records[2].values["phone"], .string("22"))
        XCTAssertEqual(merged.indexInMerged, [0: 1, 1: 2])
    }

    /// Big documents are identified on every core at once: the same ids, in the same places,
    /// as one record after another, and records that had an id keep it.
    func testIdentifyingOnSeveralCoresGivesTheIdsOfOneAfterAnother() {
        var records = (0..<45_001).map { person("P\($0 % 997)", "\($0)") }
        records[30_000] = person("Kept", id: "uuid:kept")
        var doc = SurveyDocument(records: records)
        XCTAssertEqual(doc.identifyRecordsFoundWithoutIDs(), 45_000)
        for i in [0, 1, 14_999, 15_000, 29_999, 30_001, 45_000] {
            XCTAssertEqual(doc.records[i].instanceID, Record.derivedInstanceID(position: i, of: records[i]), "record \(i)")
        }
        XCTAssertEqual(doc.records[30_000].instanceID, "uuid:kept")
        XCTAssertEqual(Set(doc.records.compactMap(\.instanceID)).count, 45_001, "every id different")
    }

    func testDerivedIdsAreTheSameForTheSameFileAndDifferForDifferentRecords() {
        var one = SurveyDocument(records: [person("Ada"), person("Ada"), person("Bob", id: "uuid:b")])
        var two = one
        XCTAssertEqual(one.identifyRecordsFoundWithoutIDs(), 2)
        two.identifyRecordsFoundWithoutIDs()
        XCTAssertEqual(one, two, "every program opening the file agrees")
        XCTAssertNotEqual(one.records[0].instanceID, one.records[1].instanceID, "duplicates differ by position")
        XCTAssertEqual(one.records[2].instanceID, "uuid:b")
        let id = one.records[0].instanceID!
        XCTAssertNotNil(UUID(uuidString: String(id.dropFirst(5))), id)
        XCTAssertEqual(Array(id)[5 + 14], "8", "version 8 (custom)")
    }

    /// Window A has survey X incomplete; window B finished it, so the file holds it encrypted;
    /// A then keys a blank answer. Replayed on the file, the change must not copy a plaintext
    /// answer into the encrypted survey: it is one clash on the whole survey.
    func testAChangeToASurveyEncryptedElsewhereIsAClashOfTheWholeSurvey() {
        var draft = person("Ada", id: "uuid:x")
        draft.setIncomplete(true)
        let base = SurveyDocument(records: [draft])
        var mine = base
        mine.records[0].values["village"] = .string("Kijiji")     // a question left blank, answered
        let sealed = Record(["team": .string("Blue"), Record.Sealed.submissionKey: .data(Data([1, 2, 3])),
                             Record.Sealed.encryptedKeyKey: .string("a2V5"), Record.instanceIDKey: .string("uuid:x")])
        XCTAssertTrue(sealed.isSealed)
        let theirs = SurveyDocument(records: [sealed])
        switch SurveyDocument.merge(base: base, mine: mine, theirs: theirs) {
        case .success(let merge):
            XCTFail("merged into the encrypted survey: \(merge.document.records.map(\.values))")
        case .failure(let clash):
            XCTAssertEqual(clash.mineIndex, 0)
            XCTAssertFalse(clash.keys.isEmpty)
        }
        // The encrypted survey itself, over an unchanged original, is replayed whole (a redo of its Add).
        var target = draft
        XCTAssertEqual(SurveyDocument.replay(from: draft, to: sealed, on: &target), [])
        XCTAssertEqual(target, sealed)
        // A change to an encrypted survey the file holds otherwise is a clash too.
        var other = sealed
        other.values[Record.Sealed.submissionKey] = .data(Data([4]))
        target = other
        XCTAssertFalse(SurveyDocument.replay(from: sealed, to: draft, on: &target).isEmpty)
        XCTAssertEqual(target, other)
    }

    /// A new survey here under an id the file already holds: a retry of this save got in first
    /// (a save that landed, then reported a failure), so it is that survey, added once, even
    /// where the file's copy differs from this one (stored encrypted there, or stamped). Two
    /// windows never add two interviews under one id: an Add's survey gets its id at its own
    /// save, a fresh one.
    func testANewSurveyWhoseIDTheFileHoldsIsAddedOnce() throws {
        for withIDs in [true, false] {
            let base = SurveyDocument(records: withIDs ? [person("Ada", id: "uuid:a")] : [person("Ada")])
            var mine = base
            mine.records.append(person("Bea", "2", id: "uuid:n"))
            var theirs = base
            theirs.records.append(person("Bea", "encrypted", id: "uuid:n"))
            let merge = try SurveyDocument.merge(base: base, mine: mine, theirs: theirs).get()
            XCTAssertEqual(merge.document, theirs, "ids \(withIDs): the survey once, as the file has it")
            XCTAssertEqual(merge.indexInMerged[1], 1, "ids \(withIDs): found where it is")
            let again = try SurveyDocument.merge(base: base, mine: mine, theirs: mine).get()
            XCTAssertEqual(again.document, mine, "ids \(withIDs): the same copy, once")
        }
    }
}
