import Foundation
import XCTest
@testable import SurveyValues
@testable import SurveyForms
@testable import SurveyStorage

/// `survey keys new`'s private key and `survey decrypt`'s submission folders, written through
/// `PrivateFiles`, run once to count the system calls they make through a `FileSystem`, then
/// again with each of those calls failing in turn (EIO, then ENOSPC), as
/// `FaultInjectionTests` runs a document's saves. After every failure: the key or the
/// folder is whole or not there at all (a failure that is reported leaves nothing, as the
/// commands say "nothing written"), and no temporary file or folder is left. What is
/// written is 0600 in folders made 0700, even in a team's shared folder.
final class PrivateFilesFaultInjectionTests: TemporaryFolderTestCase {
    private typealias Plan = FaultInjectionTests.Plan

    /// One write: `run` makes it through the file system given; `target` is what it makes.
    private struct Path {
        let name: String
        let target: URL
        let run: (FileSystem) throws -> Void
        /// Checks `target` is whole (content and modes).
        let whole: () throws -> Void
    }

    private static let key: [UInt8] = Array(("-----BEGIN ENCRYPTED PRIVATE KEY-----\n"
        + String(repeating: "MIIFHDBOBgkqhkiG9w0BBQ0wQTApBgkqhkiG9w0BBQwwHAQI\n", count: 40)
        + "-----END ENCRYPTED PRIVATE KEY-----\n").utf8)

    private static let submission: [ODKSubmissionFile] =
        [ODKSubmissionFile(name: "submission.xml", bytes: Array("<data id=\"hh\"><name>Ana</name></data>".utf8))]
        + (0..<3).map { ODKSubmissionFile(name: "photo-\($0).jpg", bytes: Array(repeating: UInt8($0), count: 5000 * ($0 + 1))) }

    /// Where the writes go: a team's shared folder (setgid, group write), where a document
    /// would be made 0660, so a secret's 0600 is seen to be asked for, not inherited.
    private var place: URL { folder.appendingPathComponent("place") }

    private func mode(_ url: URL) throws -> Int {
        try permissions(of: url) & 0o777
    }

    private var paths: [Path] {
        let keyFile = place.appendingPathComponent("household.pem")
        let output = place.appendingPathComponent("out/deeper")
        let decrypted = output.appendingPathComponent("uuidabc")
        return [
            Path(name: "private key", target: keyFile,
                 run: { try PrivateFiles.createNew(keyFile.path, Self.key, in: $0) },
                 whole: {
                     XCTAssertEqual(Array(try Data(contentsOf: keyFile)), Self.key)
                     XCTAssertEqual(try self.mode(keyFile), 0o600)
                 }),
            Path(name: "decrypted submission", target: decrypted,
                 run: { fs in
                     try PrivateFiles.makeFolders(output.path, in: fs)
                     try PrivateFiles.createFolder(decrypted.path, holding: Self.submission, in: fs)
                 },
                 whole: {
                     XCTAssertEqual(try self.mode(decrypted), 0o700)
                     XCTAssertEqual(try self.mode(output), 0o700)
                     XCTAssertEqual(Set(try FileManager.default.contentsOfDirectory(atPath: decrypted.path)),
                                    Set(Self.submission.map(\.name)))
                     for file in Self.submission {
                         let url = decrypted.appendingPathComponent(file.name)
                         XCTAssertEqual(Array(try Data(contentsOf: url)), file.bytes, file.name)
                         XCTAssertEqual(try self.mode(url), 0o600, file.name)
                     }
                 }),
        ]
    }

    /// Every name under `place` that is a temporary file or folder (`AtomicFile.temporaryName`).
    private func temporaries() -> [String] {
        let enumerator = FileManager.default.enumerator(atPath: place.path)
        var found: [String] = []
        while let entry = enumerator?.nextObject() as? String {
            if (entry as NSString).lastPathComponent.contains(".tmp-") { found.append(entry) }
        }
        return found
    }

    private func reset() throws {
        try? FileManager.default.removeItem(at: place)
        try FileManager.default.createDirectory(at: place, withIntermediateDirectories: true)
        XCTAssertEqual(chmod(place.path, 0o2770), 0)
    }

    func testEveryCallFailingInTurnLeavesTheWholeOrNothing() throws {
        let savedUmask = umask(0o002)
        defer { umask(savedUmask) }
        var failures = 0
        for path in paths {
            let plan = Plan()
            try reset()
            plan.arm(failing: nil, with: EIO)
            try path.run(plan.fileSystem)
            try path.whole()
            let calls = plan.calls
            XCTAssertGreaterThan(calls, 0, "\(path.name) makes its calls through the file system")
            for code in [EIO, ENOSPC] {
                for call in 1...max(calls, 1) {
                    try reset()
                    plan.arm(failing: call, with: code)
                    let context = "\(path.name), \(String(cString: strerror(code))) at call \(call) of \(calls)"
                    do {
                        try path.run(plan.fileSystem)
                        try path.whole()
                    } catch {
                        failures += 1
                        XCTAssertNotNil(plan.failed, "\(context): failed without the fault: \(error)")
                        XCTAssertFalse(FileManager.default.fileExists(atPath: path.target.path),
                                       "\(context): reported as failed, yet \(path.target.lastPathComponent) is there")
                    }
                    XCTAssertEqual(temporaries(), [], "\(context): no temporary file or folder left")
                }
            }
        }
        XCTAssertGreaterThan(failures, 0, "the faults made the writes fail")
    }
}
