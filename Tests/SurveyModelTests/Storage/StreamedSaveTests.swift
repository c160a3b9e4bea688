import Foundation
import XCTest
import SurveyTestSupport
#if canImport(Glibc)
import Glibc
#endif
@testable import SurveyValues
@testable import SurveyForms
@testable import SurveyStorage

/// A save streams the document into its temporary file record by record. What it writes must
/// be, byte for byte, what `propertyListData()` (the whole file built in memory) makes, and
/// every promise of the atomic save must hold while it streams.
final class StreamedSaveTests: TemporaryFolderTestCase {
    /// Documents that cover what the writer can meet.
    private func variedDocuments() -> [(String, SurveyDocument)] {
        let everyType = Record([
            "firstName": .string("José & <Zoë> \"quoted\" 'single' ]]>"),
            "lastName": .string("line\r\nbreak\rcarriage\ttab"),
            "address": .string("bell\u{7} nul\u{0} \u{FFFE}\u{FFFF} 東京 🏙️ \u{85}\u{2028}"),
            "age": .integer(-42),
            "big": .integer(Int.max),
            "ratio": .real(2.5),
            "whole": .real(3),
            "tiny": .real(1e-300),
            "huge": .real(1e300),
            "negative": .real(-0.1),
            "nan": .real(.nan),
            "inf": .real(-.infinity),
            "flag": .bool(true),
            "off": .bool(false),
            "when": .date(Date(timeIntervalSince1970: 1_700_000_000)),
            "epoch": .date(Date(timeIntervalSince1970: 0)),
            "blob": .data(Data([0, 1, 2, 255, 254])),
            "noBytes": .data(Data()),
            "empty": .string(""),
            "nested": .array([.dictionary([:]), .array([]), .string("東京 🏙️"),
                              .dictionary(["deep\u{1}": .array([.dictionary(["z": .integer(1), "a": .bool(false)])])])]),
            "unknown key, kept": .dictionary(["b": .string("2"), "a": .string("1\r")]),
            "tabs\tand\nlines": .string("a\tb\nc"),
            "k\u{1}": .string("collides with k\u{2} once cleaned"),
            "k\u{2}": .string("the one dropped"),
        ])
        var irregular = RecordList((0..<3_000).map { Record(["n": .integer($0), "name": .string("Survey \($0)")]) })
        irregular.insert(Record(["inserted": .bool(true)]), at: 10)    // chunks of other sizes
        irregular.remove(at: 2_500)
        irregular.remove(at: 1_024)
        return [
            ("empty", SurveyDocument()),
            ("one empty survey", SurveyDocument(records: [Record()])),
            ("every type", SurveyDocument(records: [everyType, Record(), everyType])),
            ("standard", SurveyDocument(records: [Record.sample(), Record.sample(first: "B\u{1}", age: nil)])),
            ("a megabyte in one value", SurveyDocument(records: [Record(["notes": .string(String(repeating: "ñ<", count: 300_000))]),
                                                                 Record.sample()])),
            ("over many chunks", SurveyDocument(records: irregular)),
        ]
    }

    private func streamed(_ document: SurveyDocument, bufferSize: Int) throws -> (bytes: Data, pieces: Int) {
        var bytes = Data()
        var pieces = 0
        try PropertyListWriter.write(document.records, bufferSize: bufferSize) { piece in
            bytes.append(contentsOf: piece)
            pieces += 1
        }
        return (bytes, pieces)
    }

    func testStreamedBytesAreThoseOfTheWholeFileBuiltInMemory() throws {
        for (label, document) in variedDocuments() {
            let whole = try document.propertyListData()
            XCTAssertEqual(whole, PropertyListWriter.data(for: .array(document.records.map { .dictionary($0.values) })), label)
            for bufferSize in [1, 100, 4096, PropertyListWriter.streamBufferSize] {
                let (bytes, pieces) = try streamed(document, bufferSize: bufferSize)
                XCTAssertEqual(bytes, whole, "\(label), buffer \(bufferSize)")
                if bufferSize == 1 { XCTAssertEqual(pieces, document.records.count + 1, "one piece per survey, and the end: \(label)") }
            }
        }
    }

