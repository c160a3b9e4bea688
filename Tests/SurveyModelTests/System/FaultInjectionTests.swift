import Foundation
import XCTest
import SurveyTestSupport
@testable import SurveyValues
@testable import SurveyForms
@testable import SurveyStorage

/// Every save, journal, trash, draft, deleted-list, recovery and import path, run once to
/// count the system calls it makes through the store's `FileSystem`, then again with each of
/// those calls failing in turn (EIO, then ENOSPC), as SQLite's test VFS runs its I/O errors.
/// After every failure: the operation either threw or finished whole, no temporary file is
/// left, and every byte the folder held before is still in some file (nothing lost). No root,
/// no tmpfs: this runs in every `swift test`.
final class FaultInjectionTests: TemporaryFolderTestCase {
    /// Counts the calls made once armed, and fails the one numbered `failAt` with `code`.
    final class Plan: @unchecked Sendable {
        private let lock = NSLock()
        private var armed = false
        private var count = 0
        private var failAt: Int?
        private var code: Int32 = EIO
        private(set) var failed: String?

        func arm(failing call: Int?, with code: Int32) {
            lock.lock(); defer { lock.unlock() }
            armed = true; count = 0; failAt = call; self.code = code; failed = nil
        }

        var calls: Int { lock.lock(); defer { lock.unlock() }; return count }

        var fileSystem: FileSystem {
            .failing { [self] operation, path in
                lock.lock(); defer { lock.unlock() }
                guard armed else { return nil }
                count += 1
                guard count == failAt else { return nil }
                failed = "call \(count), \(operation.rawValue) \(path.map { ($0 as NSString).lastPathComponent } ?? "")"
                return code
            }
        }
    }

    /// One path: `setUp` builds the folder it starts from (with the live calls), `run` is the
    /// operation under test, `succeeded` checks the folder after it returned.
    struct Path {
        let name: String
        var setUp: (DocumentStore) throws -> Void = { _ in }
        let run: (DocumentStore) throws -> Void
        let succeeded: (DocumentStore) throws -> Void
        /// Checks the folder after `run` threw; the common checks come on top.
        var failed: (DocumentStore) throws -> Void = { _ in }
    }

    private static func survey(_ first: String, id: String) -> Record {
        var record = Record.sample(first: first)
        record.values[Record.instanceIDKey] = .string("uuid:\(id)")
        return record
    }

    private static let ada = survey("Ada", id: "ada")
    private static let bo = survey("Bo", id: "bo")
    private static let cy = survey("Cy", id: "cy")
    /// Ada with her phone changed here, and with it and her address changed by another program.
    private static let adaHere: Record = { var r = ada; r["phone"] = .string("777"); return r }()
    private static let adaThere: Record = {
        var r = ada; r["phone"] = .string("000"); r["address"] = .string("Rua 9"); return r
    }()

    private func records(_ store: DocumentStore, _ name: String) throws -> [Record] {
        try store.load(name).get().records.map { $0 }
    }

