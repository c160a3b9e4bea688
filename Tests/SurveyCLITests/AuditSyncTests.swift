import Foundation
import XCTest
import SurveyTestSupport
import SurveyValues
import SurveyForms
import SurveyStorage

/// Issue 31: the audit log travels with the surveys through the team's store. Ana's laptop
/// keys two surveys of a form with an `audit` row; her sync sends their log lines, and Bo's
/// and the supervisor's laptops take them, so an ODK export on the supervisor's laptop writes
/// the survey's whole `audit.csv`. A line is kept once on the server and in each log however
/// often it is sent; only its survey's owner adds lines; a line put in by hand that no laptop
/// could have written is passed over.
final class AuditSyncTests: TeamCLITestCase {
    private func login(_ name: String, in group: String) throws -> [String: String] {
        ["SURVEY_DB": connection(as: try loginRole(name, in: group)), "SURVEY_DEVICE": "laptop-\(name)"]
    }

    private func form(publicKey: String = "") throws -> URL {
        try scratchFile(publicKey.isEmpty ? "audited.csv" : "sealed.csv", """
            survey,,,,
            ,type,name,label,parameters
            ,audit,audit,,track-changes=true
            ,text,respondent,Respondent,
            ,integer,age,Age,
            settings,,,,
            ,form_id,version,public_key,
            ,household,3,\(publicKey),
            """)
    }

