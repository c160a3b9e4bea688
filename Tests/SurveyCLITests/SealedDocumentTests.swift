import Foundation
import XCTest
import SurveyTestSupport
import SurveyValues
import SurveyForms
import SurveyStorage

/// Issue 31's check, end to end with the real binary and the tests' throwaway PostgreSQL:
/// surveys of a form with a `public_key` are added, synced from one laptop to another, listed,
/// exported as CSV and as ODK submissions (on the laptop without the key: the stored encrypted
/// submissions as they are, which Python's independent decryption validates) and decrypted
/// from the document with the key; then every file survey wrote, on both laptops and in the
/// export, and every table of the server is scanned for a respondent's answer in clear: none.
final class SealedDocumentTests: TeamCLITestCase {
    /// Answers no base64 text can hold (a space, a letter outside base64's alphabet).
    static let answers = ["Guillermo Ñandú", "Ana María", "Ortiz Ñ"]

    private func form(publicKey: String) throws -> URL {
        try scratchFile("sealed.csv", """
            survey,,,,
            ,type,name,label,publishable
            ,text,respondent,Respondent,
            ,integer,age,Age,
            ,text,village,Village,yes
            ,start,start,,
            ,username,username,,
            settings,,,,
            ,form_id,version,public_key,
            ,household,3,\(publicKey),
            """)
    }

    func testAnEncryptedFormIsKeyedSyncedAndExportedWithoutAnAnswerInClear() throws {
        let pem = root.appendingPathComponent("household.pem")
        let publicKey = try ODKPythonOracle.keygen(pem)
        let form = try form(publicKey: publicKey)
        let ana = ["SURVEY_DB": connection(as: try loginRole("ana", in: "survey_enumerator")), "SURVEY_USERNAME": "ana"]
        XCTAssertEqual(try survey("docs", "new", "Field", "--form", form.path).status, 0)
        for (name, age, village) in [(Self.answers[0], "41", "Kijiji"), (Self.answers[1], "7", "")] {
            let added = try survey(["add", "--doc", "Field", "--set", "respondent=\(name)", "--set", "age=\(age)"]
                                   + (village.isEmpty ? [] : ["--set", "village=\(village)"]), environment: ana)
            XCTAssertEqual(added.status, 0, added.stderr)
        }
        // Imported surveys are finished ones too.
        let csv = try scratchFile("more.csv", "respondent,age\n\(Self.answers[2]),30\n")
        let imported = try survey("import", "--doc", "Field", csv.path)
        XCTAssertEqual(imported.status, 0, imported.stderr)
        let records = try store.load("Field").get().records
        XCTAssertEqual(records.count, 3)
        XCTAssertTrue(records.allSatisfy(\.isSealed))

        // What is readable: the publishable village, the times, the keyer.
        let list = try survey("list", "--doc", "Field")
        XCTAssertEqual(list.status, 0, list.stderr)
        XCTAssertTrue(list.stdout.contains("Kijiji"), list.stdout)
        XCTAssertEqual(list.stdout.components(separatedBy: "(encrypted)").count - 1, 2, list.stdout)
        let table = try survey("export", "--doc", "Field", "--format", "csv")
        XCTAssertEqual(table.status, 0, table.stderr)
        XCTAssertEqual(table.stdout.components(separatedBy: "\r\n").first, "respondent,age,village,start,username,instanceID,formID,formVersion")
        XCTAssertTrue(table.stdout.contains(",,Kijiji,"), table.stdout)
        XCTAssertTrue(table.stdout.contains(",ana,"), "the keyer: \(table.stdout)")
        let verify = try survey("verify", "--doc", "Field", "--every", "1")
        XCTAssertTrue(verify.stdout.hasPrefix("Chose 0 surveys of 0 for verification"), "none can be keyed again: \(verify.stdout)")
        let odkSet = root.appendingPathComponent("odk-csv")
        XCTAssertEqual(try survey("export", "--doc", "Field", "--format", "odk-csv", "--output", odkSet.path).status, 0)
        let main = try String(contentsOf: odkSet.appendingPathComponent("household.csv"), encoding: .utf8)
        XCTAssertFalse(main.contains("#"), "no column of the encrypted submission: \(main)")
        XCTAssertTrue(main.contains("Kijiji"), main)

        // The other laptop, without the key, takes them from the server.
        XCTAssertEqual(try survey(["sync", "--doc", "Field"], environment: ana).status, 0)
        let other = root.appendingPathComponent("other-laptop")
        try FileManager.default.createDirectory(at: other, withIntermediateDirectories: true)
        XCTAssertEqual(try survey(["--dir", other.path, "docs", "new", "Field", "--form", form.path], dir: false).status, 0)
        let pulled = try survey(["--dir", other.path, "sync", "--doc", "Field"], dir: false, environment: ana)
        XCTAssertEqual(pulled.status, 0, pulled.stderr)
        let there = try DocumentStore(folder: other).load("Field").get().records
        XCTAssertEqual(Set(there.compactMap(\.instanceID)), Set(records.compactMap(\.instanceID)))
        XCTAssertTrue(there.allSatisfy(\.isSealed))

        // ODK submissions from the stored bytes, as they are: Briefcase's way opens them.
        let out = root.appendingPathComponent("briefcase")
        let export = try survey(["--dir", other.path, "export", "--doc", "Field", "--format", "odk-xml", "--output", out.path], dir: false)
        XCTAssertEqual(export.status, 0, export.stderr)
        let instances = out.appendingPathComponent("ODK Briefcase Storage/forms/household/instances")
        for record in there {
            let folder = instances.appendingPathComponent(record.instanceID!.replacingOccurrences(of: ":", with: ""))
            guard case .data(let stored)? = record[Record.Sealed.submissionKey] else { return XCTFail("no submission") }
            XCTAssertEqual(try Data(contentsOf: folder.appendingPathComponent("submission.xml.enc")), stored, "written as kept")
            let opened = try ODKPythonOracle.decrypt(folder, key: pem)
            XCTAssertTrue(opened.validated)
            XCTAssertEqual(opened.instanceID, record.instanceID)
        }

        // The data manager opens the document itself with the key.
        let plain = root.appendingPathComponent("plain")
        let decrypt = try survey(["decrypt", "--key", pem.path, documents.appendingPathComponent("Field.plist").path,
                                  "--output", plain.path], dir: false, environment: ["SURVEY_KEY_PASSPHRASE": ""])
        XCTAssertEqual(decrypt.status, 0, decrypt.stderr + decrypt.stdout)
        XCTAssertTrue(decrypt.stdout.hasSuffix("3 decrypted\n"), decrypt.stdout)
        for answer in Self.answers {
            XCTAssertEqual(try filesHolding(answer, in: plain).count, 1, "\(answer) decrypted")
        }

        // Nothing in clear anywhere survey wrote, nor on the server.
        let tables = try server.psql("SELECT table_name FROM information_schema.tables WHERE table_schema = 'survey' ORDER BY 1",
                                     database: database)
        var serverText = ""
        for name in tables.split(separator: "\n").map({ $0.trimmingCharacters(in: .whitespaces) }) where !name.isEmpty {
            serverText += try server.psql("SELECT t::text FROM survey.\(name) t", database: database)
        }
        XCTAssertTrue(serverText.contains("Kijiji"), "the scan reads the rows")
        for answer in Self.answers {
            XCTAssertFalse(serverText.contains(answer), "\(answer) on the server")
            for folder in [documents, other, out] {
                XCTAssertEqual(try filesHolding(answer, in: folder), [], "\(answer) in \(folder.lastPathComponent)")
            }
        }
    }
}
