import Foundation
import XCTest
import SurveyTestSupport
@testable import SurveyValues
@testable import SurveyForms
@testable import SurveyStorage

/// Issue 31's audit log beside the document (`.NAME.audit.csv`): Python's csv reads it, it
/// follows a rename and the trash, a batch is written whole or not at all when the system
/// fails (the seam), and a file that cannot be read is never written over.
final class AuditLogFileTests: TemporaryFolderTestCase {
    private let events = [
        AuditEvent(survey: "uuid:1", kind: .formStart, start: 1_000, user: "Ortiz, Bea"),
        AuditEvent(survey: "uuid:1", kind: .question, node: "/data/household[2]/age", start: 1_000, end: 4_500,
                   oldValue: "4", newValue: "say \"40\"", user: "Ortiz, Bea"),
        AuditEvent(survey: "uuid:2", kind: .changeReason, start: 5_000, changeReason: "two\nlines"),
    ]

    func testTheFileIsReadByPythonsCSVAndFollowsTheDocument() throws {
        try store.save(SurveyDocument(), as: "Field")
        XCTAssertEqual(store.auditURL(for: "Field"), folder.appendingPathComponent(".Field.audit.csv"))
        try store.appendAudit(Array(events.prefix(2)), for: "Field")
        try store.appendAudit(Array(events.dropFirst(2)), for: "Field")
        XCTAssertEqual(try store.auditLog(for: "Field").events, events)
        XCTAssertEqual(try store.documentNames(), ["Field"], "hidden: not a document")
        let output = try TestSupport.python(#"""
            import csv, json, sys
            with open(sys.argv[1], newline="", encoding="utf-8") as f:
                print(json.dumps(list(csv.reader(f))))
            """#, [store.auditURL(for: "Field").path])
        let rows = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(output.utf8)) as? [[String]])
        XCTAssertEqual(rows, [
            AuditLog.header,
            ["uuid:1", "form start", "", "1000", "", "", "", "Ortiz, Bea", ""],
            ["uuid:1", "question", "/data/household[2]/age", "1000", "4500", "4", "say \"40\"", "Ortiz, Bea", ""],
            ["uuid:2", "change reason", "", "5000", "", "", "", "", "two\nlines"],
        ])
        _ = try store.rename("Field", to: "Plots", at: Date())
        XCTAssertEqual(try store.auditLog(for: "Plots").events, events)
        XCTAssertFalse(FileManager.default.fileExists(atPath: store.auditURL(for: "Field").path))
        _ = try store.delete("Plots", at: Date())
        XCTAssertFalse(FileManager.default.fileExists(atPath: store.auditURL(for: "Plots").path), "gone with it to the trash")
    }

    func testAFailingSystemLeavesTheLogAsItWasAndLosesNothingWritten() throws {
        try store.save(SurveyDocument(), as: "Field")
        try store.appendAudit(Array(events.prefix(1)), for: "Field")
        let before = try Data(contentsOf: store.auditURL(for: "Field"))
        let auditPath = store.auditURL(for: "Field").path
        for failing in [FileSystem.Operation.open, .write, .sync, .rename] {
            let broken = DocumentStore(folder: folder, fileSystem: .failing { operation, path in
                // Reading goes through; the write of the new file fails at `failing`.
                if operation == .open, path == auditPath { return nil }
                return operation == failing ? ENOSPC : nil
            })
            XCTAssertThrowsError(try broken.appendAudit(Array(events.dropFirst()), for: "Field"), "\(failing)") { error in
                XCTAssertTrue("\(error)".contains(".Field.audit.csv"), "\(error)")
            }
            XCTAssertEqual(try Data(contentsOf: store.auditURL(for: "Field")), before, "\(failing): nothing half written")
            XCTAssertEqual(try store.auditLog(for: "Field").events, Array(events.prefix(1)))
        }
        let unreadable = DocumentStore(folder: folder, fileSystem: .failing { operation, _ in operation == .read ? EIO : nil })
        XCTAssertThrowsError(try unreadable.appendAudit(events, for: "Field")) { error in
            XCTAssertTrue("\(error)".contains("does not write over it"), "\(error)")
        }
        XCTAssertEqual(try Data(contentsOf: store.auditURL(for: "Field")), before)
        try store.appendAudit(Array(events.dropFirst()), for: "Field")
        XCTAssertEqual(try store.auditLog(for: "Field").events, events, "the batch goes once the system works")
    }

    func testAFileThatIsNotOursIsNeverWrittenOver() throws {
        try Data("event,node\ngarbage".utf8).write(to: store.auditURL(for: "Field"))
        XCTAssertThrowsError(try store.appendAudit(events, for: "Field")) { error in
            XCTAssertTrue("\(error)".contains("does not write over it"), "\(error)")
        }
        XCTAssertEqual(try Data(contentsOf: store.auditURL(for: "Field")), Data("event,node\ngarbage".utf8))
    }

    func testCollectsFileForOneSurvey() throws {
        let log = AuditLog(events)
        let settings = AuditSettings(trackChanges: true, identifyUser: true)
        XCTAssertEqual(log.collectFile(for: "uuid:1", settings: settings), """
            event,node,start,end,old-value,new-value,user
            form start,,1000,,,,"Ortiz, Bea"
            question,/data/household[2]/age,1000,4500,4,"say ""40""\","Ortiz, Bea"

            """)
        XCTAssertNil(log.collectFile(for: "uuid:3", settings: settings))
    }

    func testTheNodeIsCollectsPath() throws {
        let q = try FormTestSupport.questionnaire("""
            survey,,,
            ,type,name,label
            ,begin group,g,G
            ,text,plot,Plot
            ,end group,,
            ,begin repeat,household,Household
            ,begin group,health,Health
            ,integer,age,Age
            ,end group,,
            ,end repeat,,
            """)
        XCTAssertEqual(q.auditNode(AnswerPath("g/plot")) ?? q.auditNode(AnswerPath("plot")), "/data/g/plot")
        XCTAssertEqual(q.auditNode(AnswerPath([.init(name: "household", index: 1)], "age")), "/data/household[2]/health/age")
        XCTAssertEqual(q.auditNode(AnswerPath([.init(name: "household", index: 0)], "")), "/data/household[1]")
        XCTAssertNil(q.auditNode(AnswerPath("nothing")))
    }
}
