import Foundation
import XCTest
import SurveyTestSupport
import SurveyValues
import SurveyForms
import SurveyStorage

/// A form with a `public_key` (issue 31): `survey export --format odk-xml` writes each survey
/// as ODK Collect's encrypted submission, which an independent implementation (Python's
/// `cryptography`, as Briefcase decrypts) and `survey decrypt` open with the private key
/// alone, to the submission the plain export writes; no answer is in any exported file.
final class EncryptedExportTests: CLITestCase {
    private func form(publicKey: String?) throws -> URL {
        try scratchFile(publicKey == nil ? "plain.csv" : "sealed.csv", """
            survey,,,
            ,type,name,label
            ,text,respondent,Respondent
            ,integer,age,Age
            settings,,,
            ,form_id,version,public_key
            ,household,3,\(publicKey ?? "")
            """)
    }

    func testAnEncryptedFormsSubmissionsOpenOnlyWithThePrivateKey() throws {
        let pem = root.appendingPathComponent("household.pem")
        let publicKey = try ODKPythonOracle.keygen(pem)
        XCTAssertEqual(try survey("docs", "new", "Sealed", "--form", try form(publicKey: publicKey).path).status, 0)
        // Answers no base64 text (the manifest's key and signature) can hold by chance: a
        // space or a letter outside base64's alphabet. ("Ana" alone appeared in a manifest's
        // base64 about once in a hundred runs.)
        for (name, age) in [("Guillermo Ñandú", "41"), ("Ana María", "7")] {
            let added = try survey("add", "--doc", "Sealed", "--set", "respondent=\(name)", "--set", "age=\(age)")
            XCTAssertEqual(added.status, 0, added.stderr)
        }
        let out = root.appendingPathComponent("briefcase")
        let export = try survey("export", "--doc", "Sealed", "--format", "odk-xml", "--output", out.path)
        XCTAssertEqual(export.status, 0, export.stderr)
        let instances = out.appendingPathComponent("ODK Briefcase Storage/forms/household/instances")
        let folders = try FileManager.default.contentsOfDirectory(atPath: instances.path).sorted()
        XCTAssertEqual(folders.count, 2)
        for folder in folders {
            let url = instances.appendingPathComponent(folder)
            XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: url.path).sorted(), ["submission.xml", "submission.xml.enc"])
            for file in ["submission.xml", "submission.xml.enc"] {
                let bytes = try Data(contentsOf: url.appendingPathComponent(file))
                for answer in ["Guillermo Ñandú", "Ana María", "<age>"] {
                    XCTAssertNil(bytes.range(of: Data(answer.utf8)), "\(answer) in \(folder)/\(file)")
                }
            }
            // Briefcase's way, written independently: the manifest's key, the IVs, the signature.
            let opened = try ODKPythonOracle.decrypt(url, key: pem)
            XCTAssertTrue(opened.validated, folder)
            XCTAssertEqual(opened.formID, "household")
            XCTAssertEqual(opened.version, "3")
            XCTAssertEqual(opened.instanceID.replacingOccurrences(of: ":", with: ""), folder, "the folder is the instance's")
        }

        // survey decrypt gives back the submissions as the plain form's export writes them:
        // the surveys were sealed when added, so the same surveys added under the plain form
        // make the same XML but for their ids.
        let plainOut = root.appendingPathComponent("decrypted")
        let decrypt = try survey(["decrypt", "--key", pem.path, instances.path, "--output", plainOut.path], dir: false,
                                 environment: ["SURVEY_KEY_PASSPHRASE": ""])
        XCTAssertEqual(decrypt.status, 0, decrypt.stderr + decrypt.stdout)
        XCTAssertEqual(try survey("docs", "new", "Plain", "--form", try form(publicKey: nil).path).status, 0)
        for (name, age) in [("Guillermo Ñandú", "41"), ("Ana María", "7")] {
            XCTAssertEqual(try survey("add", "--doc", "Plain", "--set", "respondent=\(name)", "--set", "age=\(age)").status, 0)
        }
        let unsealed = root.appendingPathComponent("unsealed")
        XCTAssertEqual(try survey("export", "--doc", "Plain", "--format", "odk-xml", "--output", unsealed.path).status, 0)
        let plainInstances = unsealed.appendingPathComponent("ODK Briefcase Storage/forms/household/instances")
        func withoutID(_ data: Data) -> String {
            String(decoding: data, as: UTF8.self).replacingOccurrences(of: #"<instanceID>[^<]*</instanceID>"#, with: "", options: .regularExpression)
        }
        let found = try FileManager.default.subpathsOfDirectory(atPath: plainOut.path)
            .filter { $0.hasSuffix("submission.xml") }
            .map { withoutID(try Data(contentsOf: plainOut.appendingPathComponent($0))) }
        XCTAssertEqual(found.count, 2)
        for folder in try FileManager.default.contentsOfDirectory(atPath: plainInstances.path) {
            let expected = withoutID(try Data(contentsOf: plainInstances.appendingPathComponent(folder + "/submission.xml")))
            XCTAssertTrue(found.contains(expected), "\(expected) not in \(found)")
        }
    }

    /// pyxform does not check a `public_key` (its own tests use made-up ones), so a form with
    /// a bad one still opens: `form check` warns, a survey cannot be finished under it
    /// (`survey add` refuses, storing nothing), and the encrypted export of an incomplete one
    /// refuses, writing nothing rather than submissions in the clear.
    func testAPublicKeyThatIsNoKeyIsWarnedOfAndRefusesTheEncryptedExport() throws {
        for bad in ["not base64 at all", "QUJD", String(DecryptCommandTests.fixturePublicKey.dropLast(40))] {
            let check = try survey("form", "check", try form(publicKey: bad).path)
            XCTAssertEqual(check.status, 0, bad + check.stderr)
            XCTAssertTrue((check.stdout + check.stderr).contains("public_key is not a usable RSA public key"), check.stdout + check.stderr)
        }
        XCTAssertEqual(try survey("docs", "new", "Sealed", "--form", try form(publicKey: "QUJD").path).status, 0)
        // A finished survey cannot be encrypted for it: refused, nothing written; an
        // incomplete one stays as keyed, as ODK keeps a draft.
        let finished = try survey("add", "--doc", "Sealed", "--set", "respondent=Ana", "--set", "age=7")
        XCTAssertEqual(finished.status, 1)
        XCTAssertTrue(finished.stderr.contains("public_key is not a usable RSA public key"), finished.stderr)
        XCTAssertTrue(finished.stderr.contains("not finished"), finished.stderr)
        XCTAssertEqual(try store.load("Sealed").get().records.count, 0)
        XCTAssertEqual(try survey("add", "--doc", "Sealed", "--incomplete", "--set", "respondent=Ana", "--set", "age=7").status, 0)
        XCTAssertEqual(try store.load("Sealed").get().records.first?.text(forKey: "respondent"), "Ana")
        let out = root.appendingPathComponent("briefcase")
        let export = try survey("export", "--doc", "Sealed", "--format", "odk-xml", "--output", out.path)
        XCTAssertEqual(export.status, 1)
        XCTAssertTrue(export.stderr.contains("public_key is not a usable RSA public key"), export.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: out.path), "nothing written")
        let good = try survey("form", "check", try form(publicKey: DecryptCommandTests.fixturePublicKey).path)
        XCTAssertEqual(good.status, 0)
        XCTAssertFalse((good.stdout + good.stderr).contains("public_key"), good.stdout)
    }

    /// An encrypted survey whose media names are a path (a teammate's, damaged or made so) is
    /// refused by name, one at a time; the others are exported, and the status says it.
    func testADamagedEncryptedSurveyIsNamedAndTheRestExported() throws {
        let pem = root.appendingPathComponent("household.pem")
        let publicKey = try ODKPythonOracle.keygen(pem)
        XCTAssertEqual(try survey("docs", "new", "Sealed", "--form", try form(publicKey: publicKey).path).status, 0)
        for (name, age) in [("Guillermo Ñandú", "41"), ("Ana María", "7"), ("Ortiz Ñ", "30")] {
            XCTAssertEqual(try survey("add", "--doc", "Sealed", "--set", "respondent=\(name)", "--set", "age=\(age)").status, 0)
        }
        var document = try store.load("Sealed").get()
        XCTAssertTrue(document.records.allSatisfy(\.isSealed))
        for (i, name) in [(0, "a/bcd"), (2, "x/../")] {
            document.records[i].values[Record.Sealed.mediaNamesKey] = .array([.string(name)])
            document.records[i].values[Record.Sealed.mediaKey] = .array([.data(Data([1, 2, 3]))])
        }
        try store.save(document, as: "Sealed")
        let out = root.appendingPathComponent("briefcase")
        let export = try survey("export", "--doc", "Sealed", "--format", "odk-xml", "--output", out.path)
        XCTAssertEqual(export.status, 1, export.stderr)
        XCTAssertTrue(export.stderr.contains("survey 1 (\(document.records[0].instanceID!))") && export.stderr.contains("a/bcd"), export.stderr)
        XCTAssertTrue(export.stderr.contains("survey 3 (\(document.records[2].instanceID!))"), export.stderr)
        XCTAssertTrue(export.stdout.contains("Exported 1 survey"), export.stdout)
        let instances = out.appendingPathComponent("ODK Briefcase Storage/forms/household/instances")
        let folders = try FileManager.default.contentsOfDirectory(atPath: instances.path)
        XCTAssertEqual(folders.count, 1)
        let files = try FileManager.default.subpathsOfDirectory(atPath: out.path)
        XCTAssertFalse(files.contains { $0.hasSuffix("bcd") || $0.contains("..") }, "\(files)")
    }
}