    private var paths: [Path] {
        [
            Path(name: "save", setUp: { try $0.save(SurveyDocument(records: [Self.ada]), as: "Site") },
                 run: { _ = try $0.save(SurveyDocument(records: [Self.ada, Self.bo]), as: "Site") },
                 succeeded: { XCTAssertEqual(try self.records($0, "Site"), [Self.ada, Self.bo]) },
                 failed: { XCTAssertEqual(try self.records($0, "Site"), [Self.ada]) }),
            Path(name: "guarded save", setUp: { try $0.save(SurveyDocument(records: [Self.ada]), as: "Site") },
                 run: { store in
                     _ = try store.save(SurveyDocument(records: [Self.bo]), as: "Site", ifStill: store.fingerprint(of: "Site"))
                 },
                 succeeded: { XCTAssertEqual(try self.records($0, "Site"), [Self.bo]) },
                 failed: { XCTAssertEqual(try self.records($0, "Site"), [Self.ada]) }),
            Path(name: "create",
                 run: { _ = try $0.create(named: "Fresh", containing: SurveyDocument(records: [Self.ada])) },
                 succeeded: { XCTAssertEqual(try self.records($0, "Fresh"), [Self.ada]) },
                 failed: { store in
                     // Created whole or not at all.
                     if store.exists("Fresh") { XCTAssertEqual(try self.records(store, "Fresh"), [Self.ada]) }
                 }),
            Path(name: "import", setUp: { try $0.save(SurveyDocument(records: [Self.ada]), as: "Site") },
                 run: { try $0.append([Self.bo, Self.cy], to: .existing("Site"), questionnaire: .standard) },
                 succeeded: { XCTAssertEqual(try self.records($0, "Site").count, 3) },
                 failed: { XCTAssertEqual(try self.records($0, "Site"), [Self.ada]) }),
            Path(name: "draft", setUp: { try $0.save(SurveyDocument(), as: "Site"); try $0.saveDraft(Self.ada, for: "Site", in: .standard) },
                 run: { try $0.saveDraft(Self.bo, for: "Site", in: .standard) },
                 succeeded: { XCTAssertEqual($0.loadDraft(for: "Site").values, Self.bo.values) },
                 failed: { XCTAssertEqual($0.loadDraft(for: "Site").values, Self.ada.values) }),
            Path(name: "deleted list", setUp: { store in
                     try store.save(SurveyDocument(), as: "Site")
                     try store.appendDeleted([Self.ada], for: "Site", at: Date())
                 },
                 run: { try $0.appendDeleted([Self.bo], for: "Site", at: Date()) },
                 succeeded: { XCTAssertEqual($0.deletedRecords(for: "Site").map(\.record.instanceID), ["uuid:ada", "uuid:bo"]) },
                 failed: { XCTAssertEqual($0.deletedRecords(for: "Site").map(\.record.instanceID), ["uuid:ada"]) }),
            Path(name: "trash", setUp: { store in
                     try store.save(SurveyDocument(records: [Self.ada]), as: "Site")
                     try store.saveDraft(Self.bo, for: "Site", in: .standard)
                     try store.appendDeleted([Self.cy], for: "Site", at: Date())
                 },
                 run: { _ = try $0.delete("Site", at: Date()) },
                 succeeded: { store in
                     XCTAssertFalse(store.exists("Site"))
                     XCTAssertEqual(store.trash().count, 1)
                 },
                 failed: { store in
                     // All of it back in place: the document with its draft and deleted list.
                     XCTAssertEqual(try self.records(store, "Site"), [Self.ada])
                     XCTAssertEqual(store.loadDraft(for: "Site").values, Self.bo.values)
                     XCTAssertEqual(store.deletedRecords(for: "Site").count, 1)
                 }),
            Path(name: "restore from the trash", setUp: { store in
                     try store.save(SurveyDocument(records: [Self.ada]), as: "Site")
                     try store.saveDraft(Self.bo, for: "Site", in: .standard)
                     _ = try store.delete("Site", at: Date())
                 },
                 run: { _ = try $0.restore("Site", at: Date()) },
                 succeeded: { XCTAssertEqual(try self.records($0, "Site"), [Self.ada]) },
                 failed: { store in
                     XCTAssertFalse(store.exists("Site"))
                     XCTAssertEqual(store.trash().count, 1, "still in the trash, whole")
                 }),
            Path(name: "rename", setUp: { store in
                     try store.save(SurveyDocument(records: [Self.ada]), as: "Site")
                     try store.saveDraft(Self.bo, for: "Site", in: .standard)
                 },
                 run: { _ = try $0.rename("Site", to: "Farm", at: Date()) },
                 succeeded: { store in
                     XCTAssertEqual(try self.records(store, "Farm"), [Self.ada])
                     XCTAssertEqual(store.loadDraft(for: "Farm").values, Self.bo.values, "the draft goes with it")
                 },
                 failed: { store in
                     XCTAssertEqual(try self.records(store, "Site"), [Self.ada])
                     XCTAssertEqual(store.loadDraft(for: "Site").values, Self.bo.values)
                 }),
            Path(name: "recovery", run: { _ = try $0.saveRecovery([Self.ada], for: "Site", at: Date()) },
                 succeeded: { XCTAssertEqual($0.recoveries().first?.records, [Self.ada]) },
                 failed: { store in
                     for recovery in store.recoveries() { XCTAssertEqual(recovery.records, [Self.ada], "whole or not at all") }
                 }),
            Path(name: "recovery of a clash", run: { _ = try $0.saveRecovery([Self.adaThere], bases: [Self.ada], for: "Site", at: Date()) },
                 succeeded: { store in
                     let kept = store.recoveries().first
                     XCTAssertEqual(kept?.records, [Self.adaThere])
                     XCTAssertTrue(kept?.bases == [:] || kept?.bases == ["uuid:ada": Self.ada], "its base whole, or none")
                 },
                 failed: { store in
                     for recovery in store.recoveries() { XCTAssertEqual(recovery.records, [Self.adaThere], "whole or not at all") }
                 }),
            Path(name: "kept surveys merged back", setUp: { store in
                     try store.save(SurveyDocument(records: [Self.adaHere]), as: "Site")
                     try store.saveRecovery([Self.adaThere], bases: [Self.ada], for: "Site", at: Date())
                 },
                 run: { store in
                     let kept = try XCTUnwrap(store.recoveries().first)
                     try store.restore(kept, theirsWhereBothChanged: true, clock: .wall)
                 },
                 succeeded: { store in
                     // Put away, or (a failed move to .trash) offered again.
                     XCTAssertEqual(try self.records(store, "Site").map { $0["phone"] }, [.string("000")])
                     XCTAssertEqual(try self.records(store, "Site").map { $0["address"] }, [.string("Rua 9")])
                 },
                 failed: { store in
                     XCTAssertEqual(try self.records(store, "Site"), [Self.adaHere], "the document as it was")
                     XCTAssertEqual(store.recoveries().map(\.records), [[Self.adaThere]], "still offered")
                 }),
            Path(name: "journal commit", setUp: { store in
                     try store.save(SurveyDocument(records: [Self.ada]), as: "Site")
                     let journal = try XCTUnwrap(try DocumentJournal.open(at: store.journalURL(for: "Site"), in: .live))
                     try journal.append([.put(index: 0, record: Self.bo)])
                 },
                 run: { store in
                     // A lock refused here is a journal held elsewhere: the app then saves whole files.
                     guard let journal = try DocumentJournal.open(at: store.journalURL(for: "Site"), in: store.fileSystem) else {
                         throw DocumentError("journal held elsewhere")
                     }
                     try journal.append([.put(index: 1, record: Self.cy)])
                 },
                 succeeded: { store in
                     XCTAssertEqual(DocumentJournal.entries(at: store.journalURL(for: "Site")),
                                    [.put(index: 0, record: Self.bo), .put(index: 1, record: Self.cy)])
                 },
                 failed: { store in
                     // The commit is refused whole: the entry before it stands, no torn tail.
                     XCTAssertEqual(DocumentJournal.entries(at: store.journalURL(for: "Site")), [.put(index: 0, record: Self.bo)])
                 }),
            Path(name: "new journal", setUp: { try $0.save(SurveyDocument(records: [Self.ada]), as: "Site") },
                 run: { store in
                     guard let journal = try DocumentJournal.open(at: store.journalURL(for: "Site"), in: store.fileSystem) else {
                         throw DocumentError("journal held elsewhere")
                     }
                     try journal.append([.put(index: 1, record: Self.cy)])
                 },
                 succeeded: { XCTAssertEqual(DocumentJournal.entries(at: $0.journalURL(for: "Site")), [.put(index: 1, record: Self.cy)]) },
                 failed: { store in
                     // Nothing, or a header alone: a later open writes on as a journal.
                     let url = store.journalURL(for: "Site")
                     if FileManager.default.fileExists(atPath: url.path) {
                         let data = (try? Data(contentsOf: url)) ?? Data()
                         XCTAssertTrue(data.isEmpty || DocumentJournal.entries(at: url) == [], "a journal the loader takes, or empty")
                     }
                 }),
            Path(name: "putting back a journal", setUp: { store in
                     try store.save(SurveyDocument(records: [Self.ada]), as: "Site")
                     let journal = try XCTUnwrap(try DocumentJournal.open(at: store.journalURL(for: "Site"), in: .live))
                     try journal.append([.put(index: 1, record: Self.bo)])
                 },
                 run: { _ = try $0.putBackJournal(of: "Site") },
                 succeeded: { XCTAssertEqual(try self.records($0, "Site"), [Self.ada, Self.bo]) },
                 failed: { store in
                     // Either put back (and the journal kept or gone), or both as they were.
                     XCTAssertEqual(store.loadWithJournal("Site").map { $0.records.map { $0 } }, .success([Self.ada, Self.bo]))
                 }),
        ]
    }