    func testEachSavedFileHoldsExactlyThoseBytes() throws {
        for (label, document) in variedDocuments() {
            let name = "Doc \(label)"
            try store.save(document, as: name)
            XCTAssertEqual(try Data(contentsOf: store.url(for: name)), try document.propertyListData(), label)
            try store.save(document, as: name)      // over an existing file
            XCTAssertEqual(try Data(contentsOf: store.url(for: name)), try document.propertyListData(), label)
            try store.create(named: "New \(label)", containing: document)
            XCTAssertEqual(try Data(contentsOf: store.url(for: "New \(label)")), try document.propertyListData(), label)
        }
        XCTAssertEqual(try folderContents().filter { $0.hasPrefix(".") }, [], "no temporary file stays")
    }

    func testForbiddenCharactersAreStillCountedAndReplaced() throws {
        let document = SurveyDocument(records: [Record(["k\u{1}": .string("a\u{0}b\u{FFFF}"),
                                                        "n": .array([.string("\u{2}")])])])
        try store.save(SurveyDocument(), as: "Dirty")
        guard case .saved(_, let replaced) = try store.save(document, as: "Dirty", ifStill: store.fingerprint(of: "Dirty")) else {
            return XCTFail("saved")
        }
        XCTAssertEqual(replaced, 4)
        XCTAssertEqual(try store.save(document, as: "Dirty"), 4)
        let text = String(decoding: try Data(contentsOf: store.url(for: "Dirty")), as: UTF8.self)
        XCTAssertTrue(text.contains("<key>k\u{FFFD}</key>\n\t\t<string>a\u{FFFD}b\u{FFFD}</string>"), text)
    }

    /// The fingerprint a guarded save hands back is the file it wrote, so the next save over it
    /// is not taken for another program's change.
    func testTheGuardedSavesFingerprintIsTheWrittenFile() throws {
        let document = SurveyDocument(records: (0..<2_000).map { Record.sample(first: "N\($0)") })
        try store.save(SurveyDocument(), as: "Site")
        guard case .saved(let written?, 0) = try store.save(document, as: "Site", ifStill: store.fingerprint(of: "Site")) else {
            return XCTFail("saved")
        }
        XCTAssertEqual(written, store.fingerprint(of: "Site"))
        XCTAssertEqual(Int(written.size), try document.propertyListData().count)
        guard case .saved = try store.save(SurveyDocument(), as: "Site", ifStill: written) else { return XCTFail("still ours") }
    }

    /// The document is streamed into the temporary file before the folder's lock is taken;
    /// the check and the rename happen under it. A file found changed costs only that
    /// temporary file, which goes.
    func testTheCheckComesAfterTheStreamingAndAChangedFileLeavesNoTemporaryFile() throws {
        try store.save(SurveyDocument(records: [Record.sample()]), as: "Site")
        let url = store.url(for: "Site")
        var seenBeforeInstall: [String] = []
        try store.write(to: url, contents: SurveyDocument(records: [Record.sample(first: "Mine")]).writePropertyList) { install in
            seenBeforeInstall = try folderContents()
            try install()
        }
        XCTAssertEqual(seenBeforeInstall.count, 2, "the written temporary file waits beside the document: \(seenBeforeInstall)")
        XCTAssertTrue(seenBeforeInstall.contains { $0.hasPrefix(".Site.plist.tmp-") }, "\(seenBeforeInstall)")
        XCTAssertEqual(try store.load("Site").get().records.first?.values["firstName"], .string("Mine"))

        let theirs = try Data(contentsOf: url)
        try store.write(to: url, contents: SurveyDocument().writePropertyList) { _ in }   // found changed: not installed
        XCTAssertEqual(try folderContents(), ["Site.plist"])
        XCTAssertEqual(try Data(contentsOf: url), theirs)
    }

    /// The file's owner and mode are read before the slow write; should they change before the
    /// rename, the new file still gets them as they are then.
    func testAnOwnerOrModeChangedDuringTheWriteIsKept() throws {
        try store.save(SurveyDocument(records: [Record.sample()]), as: "Shared")
        let url = store.url(for: "Shared")
        XCTAssertEqual(chmod(url.path, 0o644), 0)
        try store.write(to: url, contents: SurveyDocument().writePropertyList) { install in
            XCTAssertEqual(chmod(url.path, 0o600), 0)
            if geteuid() == 0 { XCTAssertEqual(chown(url.path, 1000, 1001), 0) }
            try install()
        }
        var status = stat()
        XCTAssertEqual(stat(url.path, &status), 0)
        XCTAssertEqual(status.st_mode & 0o7777, 0o600)
        if geteuid() == 0 {
            XCTAssertEqual(status.st_uid, 1000)
            XCTAssertEqual(status.st_gid, 1001)
        }
        XCTAssertEqual(try store.load("Shared").get().records.count, 0)
    }

