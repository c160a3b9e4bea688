import Foundation
import XCTest
@testable import SurveyValues
@testable import SurveyForms
@testable import SurveyStorage

/// A merge writes three files (deleted surveys, document, ledger). Each system call of that
/// commit fails in turn (EIO, then ENOSPC): after every failure the three files hold exactly
/// the bytes they held before, and no temporary file is left; with no failure, all three
/// changed.
final class SyncCommitFaultTests: TemporaryFolderTestCase {
    private func bytes() throws -> [Data?] {
        [store.url(for: "Field"), store.deletedURL(for: "Field"), store.syncURL(for: "Field")].map { try? Data(contentsOf: $0) }
    }

    func testEveryFailedCallLeavesTheDocumentDeletedSurveysAndLedgerAsTheyWere() throws {
        let file = try prepareThreeFileMerge()
        let before = try bytes()
        let plan = FaultInjectionTests.Plan()
        let failing = DocumentStore(folder: folder, fileSystem: plan.fileSystem)
        let date = Date(timeIntervalSince1970: 1_700_000_000)

        // Counted once, on a copy of the folder's state restored afterwards.
        plan.arm(failing: nil, with: EIO)
        XCTAssertTrue(try failing.mergeOtherCopies([file], into: "Field", write: true, at: date).written)
        let calls = plan.calls
        let after = try bytes()
        XCTAssertTrue(zip(before, after).allSatisfy { $0 != $1 }, "the merge changes all three files")
        XCTAssertEqual(try store.load("Field").get().records.map(\.instanceID), ["uuid:ana"])
        XCTAssertGreaterThan(calls, 6)

        for code in [EIO, ENOSPC] {
            for call in 1...calls {
                for (url, data) in zip([store.url(for: "Field"), store.deletedURL(for: "Field"), store.syncURL(for: "Field")], before) {
                    try data!.write(to: url)
                }
                plan.arm(failing: call, with: code)
                let outcome = Result { try failing.mergeOtherCopies([file], into: "Field", write: true, at: date) }
                plan.arm(failing: nil, with: code)
                let now = try bytes()
                if case .success = outcome {
                    // A failure the commit does not depend on (a leftover-file sweep): finished whole.
                    XCTAssertEqual(now, after, "call \(call) (\(plan.failed ?? "")): succeeded, so finished whole")
                } else {
                    XCTAssertEqual(now, before, "call \(call) (\(plan.failed ?? "")) failed: files as they were")
                }
                XCTAssertEqual(try folderContents().filter { $0.contains(".tmp-") }, [], "call \(call)")
            }
        }
    }

    /// The old files are kept aside by a hard link while a commit replaces them (no copy of a
    /// large document in memory), none left after; where the folder's file system has no
    /// hard links (a FAT USB stick), by their bytes, and a failed commit still puts back all.
    func testWithoutHardLinksAFailedCommitStillPutsEveryFileBack() throws {
        let file = try prepareThreeFileMerge()
        let before = try bytes()
        let ledgerPath = store.syncURL(for: "Field").path
        let noLinks = DocumentStore(folder: folder, fileSystem: .failing { operation, path in
            if operation == .link { return EPERM }
            return operation == .rename && path == ledgerPath ? ENOSPC : nil
        })
        XCTAssertThrowsError(try noLinks.mergeOtherCopies([file], into: "Field", write: true, at: Date()))
        XCTAssertEqual(try bytes(), before)

        let linked = DocumentStore(folder: folder, fileSystem: .failing { operation, path in
            operation == .rename && path == ledgerPath ? ENOSPC : nil
        })
        XCTAssertThrowsError(try linked.mergeOtherCopies([file], into: "Field", write: true, at: Date()))
        XCTAssertEqual(try bytes(), before)
        XCTAssertEqual(try folderContents().filter { $0.hasSuffix(".before-sync") }, [])

        XCTAssertTrue(try noLinks.mergeOtherCopies([file], into: "Field", write: false, at: Date()).written == false)
        XCTAssertTrue(try store.mergeOtherCopies([file], into: "Field", write: true, at: Date()).written)
        XCTAssertEqual(try folderContents().filter { $0.hasSuffix(".before-sync") }, [], "nothing left aside")
    }
}

extension TemporaryFolderTestCase {
    fileprivate func survey(_ id: String, _ answers: [String: PropertyValue]) -> Record {
        var values = answers
        values[Record.instanceIDKey] = .string(id)
        return Record(values)
    }

    /// "Field" holds Ana (age 30) and Bo; its ledger has both at revision 1. The other copy
    /// (in `usb/`) has Ana at 31 and Bo deleted: merging it changes all three files here (the
    /// commit's fault tests, inline and with the ledger written beside).
    func prepareThreeFileMerge() throws -> URL {
        let ana = survey("uuid:ana", ["firstName": .string("Ana"), "age": .integer(30)])
        let bo = survey("uuid:bo", ["firstName": .string("Bo")])
        try store.save(SurveyDocument(records: [ana, bo]), as: "Field")
        var ledger = SyncLedger()
        ledger.bases["uuid:ana"] = SyncLedger.Version(answers: ana.answers, revision: SyncRevision(1))
        ledger.bases["uuid:bo"] = SyncLedger.Version(answers: bo.answers, revision: SyncRevision(1))
        try store.writeLedger(ledger, for: "Field")
        try store.appendDeleted([survey("uuid:old", ["firstName": .string("Old")])], for: "Field",
                                at: Date(timeIntervalSince1970: 1_600_000_000))
        let usb = folder.appendingPathComponent("usb", isDirectory: true)
        try FileManager.default.createDirectory(at: usb, withIntermediateDirectories: true)
        let other = DocumentStore(folder: usb)
        try other.save(SurveyDocument(records: [survey("uuid:ana", ["firstName": .string("Ana"), "age": .integer(31)])]), as: "Field")
        try other.writeLedger(ledger, for: "Field")
        return other.url(for: "Field")
    }
}