    /// Every byte string held by a file under the folder (the trash included), and the
    /// names of temporary files.
    private func contents() throws -> (data: [Data], temporary: [String]) {
        var data: [Data] = []
        var temporary: [String] = []
        let enumerator = FileManager.default.enumerator(atPath: folder.path)
        while let entry = enumerator?.nextObject() as? String {
            var isFolder: ObjCBool = false
            let path = folder.appendingPathComponent(entry).path
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), !isFolder.boolValue else { continue }
            if entry.contains(".tmp-") || entry.contains(".backup-") { temporary.append(entry) }
            data.append(try Data(contentsOf: URL(fileURLWithPath: path)))
        }
        return (data, temporary)
    }

    private func reset() throws {
        try FileManager.default.removeItem(at: folder)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    func testEveryCallOfEveryPathFailingInTurnLosesNothing() throws {
        var failures = 0
        for path in paths {
            let plan = Plan()
            let store = DocumentStore(folder: folder, fileSystem: plan.fileSystem)
            try reset()
            try path.setUp(DocumentStore(folder: folder))
            plan.arm(failing: nil, with: EIO)
            try path.run(store)
            try path.succeeded(store)
            let calls = plan.calls
            XCTAssertGreaterThan(calls, 0, "\(path.name) makes its calls through the file system")
            for code in [EIO, ENOSPC] {
                for call in 1...calls {
                    try reset()
                    try path.setUp(DocumentStore(folder: folder))
                    let before = try contents().data
                    plan.arm(failing: call, with: code)
                    let context = "\(path.name), \(String(cString: strerror(code))) at call \(call) of \(calls)"
                    do {
                        try path.run(store)
                        try path.succeeded(store)
                    } catch {
                        failures += 1
                        XCTAssertNotNil(plan.failed, "\(context): failed without the fault: \(error)")
                        try path.failed(store)
                        let after = try contents().data
                        for bytes in before {
                            XCTAssertTrue(after.contains(bytes), "\(context): \(bytes.count) bytes the folder held are gone")
                        }
                    }
                    XCTAssertEqual(try contents().temporary, [], "\(context): no temporary file left")
                }
            }
        }
        XCTAssertGreaterThan(failures, 0, "the faults made operations fail")
    }
}
