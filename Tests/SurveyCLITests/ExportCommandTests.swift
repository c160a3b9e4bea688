import Foundation
import XCTest
import SurveyTestSupport
import SurveyValues
import SurveyForms
import SurveyStorage

final class ExportCommandTests: CLITestCase {
    /// A large document's commits reach its `.plist` in the background (or, after a crash, at
    /// the next open): `list` and `export` show them from the journal meanwhile.
    func testListAndExportIncludeWhatTheJournalHoldsAndTheFileNotYet() throws {
        var doc = SurveyDocument(records: [Record(["firstName": .string("Ann"), "lastName": .string("Lee")])])
        doc.assignMissingInstanceIDs()
        try store.save(doc, as: "Site")
        var edited = doc.records[0]
        edited.values["phone"] = .string("555-0199")
        let added = Record(["firstName": .string("Bo"), "lastName": .string("Park"), Record.instanceIDKey: .string("uuid:bo")])
        let journal = try XCTUnwrap(try DocumentJournal.open(at: store.journalURL(for: "Site"), in: .live))
        try journal.append([.put(index: 0, record: edited), .put(index: 1, record: added)])
        let listed = try survey("list", "--doc", "Site")
        XCTAssertEqual(listed.status, 0, listed.stderr)
        XCTAssertTrue(listed.stdout.contains("Park, Bo") && listed.stdout.contains("555-0199"), listed.stdout)
        let exported = try survey("export", "--doc", "Site", "--format", "csv")
        XCTAssertTrue(exported.stdout.contains("Ann,Lee,,555-0199"), exported.stdout)
        XCTAssertTrue(exported.stdout.contains("Bo,Park,,,,uuid:bo"), exported.stdout)
        XCTAssertEqual(try store.load("Site").get().records.count, 1, "reading never writes")
    }

    func testPlistToStdoutIsTheFileAsSurveyWritesIt() throws {
        try installFixture("seed-serialized.xml", as: "Seed")
        let outcome = try survey("export", "--format", "plist")
        XCTAssertEqual(outcome.status, 0)
        XCTAssertEqual(Data(outcome.stdout.utf8), try fileBytes(Self.fixtureURL("seed-serialized.xml")))
    }

