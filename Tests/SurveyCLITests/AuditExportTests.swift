import Foundation
import XCTest
import SurveyTestSupport
import SurveyValues
import SurveyForms
import SurveyStorage

/// Issue 31's audit log leaving survey: `survey export --format odk-xml` writes each survey's
/// `audit.csv` beside its `submission.xml` (Briefcase's layout), as ODK Collect writes it
/// (read back with Python's csv); for a form with a `public_key`, sealed as `audit.csv.enc`,
/// listed in the manifest, and opened by an independent decryption.
final class AuditExportTests: CLITestCase {
    private func form(publicKey: String = "") throws -> URL {
        try scratchFile(publicKey.isEmpty ? "audited.csv" : "sealed.csv", """
            survey,,,,
            ,type,name,label,parameters
            ,audit,audit,,track-changes=true identify-user=true location-priority=balanced location-min-interval=60 location-max-age=120
            ,text,respondent,Respondent,
            ,integer,age,Age,
            settings,,,,
            ,form_id,version,public_key,
            ,household,3,\(publicKey),
            """)
    }

    /// Two surveys added, and a log for the first as the app writes it.
    /// (Under a form with a public_key they are kept `--incomplete`: a finished one is sealed
    /// at once, its log inside it, and the export writes it as sealed.)
    private func keyed(_ document: String, form url: URL, incomplete: Bool = false) throws -> [String] {
        XCTAssertEqual(try survey("docs", "new", document, "--form", url.path).status, 0)
        for (name, age) in [("Guillermo Ñandú", "41"), ("Ana María", "7")] {
            let added = try survey(["add", "--doc", document, "--set", "respondent=\(name)", "--set", "age=\(age)"]
                                   + (incomplete ? ["--incomplete"] : []))
            XCTAssertEqual(added.status, 0, added.stderr)
        }
        let ids = try store.load(document).get().records.compactMap(\.instanceID)
        XCTAssertEqual(ids.count, 2)
        try store.appendAudit([
            AuditEvent(survey: ids[0], kind: .formResume, start: 1_000, user: "Ortiz, Bea"),
            AuditEvent(survey: ids[0], kind: .question, node: "/household/age", start: 1_000, end: 2_500,
                       oldValue: "4", newValue: "41", user: "Ortiz, Bea"),
            AuditEvent(survey: ids[0], kind: .formSave, start: 2_600, user: "Ortiz, Bea"),
            AuditEvent(survey: ids[0], kind: .formExit, start: 2_600, user: "Ortiz, Bea"),
        ], for: document)
        return ids
    }

    private let expected = [
        ["event", "node", "start", "end", "old-value", "new-value", "user"],
        ["form resume", "", "1000", "", "", "", "Ortiz, Bea"],
        ["question", "/household/age", "1000", "2500", "4", "41", "Ortiz, Bea"],
        ["form save", "", "2600", "", "", "", "Ortiz, Bea"],
        ["form exit", "", "2600", "", "", "", "Ortiz, Bea"],
    ]

    private func pythonCSV(_ url: URL) throws -> [[String]] {
        let output = try python(#"""
            import csv, json, sys
            with open(sys.argv[1], newline="", encoding="utf-8") as f:
                print(json.dumps(list(csv.reader(f))))
            """#, [url.path])
        return try XCTUnwrap(JSONSerialization.jsonObject(with: Data(output.utf8)) as? [[String]])
    }

    func testEachSurveysAuditCSVIsBesideItsSubmissionAsCollectWritesIt() throws {
        let ids = try keyed("Audited", form: try form())
        let out = root.appendingPathComponent("briefcase")
        let export = try survey("export", "--doc", "Audited", "--format", "odk-xml", "--output", out.path)
        XCTAssertEqual(export.status, 0, export.stderr)
        let instances = out.appendingPathComponent("ODK Briefcase Storage/forms/household/instances")
        let first = instances.appendingPathComponent(ids[0].replacingOccurrences(of: ":", with: ""))
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: first.path).sorted(), ["audit.csv", "submission.xml"])
        let audit = first.appendingPathComponent("audit.csv")
        XCTAssertEqual(try pythonCSV(audit), expected)
        XCTAssertEqual(try String(contentsOf: audit, encoding: .utf8), """
            event,node,start,end,old-value,new-value,user
            form resume,,1000,,,,"Ortiz, Bea"
            question,/household/age,1000,2500,4,41,"Ortiz, Bea"
            form save,,2600,,,,"Ortiz, Bea"
            form exit,,2600,,,,"Ortiz, Bea"

            """, "Collect's lines: LF, quoted only where needed")
        // The submission names its audit file, as Collect's does: Central keeps only what it names.
        let xml = try String(contentsOf: first.appendingPathComponent("submission.xml"), encoding: .utf8)
        XCTAssertTrue(xml.contains("<audit>audit.csv</audit>"), xml)
        let second = instances.appendingPathComponent(ids[1].replacingOccurrences(of: ":", with: ""))
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: second.path), ["submission.xml"], "no log, no file")
        let plain = try String(contentsOf: second.appendingPathComponent("submission.xml"), encoding: .utf8)
        XCTAssertFalse(plain.contains("audit.csv"), "a survey with no log names none")
    }

    func testAnEncryptedFormsAuditIsSealedAndListedInTheManifest() throws {
        let pem = root.appendingPathComponent("household.pem")
        let publicKey = try ODKPythonOracle.keygen(pem)
        let ids = try keyed("Sealed", form: try form(publicKey: publicKey), incomplete: true)
        let out = root.appendingPathComponent("briefcase")
        let export = try survey("export", "--doc", "Sealed", "--format", "odk-xml", "--output", out.path)
        XCTAssertEqual(export.status, 0, export.stderr)
        let folder = out.appendingPathComponent("ODK Briefcase Storage/forms/household/instances/"
                                                + ids[0].replacingOccurrences(of: ":", with: ""))
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted(),
                       ["audit.csv.enc", "submission.xml", "submission.xml.enc"], "no plaintext audit beside it")
        let sealed = try Data(contentsOf: folder.appendingPathComponent("audit.csv.enc"))
        XCTAssertNil(sealed.range(of: Data("Ortiz".utf8)))
        let opened = try ODKPythonOracle.decrypt(folder, key: pem)
        XCTAssertTrue(opened.validated, "the signature covers the audit file too")
        XCTAssertEqual(opened.order, ["audit.csv", "submission.xml"], "media first, as Collect encrypts them")
        let plain = try XCTUnwrap(opened.bytes("audit.csv"))
        let copy = root.appendingPathComponent("opened-audit.csv")
        try Data(plain).write(to: copy)
        XCTAssertEqual(try pythonCSV(copy), expected)
    }
}
