import Foundation
import XCTest
import SurveyTestSupport
@testable import SurveyValues
@testable import SurveyForms
@testable import SurveyStorage

/// Saving only over the file we know, with the check and the write one step under the
/// folder's lock: another program's save can never land between them and be written over.
final class GuardedSaveTests: XCTestCase {
    private var folder: URL!
    private var store: DocumentStore!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("survey-guarded-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        store = DocumentStore(folder: folder)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: folder)
    }

    private func doc(_ names: String...) -> SurveyDocument {
        SurveyDocument(records: names.map { Record(["firstName": .string($0)]) })
    }

    func testASaveOverAFileThatChangedSinceIsRefusedAndWritesNothing() throws {
        try store.save(doc("Ann"), as: "Site")
        let known = store.fingerprint(of: "Site")
        try store.save(doc("Ann", "Theirs"), as: "Site")              // another program
        let theirs = try Data(contentsOf: store.url(for: "Site"))
        XCTAssertEqual(try store.save(doc("Ann", "Mine"), as: "Site", ifStill: known), .changed(store.fingerprint(of: "Site")))
        XCTAssertEqual(try Data(contentsOf: store.url(for: "Site")), theirs)
        guard case .saved(let now, 0) = try store.save(doc("Ann", "Theirs", "Mine"), as: "Site",
                                                       ifStill: store.fingerprint(of: "Site")) else { return XCTFail() }
        XCTAssertEqual(now, store.fingerprint(of: "Site"))
        XCTAssertEqual(try store.load("Site").get().records.count, 3)
    }

    /// Another process holds the folder's lock and saves while this save waits for it: this
    /// one sees the change instead of checking first and writing over it afterwards.
    func testAnotherProgramSavingDuringThisSaveIsNeverWrittenOver() throws {
        try store.save(doc("Ann"), as: "Site")
        let known = store.fingerprint(of: "Site")
        let go = folder.appendingPathComponent("go"), locked = folder.appendingPathComponent("locked")
        let script = """
            import fcntl, os, sys, time, plistlib
            folder = sys.argv[1]
            fd = os.open(folder, os.O_RDONLY)
            fcntl.flock(fd, fcntl.LOCK_EX)
            open(os.path.join(folder, "locked"), "w").close()
            while not os.path.exists(os.path.join(folder, "go")): time.sleep(0.01)
            # Until this save waits for the lock: /proc/locks lists a blocked flock as "-> FLOCK".
            st = os.stat(folder)
            node = "%02x:%02x:%d " % (os.major(st.st_dev), os.minor(st.st_dev), st.st_ino)
            deadline = time.time() + 10
            while time.time() < deadline and not any("->" in l and node in l for l in open("/proc/locks")):
                time.sleep(0.01)
            with open(os.path.join(folder, "Site.plist"), "wb") as f:
                plistlib.dump([{"firstName": "Ann"}, {"firstName": "Theirs"}], f)
            fcntl.flock(fd, fcntl.LOCK_UN)
            """
        let path = folder.path
        let child = Thread { _ = try? ChildProcess.run(["python3", "-c", script, path]) }
        child.start()
        XCTAssertTrue(Polling.until { FileManager.default.fileExists(atPath: locked.path) }, "the other program never took the lock")
        FileManager.default.createFile(atPath: go.path, contents: nil)
        let outcome = try store.save(doc("Ann", "Mine"), as: "Site", ifStill: known)
        guard case .changed = outcome else { return XCTFail("wrote over the other program's save: \(outcome)") }
        XCTAssertEqual(try store.load("Site").get().records.map { $0.values["firstName"] }, [.string("Ann"), .string("Theirs")])
    }
}