    func testOutputWritesTheFileAndSaysSo() throws {
        try installFixture("plistlib-unicode.plist", as: "Unicode")
        let target = try scratchFile("people.json")
        XCTAssertEqual(try survey("export", "--doc", "unicode", "--output", target.path), Outcome(
            status: 0, stdout: "Exported 5 surveys from “Unicode” to \(target.path)\n", stderr: ""))
        XCTAssertEqual(String(decoding: try fileBytes(target), as: UTF8.self),
                       try survey("export", "--doc", "Unicode", "--format", "json").stdout,
                       "the format comes from the extension")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: root.path).filter { $0.hasPrefix(".") }, [],
                       "no temporary file left")
    }

    func testAnExistingOutputIsKeptUnlessForced() throws {
        try installFixture("seed-serialized.xml", as: "Seed")
        let target = try scratchFile("out.csv", "precious\n")
        XCTAssertEqual(try survey("export", "--output", target.path), Outcome(
            status: 1, stdout: "", stderr: "survey: \(target.path) already exists (add --force to replace it)\n"))
        XCTAssertEqual(try fileBytes(target), Data("precious\n".utf8))
        XCTAssertEqual(try survey("export", "--output", target.path, "--force").status, 0)
        XCTAssertEqual(String(decoding: try fileBytes(target), as: UTF8.self),
                       "firstName,lastName,address,phone,age,instanceID\r\nJohn,Smith,123 Any St.,555-1234,20,\r\n"
                       + "Doris,Jones,789 Town St.,555-1234,40,\r\n", "the fixture's records have no id yet")
    }

    /// `--output /dev/null --force` once replaced the device node itself with a plain file
    /// (the atomic rename): a device or a pipe is written into, as the shell's `>` does.
    func testADeviceOrAPipeIsWrittenIntoNeverReplaced() throws {
        try installFixture("seed-serialized.xml", as: "Seed")
        let fifo = root.appendingPathComponent("pipe")
        XCTAssertEqual(mkfifo(fifo.path, 0o600), 0)
        final class Received: @unchecked Sendable { var data = Data() }   // written before isFinished, read after
        let received = Received()
        let reader = Thread {
            if let handle = FileHandle(forReadingAtPath: fifo.path) { received.data = handle.readDataToEndOfFile() }
        }
        reader.start()
        XCTAssertEqual(try survey("export", "--output", fifo.path, "--format", "csv", "--force").status, 0)
        XCTAssertTrue(Polling.until { reader.isFinished }, "the pipe's reader was never written to")
        XCTAssertTrue(String(decoding: received.data, as: UTF8.self).contains("John,Smith"), "the pipe's reader got the export")
        var info = stat()
        XCTAssertEqual(lstat(fifo.path, &info), 0)
        XCTAssertEqual(info.st_mode & S_IFMT, S_IFIFO, "still a pipe")

        guard getuid() == 0 else { throw XCTSkip("making a device node (mknod) needs root") }
        let device = root.appendingPathComponent("null")
        XCTAssertEqual(mknod(device.path, S_IFCHR | 0o666, dev_t(0x103)), 0)
        XCTAssertEqual(try survey("export", "--output", device.path, "--force").status, 0)
        XCTAssertEqual(lstat(device.path, &info), 0)
        XCTAssertEqual(info.st_mode & S_IFMT, S_IFCHR, "still the device")
    }

    func testAnUnknownExtensionMeansCSVAndDashMeansStdout() throws {
        try installFixture("seed-serialized.xml", as: "Seed")
        let target = try scratchFile("out.txt")
        XCTAssertEqual(try survey("export", "--output", target.path).status, 0)
        XCTAssertTrue(String(decoding: try fileBytes(target), as: UTF8.self).hasPrefix("firstName,lastName,"))
        XCTAssertEqual(try survey("export", "--output", "-", "--format", "json").stdout,
                       try survey("list", "--format", "json").stdout)
    }

    func testPythonsCSVModuleReadsOurCSV() throws {
        let id = "uuid:0f8fad5b-d9cb-469f-a165-70867728950e"
        try store.save(SurveyDocument(records: [
            Record(["firstName": .string("Zoë \"Z\""), "lastName": .string("O'Brien, Jr"),
                    "address": .string("1 Main St\r\nFlat 2"), "phone": .string(""), "age": .integer(61),
                    "instanceID": .string(id)]),
            Record(["firstName": .string("美咲"), "lastName": .string("山田"), "address": .string("🏙️\nline"),
                    "phone": .string("03-1234"), "notes": .string("not in CSV")]),
        ]), as: "Tricky")
        let target = try scratchFile("tricky.csv")
        XCTAssertEqual(try survey("export", "--output", target.path).status, 0)
        let rows = try python("""
            import csv, json, sys
            with open(sys.argv[1], newline="", encoding="utf-8") as f:
                print(json.dumps(list(csv.DictReader(f))))
            """, [target.path])
        let parsed = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(rows.utf8)) as? [[String: String]])
        XCTAssertEqual(parsed, [
            ["firstName": "Zoë \"Z\"", "lastName": "O'Brien, Jr", "address": "1 Main St\r\nFlat 2", "phone": "", "age": "61",
             "instanceID": id],
            ["firstName": "美咲", "lastName": "山田", "address": "🏙️\nline", "phone": "03-1234", "age": "", "instanceID": ""],
        ])
    }

    func testPythonsJSONModuleReadsOurJSON() throws {
        try installFixture("plistlib-unicode.plist", as: "Unicode")
        var withIDs = try store.load("Unicode").get()
        withIDs.assignMissingInstanceIDs()
        try store.save(withIDs, as: "Unicode")
        let target = try scratchFile("unicode.json")
        XCTAssertEqual(try survey("export", "--output", target.path).status, 0)
        let summary = try python("""
            import json, sys, uuid
            with open(sys.argv[1], encoding="utf-8") as f:
                records = json.load(f)
            for r in records:
                i = r["instanceID"]
                fresh = i.startswith("uuid:") and str(uuid.UUID(i[5:])) == i[5:]
                print(repr(r["lastName"]), repr(r["age"]), list(r.keys())[5], fresh, sorted(r.keys()), r.get("tags"))
            """, [target.path])
        let keys = "['address', 'age', 'firstName', 'instanceID', 'lastName', 'phone']"
        XCTAssertEqual(summary.split(separator: "\n").map(String.init), [
            "'Núñez' 35 instanceID True \(keys) None",
            "'山田' 28 instanceID True \(keys) None",
            "\"O'Brien\" 61 instanceID True \(keys) None",
            "'Lima' None instanceID True \(keys) None",
            "'Haddad' 0 instanceID True ['address', 'age', 'firstName', 'instanceID', 'lastName', 'notes', 'phone', 'tags'] "
                + "['pilot', 'wave-2']",
        ])
    }

    func testRefusals() throws {
        XCTAssertEqual(try survey("export", "--doc", "Nope"),
                       Outcome(status: 1, stdout: "", stderr: "survey: “Nope” does not exist\n"))
        try installFixture("seed-serialized.xml", as: "Seed")
        let nowhere = root.appendingPathComponent("no/such/out.csv")
        XCTAssertEqual(try survey("export", "--output", nowhere.path), Outcome(
            status: 1, stdout: "", stderr: "survey: Could not write \(nowhere.path): No such file or directory\n"))
        XCTAssertEqual(try survey("export", "--format", "table").status, 2)
        XCTAssertEqual(try survey("export", "--force").status, 0, "--force without --output changes nothing")
        XCTAssertEqual(try folderContents(), ["Seed.plist"])
    }
}
