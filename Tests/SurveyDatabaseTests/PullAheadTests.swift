import Foundation
import XCTest
@testable import SurveyDatabase
import SurveyValues
import SurveyForms
import SurveyStorage
import SurveyTestSupport

/// A long pull asks for its next batch before it reads the one it has
/// (`SurveyServer.pull`'s `ahead`, `DatabaseConnection.sendAhead`), so the server prepares it
/// meanwhile. What comes must be exactly what a pull batch by batch brings, and a statement
/// sent ahead is never the answer to any other.
final class PullAheadTests: DatabaseTestCase {
    func testAStatementSentAheadAnswersOnlyItselfAndAnyOtherDropsIt() throws {
        try initialize()
        let connection = try DatabaseConnection(target())
        defer { connection.close() }
        connection.sendAhead("SELECT $1::text", ["sent ahead"])
        XCTAssertEqual(try connection.execute("SELECT $1::text", ["asked"]).scalar, "asked", "other parameters: another statement")
        XCTAssertEqual(try connection.execute("SELECT $1::text", ["sent ahead"]).scalar, "sent ahead", "asked again after it was dropped")

        connection.sendAhead("SELECT $1::text", ["sent ahead"])
        connection.readAhead()
        XCTAssertEqual(try connection.execute("SELECT $1::text", ["sent ahead"]).scalar, "sent ahead")
        XCTAssertEqual(try connection.execute("SELECT 2").scalar, "2", "nothing left over from the statement sent ahead")

        // A statement sent ahead that fails: its error is its own, never another's.
        connection.sendAhead("SELECT 1 / $1::int", ["0"])
        XCTAssertEqual(try connection.execute("SELECT 3").scalar, "3")
        connection.sendAhead("SELECT 1 / $1::int", ["0"])
        XCTAssertThrowsError(try connection.execute("SELECT 1 / $1::int", ["0"])) { error in
            XCTAssertTrue("\(error)".contains("division by zero"), "\(error)")
        }
        // A transaction begun while a statement is ahead.
        connection.sendAhead("SELECT 4", [])
        XCTAssertEqual(try connection.transaction { try connection.execute("SELECT 5").scalar }, "5")
        connection.sendAhead("SELECT 6", [])
    }

    /// Batches of 4 asked ahead, a count between batches (as `DocumentSync.pullAll` asks once)
    /// and a teammate's push in the middle: the same rows and cursors as batch by batch.
    func testAPullAskingAheadBringsWhatABatchByBatchPullBrings() throws {
        try initialize()
        let ana = try enumerator("ana")
        let bruno = try enumerator("bruno")
        var written: [ClosedRange<Int64>] = []
        XCTAssertTrue(try ana.push((1...13).map { survey("uuid:a\($0)", name: "Ana \($0)") }, batchSize: 5, written: { written.append($0) })
            .allSatisfy(\.isStored))
        XCTAssertTrue(try bruno.push((1...11).map { survey("uuid:b\($0)", name: "Bo \($0)") }).allSatisfy(\.isStored))
        // Ana's first batch is hers already: skipped, in both pulls.
        let skipping = Array(written.prefix(1))

        func pullEverything(ahead: Bool, countBetween: Bool, teammateAfter: Int?) throws -> (rows: [IncomingRow], cursors: [Int64]) {
            var cursor: Int64 = 0
            var rows: [IncomingRow] = []
            var cursors: [Int64] = []
            var batches = 0
            while true {
                let batch = try ana.pull(dataset: "household", since: cursor, limit: 4, skipping: skipping, ahead: ahead)
                rows += batch.rows
                cursors.append(batch.cursor)
                batches += 1
                if countBetween { _ = try ana.changesWaiting(dataset: "household", since: batch.cursor, skipping: skipping) }
                if batches == teammateAfter { XCTAssertTrue(try bruno.push([survey("uuid:late", name: "Late")]).allSatisfy(\.isStored)) }
                if batch.rows.count < 4 { break }
                cursor = batch.cursor
            }
            return (rows, cursors)
        }
        let plain = try pullEverything(ahead: false, countBetween: false, teammateAfter: nil)
        XCTAssertEqual(plain.rows.count, 8 + 11)
        XCTAssertEqual(try pullEverything(ahead: true, countBetween: false, teammateAfter: nil).rows, plain.rows)
        let counted = try pullEverything(ahead: true, countBetween: true, teammateAfter: nil)
        XCTAssertEqual(counted.rows, plain.rows)
        XCTAssertEqual(counted.cursors, plain.cursors)
        // A row written after the next batch was asked for comes all the same, after the rest.
        let withLate = try pullEverything(ahead: true, countBetween: false, teammateAfter: 2)
        XCTAssertEqual(withLate.rows.map(\.instanceID), plain.rows.map(\.instanceID) + ["uuid:late"])
        XCTAssertEqual(Array(withLate.rows.prefix(plain.rows.count)), plain.rows)
    }

    /// What `survey sync` runs, over batches of 1,000 asked ahead: every survey arrives once,
    /// as sent, and the next sync finds nothing.
    func testALongFirstPullTakesEverySurveyOnce() throws {
        try initialize()
        let ana = try loginRole("ana", in: "survey_enumerator")
        let bruno = try loginRole("bruno", in: "survey_enumerator")
        let records = (0..<3_500).map { i in
            Record([Record.instanceIDKey: .string("uuid:r\(i)"), "name": .string("Person \(i)"), "age": .integer(i % 90),
                    "visit": .date(Date(timeIntervalSince1970: 1_700_000_000 + Double(i))), "ratio": .real(i % 7 == 0 ? .nan : 0.5)])
        }
        let a = try laptop(records)
        XCTAssertEqual(try DocumentSync.run(store: a, document: "Field", target: target(as: ana), device: "A", at: { Date() }).pushed, 3_500)
        let b = try laptop()
        XCTAssertEqual(try DocumentSync.run(store: b, document: "Field", target: target(as: bruno), device: "B", at: { Date() }).pulled, 3_500)
        let pulled = try b.load("Field").get().records
        XCTAssertEqual(pulled.count, 3_500)
        XCTAssertEqual(Set(pulled.compactMap(\.instanceID)).count, 3_500)
        let byID = Dictionary(uniqueKeysWithValues: records.map { ($0.instanceID!, $0) })
        for record in pulled { XCTAssertEqual(record, byID[record.instanceID!], record.instanceID!) }
        XCTAssertEqual(try DocumentSync.run(store: b, document: "Field", target: target(as: bruno), device: "B", at: { Date() }).message,
                       "Synced “Field”: 0 in, 0 out")
    }
}
