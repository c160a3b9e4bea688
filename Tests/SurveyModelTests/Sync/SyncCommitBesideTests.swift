import Foundation
import XCTest
@testable import SurveyValues
@testable import SurveyForms
@testable import SurveyStorage

/// A large sync writes its ledger on a second thread while it writes the deleted surveys and
/// the document, putting it in place after them (`SideWrite`). Here the threshold is lowered
/// so a small folder takes that path; each file's write or install then fails in turn: the three files
/// hold exactly what they held, no temporary file stays, and the other thread is done.
final class SyncCommitBesideTests: TemporaryFolderTestCase {
    private var threshold = 0

    override func setUp() {
        super.setUp()
        threshold = DocumentStore.ledgerWrittenBesideFrom
        DocumentStore.ledgerWrittenBesideFrom = 0
    }

    override func tearDown() {
        DocumentStore.ledgerWrittenBesideFrom = threshold
        super.tearDown()
    }

    private var urls: [URL] { [store.url(for: "Field"), store.deletedURL(for: "Field"), store.syncURL(for: "Field")] }

    private func bytes() -> [Data?] { urls.map { try? Data(contentsOf: $0) } }

    func testTheLedgerWrittenBesideLandsLastAndAFailureAnywherePutsEveryFileBack() throws {
        let file = try prepareThreeFileMerge()
        let before = bytes()
        let names = urls.map(\.lastPathComponent)

        // Each file's install (the rename onto it) fails in turn.
        for name in names {
            let failing = DocumentStore(folder: folder, fileSystem: .failing { op, path in
                op == .rename && path?.hasSuffix("/" + name) == true ? ENOSPC : nil
            })
            for (url, data) in zip(urls, before) { try data!.write(to: url) }
            XCTAssertThrowsError(try failing.mergeOtherCopies([file], into: "Field", write: true, at: Date()), name)
            XCTAssertEqual(bytes(), before, "\(name) could not be put in place, so every file is as it was")
            XCTAssertEqual(try folderContents().filter { $0.contains(".tmp-") || $0.hasSuffix(".before-sync") }, [], name)
        }

        // The Nth write of content fails, whichever thread makes it (the two race): the merge is
        // then refused with every file as it was, or, past the last write, done whole.
        for n in 1...8 {
            let count = LockedCount()
            let failing = DocumentStore(folder: folder, fileSystem: .failing { op, _ in
                op == .write && count.next() == n ? EIO : nil
            })
            for (url, data) in zip(urls, before) { try data!.write(to: url) }
            let outcome = Result { try failing.mergeOtherCopies([file], into: "Field", write: true, at: Date()) }
            if case .success = outcome {
                XCTAssertTrue(zip(before, bytes()).allSatisfy { $0 != $1 }, "write \(n): succeeded, so all three changed")
                XCTAssertEqual(try store.load("Field").get().records.map(\.instanceID), ["uuid:ana"], "write \(n)")
                XCTAssertEqual(try DocumentStore.readLedger(at: store.syncURL(for: "Field")).bases["uuid:ana"]?.answers["age"],
                               .integer(31), "write \(n)")
            } else {
                XCTAssertEqual(bytes(), before, "write \(n) failed: every file as it was")
            }
            XCTAssertEqual(try folderContents().filter { $0.contains(".tmp-") || $0.hasSuffix(".before-sync") }, [], "write \(n)")
        }

        // The temporary file of each fails to open (a full disk): nothing is written.
        for name in names {
            let stem = name.hasPrefix(".") ? String(name.dropFirst()) : name
            let failing = DocumentStore(folder: folder, fileSystem: .failing { op, path in
                op == .open && path.map { ($0 as NSString).lastPathComponent.hasPrefix(".\(stem).tmp-") } == true ? ENOSPC : nil
            })
            for (url, data) in zip(urls, before) { try data!.write(to: url) }
            XCTAssertThrowsError(try failing.mergeOtherCopies([file], into: "Field", write: true, at: Date()), name)
            XCTAssertEqual(bytes(), before, "\(name) could not be written, so every file is as it was")
            XCTAssertEqual(try folderContents().filter { $0.contains(".tmp-") || $0.hasSuffix(".before-sync") }, [], name)
        }

        // Nothing failing: all three written, the ledger read back as merged.
        for (url, data) in zip(urls, before) { try data!.write(to: url) }
        XCTAssertTrue(try store.mergeOtherCopies([file], into: "Field", write: true, at: Date()).written)
        XCTAssertTrue(zip(before, bytes()).allSatisfy { $0 != $1 }, "the merge changes all three files")
        let snapshot = try store.syncSnapshot(of: "Field")
        XCTAssertEqual(snapshot.state.records.map(\.instanceID), ["uuid:ana"])
        XCTAssertEqual(snapshot.state.ledger, try DocumentStore.readLedger(at: store.syncURL(for: "Field")))
        XCTAssertEqual(snapshot.state.ledger.bases["uuid:ana"]?.answers["age"], .integer(31))
    }
}

/// A counter two threads can share.
private final class LockedCount: @unchecked Sendable {
    private let lock = NSLock()
    private var value = 0
    func next() -> Int { lock.withLock { value += 1; return value } }
}