    /// A laptop's folder beside the test's own, with the audited document.
    private func laptop(_ name: String, publicKey: String = "") throws -> DocumentStore {
        let folder = documents.appendingPathComponent(name, isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let made = try survey(["--dir", folder.path, "docs", "new", "Field", "--form", try form(publicKey: publicKey).path], dir: false)
        XCTAssertEqual(made.status, 0, made.stderr)
        return DocumentStore(folder: folder)
    }

    /// An encrypted form's log goes inside each finished survey's submission, as ODK's does:
    /// the lines in the plain log (an incomplete interview's) never reach the team's store, by
    /// a full sync or one with nothing to do; nor does the incomplete interview.
    func testAnEncryptedFormsLogNeverGoesToTheServerInClear() throws {
        let publicKey = try ODKPythonOracle.keygen(root.appendingPathComponent("household.pem"))
        let anaEnv = try login("ana", in: "survey_enumerator")
        let ana = try laptop("ana", publicKey: publicKey)
        XCTAssertEqual(try survey(["--dir", ana.folder.path, "add", "--doc", "Field", "--incomplete", "--set", "respondent=Ñandú"],
                                  dir: false).status, 0)
        let id = try XCTUnwrap(ana.load("Field").get().records.first?.instanceID)
        try ana.appendAudit([AuditEvent(survey: id, kind: .question, node: "/household/respondent", start: 1, end: 2,
                                        oldValue: "", newValue: "Ñandú")], for: "Field")
        let first = try sync(ana, anaEnv)
        XCTAssertTrue(first.contains("1 incomplete interview kept here until finished"), first)
        _ = try sync(ana, anaEnv)
        XCTAssertEqual(try serverLines(), 0)
        // Nor the interview itself: ODK sends only finished forms, and the server keeps every version.
        XCTAssertEqual(try server.psql("SELECT count(*) FROM survey.surveys", database: database), "0")

        // A finished one goes, sealed.
        XCTAssertEqual(try survey(["--dir", ana.folder.path, "add", "--doc", "Field", "--set", "respondent=Ortiz"], dir: false).status, 0)
        _ = try sync(ana, anaEnv)
        XCTAssertEqual(try server.psql("SELECT count(*) FROM survey.surveys", database: database), "1")
        // An edit of the draft still stays here (a draft is held whatever it was sent as before).
        var document = try ana.load("Field").get()
        let draft = try XCTUnwrap(document.records.firstIndex { $0.isIncomplete })
        document.records[draft]["age"] = .integer(7)
        try ana.save(document, as: "Field")
        let third = try sync(ana, anaEnv)
        XCTAssertTrue(third.contains("1 incomplete interview kept here until finished"), third)
        XCTAssertEqual(try server.psql("SELECT count(*) FROM survey.surveys", database: database), "1")
        XCTAssertEqual(try serverLines(), 0)
        XCTAssertFalse(try folderContents(ana.folder).contains(".Field.audit-sync.plist"))
    }

    private func sync(_ laptop: DocumentStore, _ environment: [String: String], file: StaticString = #filePath,
                      line: UInt = #line) throws -> String {
        let outcome = try survey(["--dir", laptop.folder.path, "sync", "--doc", "Field"], dir: false, environment: environment)
        XCTAssertEqual(outcome.status, 0, outcome.stdout + outcome.stderr, file: file, line: line)
        return outcome.stdout + outcome.stderr
    }

    private func serverLines() throws -> Int {
        Int(try server.psql("SELECT count(*) FROM survey.audit_events", database: database)) ?? -1
    }

    func testTheLogGoesWithItsSurveysToEveryLaptopOnce() throws {
        let anaEnv = try login("ana", in: "survey_enumerator")
        let boEnv = try login("bo", in: "survey_enumerator")
        let sofiaEnv = try login("sofia", in: "survey_supervisor")
        let ana = try laptop("ana"), bo = try laptop("bo"), sofia = try laptop("sofia")
        for (who, age) in [("Guillermo Ñandú", "41"), ("Ana María", "7")] {
            XCTAssertEqual(try survey(["--dir", ana.folder.path, "add", "--doc", "Field", "--set", "respondent=\(who)",
                                       "--set", "age=\(age)"], dir: false).status, 0)
        }
        let ids = try ana.load("Field").get().records.compactMap(\.instanceID)
        let first: [AuditEvent] = [
            AuditEvent(survey: ids[0], kind: .formResume, start: 1_000),
            AuditEvent(survey: ids[0], kind: .question, node: "/household/age", start: 1_000, end: 2_500, oldValue: "4", newValue: "41"),
            AuditEvent(survey: ids[1], kind: .formExit, start: 3_000),
        ]
        try ana.appendAudit(first, for: "Field")
        _ = try sync(ana, anaEnv)
        XCTAssertEqual(try serverLines(), 3)

        // Bo's laptop and the supervisor's take them into their own logs.
        _ = try sync(bo, boEnv)
        _ = try sync(sofia, sofiaEnv)
        XCTAssertEqual(try bo.auditLog(for: "Field").events, first)
        XCTAssertEqual(try sofia.auditLog(for: "Field").events, first)

        // A second change on Ana's laptop: only what it added goes; a sync again sends and takes
        // nothing twice.
        let more = AuditEvent(survey: ids[0], kind: .formSave, start: 4_000)
        try ana.appendAudit([more], for: "Field")
        _ = try sync(ana, anaEnv)
        _ = try sync(ana, anaEnv)
        _ = try sync(sofia, sofiaEnv)
        _ = try sync(sofia, sofiaEnv)
        XCTAssertEqual(try serverLines(), 4)
        XCTAssertEqual(try sofia.auditLog(for: "Field").events, first + [more])
        XCTAssertEqual(try ana.auditLog(for: "Field").events, first + [more], "her own lines never come back twice")

        // The supervisor's export has the survey's whole audit.csv, beside its submission.
        let out = documents.appendingPathComponent("odk", isDirectory: true)
        let export = try survey(["--dir", sofia.folder.path, "export", "--doc", "Field", "--format", "odk-xml", "--output", out.path],
                                dir: false)
        XCTAssertEqual(export.status, 0, export.stderr)
        let audits = try FileManager.default.subpathsOfDirectory(atPath: out.path).filter { $0.hasSuffix("audit.csv") }
        XCTAssertEqual(audits.count, 2, "\(audits)")
        let texts = try audits.map { try String(contentsOf: out.appendingPathComponent($0), encoding: .utf8) }
        XCTAssertTrue(texts.contains { $0.contains("question,/household/age,1000,2500,4,41") && $0.contains("form save") }, "\(texts)")

        // Bo cannot add lines to Ana's survey, and a line put in by hand is passed over.
        let bobRole = try XCTUnwrap(boEnv["SURVEY_DB"]?.components(separatedBy: "user=").last)
        XCTAssertThrowsError(try server.psql("INSERT INTO survey.audit_events (instance_id, dataset, line) VALUES ('\(ids[0])', 'household', 'x')",
                                             database: database, user: bobRole))
        try server.psql("INSERT INTO survey.audit_events (instance_id, dataset, line) VALUES ('\(ids[1])', 'household', 'not,a,line')",
                        database: database)
        _ = try sync(sofia, sofiaEnv)
        XCTAssertEqual(try sofia.auditLog(for: "Field").events, first + [more])
    }
}