    #if DEBUG
    /// Debug builds (the tests) read back what was written, from the file, before it replaces
    /// anything: here the file holds more than the document (junk before it), which does not
    /// parse. A descriptor opened for writing only cannot be read back, and is not.
    func testDebugBuildsReadBackTheWrittenFile() throws {
        let path = folder.appendingPathComponent("junk").path
        let document = SurveyDocument(records: [Record.sample()])
        for (flags, readable) in [(O_RDWR, true), (O_WRONLY, false)] {
            try Data("junk ".utf8).write(to: URL(fileURLWithPath: path))
            let fd = open(path, flags)
            XCTAssertGreaterThanOrEqual(fd, 0)
            defer { close(fd) }
            XCTAssertEqual(lseek(fd, 0, SEEK_END), 5)
            if readable {
                XCTAssertThrowsError(try document.writePropertyList(to: FileOutput(fd: fd, fileSystem: .live))) { error in
                    XCTAssertTrue((error as? DocumentError)?.message.hasPrefix("not a property list") == true, "\(error)")
                }
            } else {
                XCTAssertNoThrow(try document.writePropertyList(to: FileOutput(fd: fd, fileSystem: .live)))
            }
        }
    }
    #endif

    // MARK: - A full disk

    private var mounted: URL?

    override func tearDownWithError() throws {
        if let mounted { _ = try? ChildProcess.run(["umount", "-l", mounted.path]) }
        try super.tearDownWithError()
    }

    /// A 2 MB disk holding a small document; the new version needs more than is free. Skips
    /// the test where no tmpfs can be mounted (not root).
    private func fullDisk() throws -> (DocumentStore, SurveyDocument) {
        let small = folder.appendingPathComponent("small")
        try FileManager.default.createDirectory(at: small, withIntermediateDirectories: true)
        let mount = try ChildProcess.run(["mount", "-t", "tmpfs", "-o", "size=2m", "tmpfs", small.path])
        guard mount.status == 0 else {
            throw XCTSkip("cannot mount a tmpfs here (needs root with the right to mount): \(mount)")
        }
        mounted = small
        let store = DocumentStore(folder: small)
        try store.save(SurveyDocument(records: [Record.sample()]), as: "Big")
        let big = SurveyDocument(records: (0..<12_000).map { Record.sample(first: "Name \($0)", address: "Calle Mayor \($0), Madrid") })
        return (store, big)
    }

    func testOnAFullDiskTheOldFileIsUntouchedAndNoTemporaryFileStays() throws {
        let (store, big) = try fullDisk()
        XCTAssertGreaterThan(try big.propertyListData().count, 2_000_000, "more than the disk holds")
        let url = store.url(for: "Big")
        let before = try Data(contentsOf: url)
        let known = store.fingerprint(of: "Big")
        XCTAssertThrowsError(try store.save(big, as: "Big", ifStill: known)) { error in
            XCTAssertEqual((error as? DocumentError)?.message, "Could not save Big.plist: No space left on device")
        }
        XCTAssertThrowsError(try store.save(big, as: "Big")) { error in
            XCTAssertEqual((error as? DocumentError)?.message, "Could not save Big.plist: No space left on device")
        }
        XCTAssertEqual(try Data(contentsOf: url), before)
        XCTAssertEqual(store.fingerprint(of: "Big"), known)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: store.folder.path), ["Big.plist"])
        guard case .saved = try store.save(SurveyDocument(records: [Record.sample(first: "Fits")]), as: "Big", ifStill: known) else {
            return XCTFail("a save that fits still works")
        }
    }

    /// Written in place (another user's file), a full disk puts the old content back and
    /// leaves no backup.
    func testOnAFullDiskAnInPlaceWritePutsTheOldContentBack() throws {
        let (store, big) = try fullDisk()
        let url = store.url(for: "Big")
        let before = try Data(contentsOf: url)
        var status = stat()
        XCTAssertEqual(stat(url.path, &status), 0)
        XCTAssertThrowsError(try InPlaceWrite.write(big.writePropertyList, over: url.path, keeping: FileOwner(status), in: .live)) { error in
            XCTAssertEqual((error as? SystemError)?.code, ENOSPC, "\(error)")
        }
        XCTAssertEqual(try Data(contentsOf: url), before)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: store.folder.path), ["Big.plist"])
    }
}
