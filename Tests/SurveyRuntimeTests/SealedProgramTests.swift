import Foundation
import XCTest
import SurveyTestSupport
import SurveyValues
import SurveyForms
import SurveyStorage
@testable import SurveyUI
@testable import SurveyRuntime

/// Issue 31 on a real folder: a form with a `public_key` makes the survey an Add finishes an
/// encrypted one before anything reaches the disk; the New form's file goes after it, and no
/// file survey keeps holds an answer in clear. With every file-system call failing in turn,
/// the interview is never lost: it is on the New form's file in clear, or in the document
/// encrypted, and once every call went through it is only the latter.
final class SealedProgramTests: XCTestCase {
    /// One key for the suite: making a 2048-bit key takes a moment.
    static let key = try! RSAPrivateKey.generate()
    /// Answers no base64 text can hold (a space, a letter outside its alphabet).
    static let plot = "Río Ñandú"
    static let note = "the heron's nest"

    var folder: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("survey-sealed-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: folder)
    }

    /// A document "Plots" whose form has the key, an audit row with track-changes, and one
    /// publishable question.
    private func makeDocument(publicKey: String? = nil, records: [Record] = [], in folder: URL,
                              named name: String = "Plots") throws -> DocumentStore {
        let store = DocumentStore(folder: folder)
        try store.save(SurveyDocument(records: records), as: name)
        let form = folder.appendingPathComponent("plots.csv")
        let key = try publicKey ?? Self.key.publicKey.base64
        try Data("""
            survey,,,,,
            ,type,name,label,parameters,publishable
            ,audit,audit,,track-changes=true,
            ,text,plot,Plot,,
            ,text,note,Note,,
            ,text,team,Team,,yes
            settings,,,,,
            ,form_id,version,public_key,,
            ,plots,4,\(key),,
            """.utf8).write(to: form)
        try store.attachForm(from: form.path, to: name, at: Date())
        try FileManager.default.removeItem(at: form)
        return store
    }

    private func keyNewForm(_ p: inout Program) {
        p.send(.system(.resized(Size(width: 120, height: 40))))
        if p.state.recordCount > 0 { p.press(.control("n")) } else { p.press(.enter) }
        p.type(Self.plot); p.press(.enter)
        p.type(Self.note); p.press(.enter)
        p.type("Blue"); p.press(.enter)
    }

    /// Every file under the folder, by path, whose bytes hold `text`.
    func testAnAddedSurveyIsKeptEncryptedAndItsAuditTravelsInside() throws {
        for threshold in [Int.max, 0] {
            let folder = self.folder.appendingPathComponent("t\(threshold)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let store = try makeDocument(in: folder)
            var p = Program(store: store, documentName: "Plots", size: Size(width: 120, height: 40), journalThreshold: threshold)
            keyNewForm(&p)
            XCTAssertEqual(try filesHolding(Self.plot, in: folder), [".Plots.draft.plist"], "the interview in clear, as ODK's draft")
            p.press(.enter)                                   // [ Add ]
            XCTAssertEqual(p.state.records.count, 1)
            let shown = p.state.records[0]
            XCTAssertTrue(shown.isSealed, "the app holds it encrypted too")
            XCTAssertEqual(p.state.session.title(of: shown), "Blue", "its publishable answer names it")
            p.press(.control("q"))
            XCTAssertEqual(try filesHolding(Self.plot, in: folder), [], "no answer in clear in any file")
            XCTAssertEqual(try filesHolding(Self.note, in: folder), [])
            XCTAssertFalse(FileManager.default.fileExists(atPath: store.draftURL(for: "Plots").path))

            let stored = try XCTUnwrap(try store.load("Plots").get().records.first)
            XCTAssertTrue(stored.isSealed)
            XCTAssertEqual(Set(stored.readableValues.keys), ["instanceID", "formID", "formVersion", "team"])
            let opened = try SealedSurvey.open(stored, with: Self.key)
            XCTAssertTrue(opened.isValidated)
            let xml = String(decoding: opened.submissionXML, as: UTF8.self)
            XCTAssertTrue(xml.contains("<plot>\(Self.plot)</plot>"), xml)
            XCTAssertTrue(xml.contains("<audit>audit.csv</audit>"), xml)
            // Its audit log, with the answers track-changes keeps, is inside, not beside.
            let audit = String(decoding: try XCTUnwrap(opened.media.first { $0.name == "audit.csv" }).bytes, as: UTF8.self)
            XCTAssertTrue(audit.contains(Self.plot), audit)
            XCTAssertTrue(audit.contains("form finalize"), audit)
            XCTAssertTrue(try store.auditLog(for: "Plots").events.isEmpty, "the plain log kept nothing of it")
        }
    }

    /// An interview kept incomplete is in the document in clear (ODK keeps a draft so); once
    /// finished, nothing of it is left in clear, the journal's earlier entries included.
    func testAnIncompleteSurveyFinishedLeavesNothingInClear() throws {
        for threshold in [Int.max, 0] {
            let folder = self.folder.appendingPathComponent("t\(threshold)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let store = try makeDocument(in: folder)
            var p = Program(store: store, documentName: "Plots", size: Size(width: 120, height: 40), journalThreshold: threshold)
            keyNewForm(&p)
            p.press(.control("s"))                            // kept incomplete
            XCTAssertTrue(p.state.records.first?.isIncomplete ?? false)
            XCTAssertFalse(p.state.records[0].isSealed, "a draft stays as keyed")
            p.press(.escape, .left)
            XCTAssertEqual(p.state.shown, .record(0))
            var steps = 0
            while p.state.formItem != .add, steps < 10 { _ = p.handle(.key(.down)); steps += 1 }
            p.press(.enter)                                   // [ Finish ]
            XCTAssertTrue(p.state.records[0].isSealed, "\(String(describing: p.state.status))")
            p.press(.control("q"))
            XCTAssertEqual(try filesHolding(Self.plot, in: folder), [], "threshold \(threshold): nothing in clear")
            XCTAssertTrue(try store.auditLog(for: "Plots").events.isEmpty, "its log went inside it")
            let stored = try XCTUnwrap(try store.load("Plots").get().records.first)
            let opened = try SealedSurvey.open(stored, with: Self.key)
            XCTAssertTrue(String(decoding: opened.submissionXML, as: UTF8.self).contains(Self.plot))
            let audit = String(decoding: try XCTUnwrap(opened.media.first).bytes, as: UTF8.self)
            // The lines kept beside the document while it was a draft, answers and all, went inside.
            XCTAssertTrue(audit.contains("form start") && audit.contains(Self.plot), audit)
        }
    }

    /// Ctrl-Z after a finish, from wherever the highlight is, never puts the survey back in
    /// clear (its attachments' plaintext is already gone): refused, the survey stays sealed.
    func testUndoNeverPutsAFinishedSurveyBackInClear() throws {
        let store = try makeDocument(in: folder)
        var p = Program(store: store, documentName: "Plots", size: Size(width: 120, height: 40))
        keyNewForm(&p)
        p.press(.control("s"))                                // kept incomplete
        p.press(.escape, .left)
        var steps = 0
        while p.state.formItem != .add, steps < 10 { _ = p.handle(.key(.down)); steps += 1 }
        p.press(.enter)                                       // [ Finish ]
        XCTAssertTrue(p.state.records[0].isSealed)
        p.press(.left)                                        // to the list
        p.press(.control("z"))
        XCTAssertTrue(p.state.records[0].isSealed, p.state.status?.text ?? "")
        XCTAssertTrue(p.state.status?.text.contains("is encrypted now; that would put it back in clear") ?? false,
                      p.state.status?.text ?? "")
        p.press(.control("q"))
        XCTAssertTrue(try XCTUnwrap(try store.load("Plots").get().records.first).isSealed)
        XCTAssertEqual(try filesHolding(Self.plot, in: folder), [], "nothing in clear")
    }

    func testAnEncryptedSurveyIsListedButNotOpenedForEditing() throws {
        let store = try makeDocument(in: folder)
        var p = Program(store: store, documentName: "Plots", size: Size(width: 120, height: 40))
        keyNewForm(&p)
        p.press(.enter)                                       // [ Add ]: the survey is shown
        let before = p.state.records
        p.press(.up, .up, .up)                                // to Team
        p.press(.enter)
        XCTAssertNil(p.state.editing)
        XCTAssertEqual(p.state.status?.text, "“Blue” is encrypted for the data manager's key: it cannot be opened here")
        p.type("x")
        XCTAssertNil(p.state.editing)
        XCTAssertTrue(p.state.records.isSameStorage(as: before))
        XCTAssertEqual(try store.load("Plots").get().records.count, 1)
        // Its Add can be undone and redone: the encrypted survey goes and comes back as it was.
        p.press(.control("z"))
        XCTAssertEqual(p.state.records.count, 0)
        XCTAssertEqual(try store.load("Plots").get().records.count, 0)
        p.press(.control("y"))
        XCTAssertEqual(try store.load("Plots").get().records.first, before.first)
    }

    /// Finished surveys a failed save left in a recovery file go back into the document
    /// encrypted; an incomplete one as keyed.
    func testRecoveredFinishedSurveysArePutBackEncrypted() throws {
        let store = try makeDocument(in: folder)
        let finished = Record(["plot": .string(Self.plot), "team": .string("Blue"), "formID": .string("plots"),
                               "formVersion": .string("4"), Record.instanceIDKey: .string("uuid:r1")])
        var draft = Record(["plot": .string("draft plot"), Record.instanceIDKey: .string("uuid:r2")])
        draft.setIncomplete(true)
        try store.saveRecovery([finished, draft], for: "Plots", at: Date())
        let recovery = try XCTUnwrap(store.recoveries().first)
        try store.restore(recovery, clock: .wall)
        let records = try store.load("Plots").get().records
        XCTAssertEqual(records.count, 2)
        let sealed = try XCTUnwrap(records.first { $0.instanceID == "uuid:r1" })
        XCTAssertTrue(sealed.isSealed)
        XCTAssertTrue(String(decoding: try SealedSurvey.open(sealed, with: Self.key).submissionXML, as: UTF8.self).contains(Self.plot))
        XCTAssertFalse(try XCTUnwrap(records.first { $0.instanceID == "uuid:r2" }).isSealed, "a draft stays as keyed")
    }

    /// A key that is no key refuses the finish: the New form stays, in memory and on disk.
    func testAMalformedPublicKeyRefusesTheAddAndKeepsTheNewForm() throws {
        let store = try makeDocument(publicKey: "QUJD", in: folder)
        var p = Program(store: store, documentName: "Plots", size: Size(width: 120, height: 40))
        keyNewForm(&p)
        p.press(.enter)                                       // [ Add ]
        XCTAssertTrue(p.state.status?.text.contains("public_key is not a usable RSA public key") ?? false, "\(String(describing: p.state.status))")
        XCTAssertEqual(try store.load("Plots").get().records.count, 0)
        XCTAssertEqual(store.loadDraft(for: "Plots").text(forKey: "plot"), Self.plot)
        XCTAssertEqual(p.state.draft.text(forKey: "plot"), Self.plot)
    }

    /// Each file-system call of the Add fails in turn: the interview is in the New form's
    /// file (in clear) or in the document (encrypted), never neither; once every call went
    /// through, nothing in clear is left.
    func testAFailingCallNeverLosesTheSurveyAndASuccessLeavesNoPlaintext() throws {
        final class Arm: @unchecked Sendable {
            var armed = false
            var calls = 0
            var failAt = 0
        }
        var failAt = 1
        while failAt < 200 {
            let folder = self.folder.appendingPathComponent("f\(failAt)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            _ = try makeDocument(in: folder)
            let arm = Arm()
            arm.failAt = failAt
            let failing = DocumentStore(folder: folder, fileSystem: .failing { _, _ in
                guard arm.armed else { return nil }
                arm.calls += 1
                return arm.calls == arm.failAt ? EIO : nil
            })
            var p = Program(store: failing, documentName: "Plots", size: Size(width: 120, height: 40))
            keyNewForm(&p)
            arm.armed = true
            p.press(.enter)                                   // [ Add ]
            arm.armed = false
            let failed = arm.calls >= failAt
            let store = DocumentStore(folder: folder)
            let sealed = try store.load("Plots").get().records.filter(\.isSealed)
            let inDocument = try sealed.contains {
                String(decoding: try SealedSurvey.open($0, with: Self.key).submissionXML, as: UTF8.self).contains(Self.plot)
            }
            let inDraft = store.loadDraft(for: "Plots").text(forKey: "plot") == Self.plot
            XCTAssertTrue(inDocument || inDraft, "call \(failAt) failed: the survey is lost")
            XCTAssertFalse(try store.load("Plots").get().records.contains { !$0.isSealed }, "call \(failAt): a survey in clear in the document")
            // Nothing is noted of a survey that is not on disk (a failed save seals nothing).
            let ids = Set(sealed.compactMap(\.instanceID))
            if let log = try? store.verificationLog(for: "Plots") {
                XCTAssertTrue(log.entries.allSatisfy { ids.contains($0.survey) }, "call \(failAt): a note of a survey not saved")
            }
            if !failed {
                XCTAssertTrue(inDocument)
                XCTAssertEqual(try filesHolding(Self.plot, in: folder), [], "every call went through: nothing in clear")
                XCTAssertGreaterThan(failAt, 3, "the Add made file-system calls")
                break
            }
            failAt += 1
        }
        XCTAssertLessThan(failAt, 200)
    }

    /// Finished surveys in clear, as kept before the form had its key (or as a teammate sent them).
    static func plainSurveys(_ names: [String]) -> [Record] {
        names.map { Record(["plot": .string($0), "team": .string("Red"), Record.instanceIDKey: .string("uuid:\($0)")]) }
    }

    /// Deleting one survey moves those after it, but changes none of them: they stay as they
    /// were (a survey finished before the form had its key is never sealed behind the keyer's
    /// back). The save's surveys are found by id, not by place.
    func testADeleteSealsNoneOfTheSurveysAfterIt() throws {
        for threshold in [Int.max, 0] {
            let folder = self.folder.appendingPathComponent("t\(threshold)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let store = try makeDocument(records: Self.plainSurveys(["P1", "P2", "P3", "P4", "P5"]), in: folder)
            var p = Program(store: store, documentName: "Plots", size: Size(width: 120, height: 40), journalThreshold: threshold)
            p.send(.system(.resized(Size(width: 120, height: 40))))
            p.handle(.key(.down))
            p.handle(.key(.character("d")))
            p.handle(.key(.character("y")))
            p.press(.control("q"))
            let stored = try store.load("Plots").get().records
            XCTAssertEqual(stored.map(\.instanceID), ["uuid:P1", "uuid:P3", "uuid:P4", "uuid:P5"], "threshold \(threshold)")
            XCTAssertEqual(stored.filter(\.isSealed).count, 0, "threshold \(threshold): untouched surveys were sealed")
        }
    }

    /// A survey another program added to the file while this one had it open is the other's
    /// change, merged in: the save that follows seals none of it (the base is the file as read
    /// back, not as this program last wrote it).
    func testASurveyMergedFromAChangeOnDiskIsNotSealed() throws {
        for threshold in [Int.max, 0] {
            let folder = self.folder.appendingPathComponent("t\(threshold)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let store = try makeDocument(records: Self.plainSurveys(["P1", "P2"]), in: folder)
            var p = Program(store: store, documentName: "Plots", size: Size(width: 120, height: 40), journalThreshold: threshold)
            p.send(.system(.resized(Size(width: 120, height: 40))))
            var other = try DocumentStore(folder: folder).load("Plots").get()
            other.records += Self.plainSurveys(["T"])
            try DocumentStore(folder: folder).save(other, as: "Plots")
            p.handle(.key(.character("d")))                   // P1
            p.handle(.key(.character("y")))
            p.press(.control("q"))
            let stored = try store.load("Plots").get().records
            XCTAssertEqual(stored.map(\.instanceID), ["uuid:P2", "uuid:T"], "threshold \(threshold): \(String(describing: p.state.status))")
            XCTAssertEqual(stored.filter(\.isSealed).count, 0, "threshold \(threshold): the teammate's survey was sealed")
        }
    }

    /// The audit log sealed inside survey `index` of the stored document.
    private func sealedAudit(_ store: DocumentStore, at index: Int = 0) throws -> String {
        let records = try store.load("Plots").get().records
        let stored = try XCTUnwrap(records.indices.contains(index) ? records[index] : nil, "no survey \(index + 1)")
        XCTAssertTrue(stored.isSealed)
        let opened = try SealedSurvey.open(stored, with: Self.key)
        return String(decoding: try XCTUnwrap(opened.media.first { $0.name == "audit.csv" }, "no audit.csv inside").bytes, as: UTF8.self)
    }

    /// An Add whose save finds the file changed on disk merges and saves again (a save nested
    /// in the Add's): the New form's log still goes inside the survey, and none of it beside.
    func testAnAddMergedWithAChangeOnDiskSealsItsAuditInside() throws {
        let store = try makeDocument(records: Self.plainSurveys(["P1"]), in: folder)
        var p = Program(store: store, documentName: "Plots", size: Size(width: 120, height: 40))
        keyNewForm(&p)
        var other = try DocumentStore(folder: folder).load("Plots").get()
        other.records += Self.plainSurveys(["T"])
        try DocumentStore(folder: folder).save(other, as: "Plots")
        p.press(.enter)                                       // [ Add ]
        p.press(.control("q"))
        let stored = try store.load("Plots").get().records
        XCTAssertEqual(stored.count, 3, "\(String(describing: p.state.status))")
        let added = try XCTUnwrap(stored.firstIndex(where: \.isSealed))
        let audit = try sealedAudit(store, at: added)
        XCTAssertTrue(audit.contains("form finalize") && audit.contains(Self.plot), audit)
        XCTAssertEqual(try filesHolding(Self.plot, in: folder), [], "nothing in clear")
    }

    /// [ Finish ] of a survey just edited: its open log (the edit, track-changes' values) ends
    /// in the save that encrypts it and goes inside, not later in clear nor nowhere.
    func testFinishAfterAnEditSealsTheEditsAuditInside() throws {
        for threshold in [Int.max, 0] {
            let folder = self.folder.appendingPathComponent("t\(threshold)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let store = try makeDocument(in: folder)
            var p = Program(store: store, documentName: "Plots", size: Size(width: 120, height: 40), journalThreshold: threshold)
            keyNewForm(&p)
            p.press(.control("s"))                            // kept incomplete
            p.press(.escape, .left)
            XCTAssertEqual(p.state.shown, .record(0))
            var steps = 0
            while p.state.formItem != .field(2), steps < 10 { _ = p.handle(.key(.down)); steps += 1 }
            p.press(.enter, .control("u")); p.type("the egret's nest"); p.press(.enter)
            steps = 0
            while p.state.formItem != .add, steps < 10 { _ = p.handle(.key(.down)); steps += 1 }
            p.press(.enter)                                   // [ Finish ]
            XCTAssertTrue(p.state.records[0].isSealed, "\(String(describing: p.state.status))")
            p.press(.up)
            p.press(.control("q"))
            XCTAssertEqual(try filesHolding("egret", in: folder), [], "threshold \(threshold): nothing in clear")
            let audit = try sealedAudit(store)
            XCTAssertTrue(audit.contains("form resume") && audit.contains("the egret's nest") && audit.contains("form finalize"),
                          "threshold \(threshold): \(audit)")
            XCTAssertTrue(try store.auditLog(for: "Plots").events.isEmpty, "threshold \(threshold): a line left beside")
        }
    }

    /// A visit that updates an entity is stamped with the entity's base before it is sealed:
    /// its New form's log is still found (by the survey's id) and goes inside.
    func testAnEntityUpdateAddSealsItsAuditInside() throws {
        let store = DocumentStore(folder: folder)
        try store.save(SurveyDocument(), as: "Plots")
        let form = folder.appendingPathComponent("visit.md")
        try Data("""
            | survey |
            | | type | name | label | save_to | parameters |
            | | audit | audit | | | |
            | | text | hh | Household | | |
            | | text | phone | Phone | phone | |
            | | text | village | Village | village | |
            | entities |
            | | list_name | entity_id |
            | | households | ${hh} |
            | settings |
            | | form_id | version | public_key |
            | | visit | 1 | \(try Self.key.publicKey.base64) |
            """.utf8).write(to: form)
        try store.attachForm(from: form.path, to: "Plots", at: Date())
        try FileManager.default.removeItem(at: form)
        try store.applyEntityActions([EntityAction(kind: .create, list: "households", id: "h1", label: "Ana",
                                                   properties: [.init(name: "phone", value: "555 0101"),
                                                                .init(name: "village", value: "Lima")], member: [])])
        var p = Program(store: store, documentName: "Plots", size: Size(width: 120, height: 40))
        p.send(.system(.resized(Size(width: 120, height: 40))))
        p.press(.control("n"))
        for answer in ["h1", "555 0199", Self.plot] { p.type(answer); p.press(.enter) }
        XCTAssertEqual(p.state.formItem, .add)
        p.press(.enter)                                       // [ Add ]
        p.press(.control("q"))
        let audit = try sealedAudit(store)
        XCTAssertTrue(audit.contains("form start") && audit.contains("form finalize"), audit)
        XCTAssertTrue(try store.auditLog(for: "Plots").events.isEmpty)
    }

    /// `v` never chooses an encrypted survey (it cannot be keyed again here, as `survey
    /// verify` leaves it out): shown, it is said why; the plain survey beside it is chosen.
    func testVerifyLeavesEncryptedSurveysOut() throws {
        let store = try makeDocument(in: folder)
        var p = Program(store: store, documentName: "Plots", size: Size(width: 120, height: 40))
        keyNewForm(&p)
        p.press(.enter)                                       // [ Add ]: encrypted, shown
        XCTAssertTrue(p.state.records[0].isSealed)
        p.press(.function(2))
        p.press(.character("v"))
        XCTAssertNil(p.state.popover, "verifying an encrypted survey")
        XCTAssertEqual(p.state.status?.text, "“Blue” is encrypted for the data manager's key: it cannot be verified here")
        XCTAssertTrue(try store.verificationLog(for: "Plots").chosen.isEmpty, "chosen for verification")
    }

    final class Switch: @unchecked Sendable { var on = false }

    /// An audit log beside the document that cannot be read never stops a finish: the survey
    /// is sealed with the lines its finish brings, and the status line says the others stay.
    func testAnUnreadableAuditLogDoesNotStopTheFinish() throws {
        _ = try makeDocument(in: folder)
        let unreadable = Switch()
        let failing = DocumentStore(folder: folder, fileSystem: .failing { operation, path in
            unreadable.on && operation == .open && (path?.hasSuffix(".audit.csv") ?? false) ? EACCES : nil
        })
        var p = Program(store: failing, documentName: "Plots", size: Size(width: 120, height: 40))
        keyNewForm(&p)
        unreadable.on = true
        p.press(.enter)                                       // [ Add ]
        let status = p.state.status?.text ?? ""
        XCTAssertEqual(p.state.records.count, 1, status)
        XCTAssertTrue(status.contains("without the audit lines kept beside the document"), status)
        unreadable.on = false
        p.press(.control("q"))
        let store = DocumentStore(folder: folder)
        let audit = try sealedAudit(store)
        XCTAssertTrue(audit.contains("form start") && audit.contains("form finalize"), audit)
    }

    /// The plain log that could not be rewritten after a finish keeps the sealed survey's lines
    /// only until the next save, which takes them out.
    func testAFailedRemovalOfSealedLinesIsTriedAgainAtTheNextSave() throws {
        _ = try makeDocument(in: folder)
        let broken = Switch()
        let failing = DocumentStore(folder: folder, fileSystem: .failing { operation, path in
            broken.on && operation == .rename && (path?.hasSuffix(".audit.csv") ?? false) ? EIO : nil
        })
        var p = Program(store: failing, documentName: "Plots", size: Size(width: 120, height: 40))
        keyNewForm(&p)
        p.press(.control("s"))                                // kept incomplete: its lines beside
        let id = try XCTUnwrap(p.state.records.first?.instanceID)
        XCTAssertFalse(try failing.auditLog(for: "Plots").events.filter { $0.survey == id }.isEmpty)
        p.press(.escape, .left)
        var steps = 0
        while p.state.formItem != .add, steps < 10 { _ = p.handle(.key(.down)); steps += 1 }
        broken.on = true
        p.press(.enter)                                       // [ Finish ]
        broken.on = false
        XCTAssertTrue(p.state.records[0].isSealed)
        XCTAssertTrue(p.state.status?.text.contains("tried again at the next save") ?? false, "\(String(describing: p.state.status))")
        XCTAssertTrue(try filesHolding(Self.plot, in: folder).contains(".Plots.audit.csv"), "left beside for now")
        p.press(.control("n"))
        p.type("another plot"); p.press(.enter)
        p.press(.control("s"))                                // the next save
        p.press(.control("q"))
        XCTAssertTrue(try DocumentStore(folder: folder).auditLog(for: "Plots").events.filter { $0.survey == id }.isEmpty)
        XCTAssertEqual(try filesHolding(Self.plot, in: folder), [], "nothing of it in clear")
    }
}

extension SealedProgramTests {
    /// An encrypted form that registers entities: the Add's survey is stamped with the entity's
    /// base before it is sealed, so its sealed copy is not the survey the core added. Who keyed
    /// it (`.noteKeyed`, `survey stats`, F4) is still noted, under the survey's id.
    func testAnEntityUpdateAddNotesWhoKeyedIt() throws {
        let store = DocumentStore(folder: folder)
        try store.save(SurveyDocument(), as: "Plots")
        let form = folder.appendingPathComponent("visit.md")
        try Data("""
            | survey |
            | | type | name | label | save_to |
            | | text | hh | Household | |
            | | text | phone | Phone | phone |
            | | text | village | Village | village |
            | entities |
            | | list_name | entity_id |
            | | households | ${hh} |
            | settings |
            | | form_id | version | public_key |
            | | visit | 1 | \(try Self.key.publicKey.base64) |
            """.utf8).write(to: form)
        try store.attachForm(from: form.path, to: "Plots", at: Date())
        try FileManager.default.removeItem(at: form)
        try store.applyEntityActions([EntityAction(kind: .create, list: "households", id: "h1", label: "Ana",
                                                   properties: [.init(name: "phone", value: "555 0101"),
                                                                .init(name: "village", value: "Lima")], member: [])])
        // A New form an earlier version kept (its file holds no id).
        try store.saveDraft(Record(["hh": .string("h1"), "phone": .string("555 0199"), "village": .string(Self.plot)]),
                            for: "Plots", in: try store.questionnaire(for: "Plots"))
        var p = Program(store: store, documentName: "Plots", size: Size(width: 120, height: 40))
        p.send(.system(.resized(Size(width: 120, height: 40))))
        p.press(.control("n"))
        var steps = 0
        while p.state.formItem != .add, steps < 10 { _ = p.handle(.key(.down)); steps += 1 }
        p.press(.enter)                                       // [ Add ]
        p.press(.control("q"))
        let stored = try XCTUnwrap(try store.load("Plots").get().records.first)
        XCTAssertTrue(stored.isSealed)
        let entries = try store.verificationLog(for: "Plots").entries
        XCTAssertEqual(entries.map(\.survey), [try XCTUnwrap(stored.instanceID)], "\(String(describing: p.state.status))")
        XCTAssertEqual(entries.first?.kind, .keyed)
    }
}

extension SealedProgramTests {
    /// Launches `store`'s "Plots", whole or read in parts (its first survey, then the rest).
    private func start(_ store: DocumentStore, streaming: Bool) -> Program {
        var q = streaming
            ? Program(store: store, documentName: "Plots", size: Size(width: 120, height: 40), identifyLater: true,
                      streamingFrom: 0, firstRecords: 1)
            : Program(store: store, documentName: "Plots", size: Size(width: 120, height: 40))
        if streaming {
            XCTAssertTrue(q.isLoading)
            q.finishOpening()
            q.finishBackgroundWork()
        }
        q.send(.system(.resized(Size(width: 120, height: 40))))
        return q
    }

    /// An Add that stopped between the encrypted survey's save and the removal of the New
    /// form's file (a crash; here the removal fails) leaves the interview in clear in that
    /// file, which the Add marked, before the save, with the id the save gave the survey. The
    /// next start finds that id in the document: the file is removed and nothing is offered
    /// again (no plaintext, no second copy of the survey), a document read whole or in parts,
    /// saved whole or through its journal.
    func testANewFormFileLeftByAnInterruptedAddIsRemovedAtTheNextStart() throws {
        for streaming in [false, true] {
            for threshold in [Int.max, 0] {
                let folder = self.folder.appendingPathComponent("s\(streaming)-t\(threshold)")
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
                _ = try makeDocument(records: Self.plainSurveys(["P1", "P2"]), in: folder)
                let stuck = DocumentStore(folder: folder, fileSystem: .failing { operation, path in
                    // The removal fails whole: the file can be neither opened (to zero it) nor unlinked.
                (operation == .unlink || operation == .open) && (path?.hasSuffix(".Plots.draft.plist") ?? false) ? EIO : nil
                })
                var p = Program(store: stuck, documentName: "Plots", size: Size(width: 120, height: 40), journalThreshold: threshold)
                keyNewForm(&p)
                XCTAssertNil(stuck.loadDraft(for: "Plots").instanceID, "the New form has no id before its save")
                XCTAssertNil(stuck.draftBeingStoredAs(for: "Plots"))
                p.press(.enter)                                   // [ Add ]
                p.finishBackgroundWork()
                let stored = try stuck.load("Plots").get().records
                XCTAssertEqual(stored.count, 3)
                XCTAssertTrue(stored.last?.isSealed ?? false)
                XCTAssertEqual(stuck.draftBeingStoredAs(for: "Plots"), stored.last?.instanceID, "marked with the id it was stored under")
                XCTAssertEqual(stuck.loadDraft(for: "Plots").text(forKey: "plot"), Self.plot, "the survey, whole, until the save landed")
                XCTAssertEqual(try filesHolding(Self.plot, in: folder), [".Plots.draft.plist"], "left behind in clear")
                // The crash: p goes no further.

                let store = DocumentStore(folder: folder)
                var q = start(store, streaming: streaming)
                let label = "streaming \(streaming), journal \(threshold == 0)"
                XCTAssertTrue(q.state.draft.isBlank(in: q.state.questionnaire), "\(label): offered again")
                XCTAssertTrue(q.state.status?.text.contains("An Add stopped before removing the New form's file") ?? false,
                              "\(label): \(String(describing: q.state.status))")
                XCTAssertFalse(FileManager.default.fileExists(atPath: store.draftURL(for: "Plots").path), label)
                XCTAssertEqual(try filesHolding(Self.plot, in: folder), [], "\(label): nothing in clear")
                q.press(.control("q"))
                XCTAssertEqual(try store.load("Plots").get().records.count, 3, "\(label): one copy of the survey")
            }
        }
    }

    /// An Add whose save never landed (the document's rename fails, and the program stops
    /// there: every later call fails too) leaves the New form's file marked with an id the
    /// document does not hold: the next start offers it as the New form, whole, and its Add
    /// stores it once, encrypted.
    func testANewFormFileMarkedForASaveThatNeverLandedComesBackWhole() throws {
        final class Arm: @unchecked Sendable { var crashed = false }
        for streaming in [false, true] {
            let folder = self.folder.appendingPathComponent("s\(streaming)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            _ = try makeDocument(records: Self.plainSurveys(["P1", "P2"]), in: folder)
            let arm = Arm()
            let crashing = DocumentStore(folder: folder, fileSystem: .failing { operation, path in
                if operation == .rename, path?.hasSuffix("/Plots.plist") ?? false { arm.crashed = true }
                return arm.crashed ? EIO : nil
            })
            var p = Program(store: crashing, documentName: "Plots", size: Size(width: 120, height: 40))
            keyNewForm(&p)
            p.press(.enter)                                       // [ Add ]: the save's rename fails, then everything
            XCTAssertTrue(arm.crashed)
            let marked = try XCTUnwrap(crashing.draftBeingStoredAs(for: "Plots"), "the mark written before the save")
            XCTAssertEqual(try crashing.load("Plots").get().records.count, 2, "the save never landed")

            let store = DocumentStore(folder: folder)
            var q = start(store, streaming: streaming)
            XCTAssertEqual(q.state.draft.text(forKey: "plot"), Self.plot, "streaming \(streaming)")
            XCTAssertEqual(q.state.draft.text(forKey: "note"), Self.note, "streaming \(streaming)")
            XCTAssertEqual(q.state.draft.text(forKey: "team"), "Blue", "streaming \(streaming): the New form whole")
            XCTAssertNil(q.state.draft.instanceID)
            q.press(.control("n"))
            var steps = 0
            while q.state.formItem != .add, steps < 10 { _ = q.handle(.key(.down)); steps += 1 }
            q.press(.enter)                                       // [ Add ]
            q.press(.control("q"))
            let stored = try store.load("Plots").get().records
            XCTAssertEqual(stored.count, 3, "streaming \(streaming): \(String(describing: q.state.status))")
            XCTAssertTrue(stored[2].isSealed)
            XCTAssertNotEqual(stored[2].instanceID, marked, "an id of its own save")
            XCTAssertEqual(try filesHolding(Self.plot, in: folder), [], "streaming \(streaming)")
        }
    }

    /// The save of an Add writes the document, then its folder's sync fails: the survey is on
    /// disk, so the Add is not undone nor asked again (AtomicFile), and the survey is stored
    /// once, its New form's file removed. A second Enter on [ Add ] asks for a copy, and no
    /// is no survey.
    func testAnAddWhoseFolderSyncFailsIsStoredOnce() throws {
        final class Arm: @unchecked Sendable { var renamed = false, failed = 0 }
        let arm = Arm()
        _ = try makeDocument(records: Self.plainSurveys(["P1"]), in: folder)
        let failing = DocumentStore(folder: folder, fileSystem: .failing { operation, path in
            if operation == .rename, path?.hasSuffix("/Plots.plist") ?? false { arm.renamed = true; return nil }
            if arm.renamed, operation == .sync, path == nil { arm.renamed = false; arm.failed += 1; return EIO }
            return nil
        })
        var p = Program(store: failing, documentName: "Plots", size: Size(width: 120, height: 40))
        keyNewForm(&p)
        p.press(.enter)                                           // [ Add ]
        XCTAssertEqual(arm.failed, 1, "the folder's sync failed")
        XCTAssertNotEqual(p.state.status?.kind, .error, "\(String(describing: p.state.status))")
        p.press(.enter)                                           // Add again: a copy?
        p.press(.character("n"))
        p.press(.control("q"))
        let stored = try DocumentStore(folder: folder).load("Plots").get().records
        XCTAssertEqual(stored.count, 2, "\(String(describing: p.state.status))")
        XCTAssertEqual(Set(stored.compactMap(\.instanceID)).count, 2)
        XCTAssertEqual(try filesHolding(Self.plot, in: folder), [])
    }

    /// Two windows, each keying its own New form of one document. a's Add stops between its
    /// save and the removal of its file (left marked). b's next write of its own New form finds
    /// that file: the copy of a stored survey, not another window's New form, so it is not
    /// kept aside (it would come back as a second copy of a's survey); b's Add adds b's survey.
    /// Each window's survey is stored once, under its own id, and nothing is left in clear.
    func testTwoWindowsEachAddTheirOwnNewForm() throws {
        for threshold in [Int.max, 0] {
            let folder = self.folder.appendingPathComponent("t\(threshold)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let store = try makeDocument(records: Self.plainSurveys(["P1"]), in: folder)
            let stuck = DocumentStore(folder: folder, fileSystem: .failing { operation, path in
                // The removal fails whole: the file can be neither opened (to zero it) nor unlinked.
                (operation == .unlink || operation == .open) && (path?.hasSuffix(".Plots.draft.plist") ?? false) ? EIO : nil
            })
            var a = Program(store: stuck, documentName: "Plots", size: Size(width: 120, height: 40), journalThreshold: threshold)
            var b = Program(store: store, documentName: "Plots", size: Size(width: 120, height: 40))
            b.send(.system(.resized(Size(width: 120, height: 40))))
            keyNewForm(&a)
            a.press(.enter)                                       // [ Add ] in a: its file left behind
            a.finishBackgroundWork()
            XCTAssertNotNil(stuck.draftBeingStoredAs(for: "Plots"), "\(String(describing: a.state.status))")
            let peek = Self.peek(store, in: folder)
            b.press(.control("n"))
            b.type("Cerro Azul"); b.press(.enter)                 // b's New form: the file is a's
            b.type("Green"); b.press(.enter)                      // b keys on: its file written again
            XCTAssertNil(try Data(contentsOf: peek).firstRange(of: Data(Self.plot.utf8)), "a's file replaced, its bytes left in clear")
            try FileManager.default.removeItem(at: peek)
            XCTAssertEqual(store.recoveries(), [], "a's stored survey kept aside as b's other window's New form")
            var steps = 0
            while b.state.formItem != .add, steps < 12 { b.press(.down); steps += 1 }
            b.press(.enter)                                       // [ Add ] in b
            b.press(.control("q"))
            let stored = try store.load("Plots").get().records
            XCTAssertEqual(stored.count, 3, "threshold \(threshold): \(String(describing: b.state.status))")
            XCTAssertEqual(Set(stored.compactMap(\.instanceID)).count, 3, "one id twice")
            XCTAssertTrue(stored[1].isSealed && stored[2].isSealed)
            let plots = try stored.dropFirst().map { try SealedSurvey.open($0, with: Self.key).submissionXML }
                .map { String(decoding: $0, as: UTF8.self) }
            XCTAssertEqual(plots.filter { $0.contains(Self.plot) }.count, 1, "a's survey once")
            XCTAssertEqual(plots.filter { $0.contains("Cerro Azul") }.count, 1, "b's survey once")
            XCTAssertEqual(try filesHolding(Self.plot, in: folder), [], "threshold \(threshold)")
            XCTAssertEqual(try filesHolding("Cerro Azul", in: folder), [], "threshold \(threshold)")
            XCTAssertEqual(store.recoveries(), [])
        }
    }
}

extension SealedProgramTests {
    /// A save that fails (a full disk) while an answer is typed on the New form, then a signal:
    /// what only the screen held goes to a recovery file, encrypted as the failed save would
    /// have written it, whichever call of that stop fails. Put back at the next start, it is in
    /// the document encrypted, its file in `.trash` encrypted, and the New form's file of the
    /// same interview is dropped: no file under the folder holds an answer in clear.
    func testASurveyKeptForRecoveryIsEncryptedAndStaysSoInTheTrash() throws {
        final class Arm: @unchecked Sendable {
            var full = false
            var counting = false
            var calls = 0
            var failAt = 0
        }
        var failAt = 1
        while failAt < 100 {
            let folder = self.folder.appendingPathComponent("f\(failAt)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            _ = try makeDocument(in: folder)
            let arm = Arm()
            arm.failAt = failAt
            let failing = DocumentStore(folder: folder, fileSystem: .failing { operation, path in
                if arm.counting {
                    arm.calls += 1
                    if arm.calls == arm.failAt { return EIO }
                }
                // The disk is full: no file but a recovery can be written.
                let temporary = path.map { $0.contains(".tmp-") && !$0.contains(".recovered-") } ?? false
                return arm.full && operation == .open && temporary ? ENOSPC : nil
            })
            var p = Program(store: failing, documentName: "Plots", size: Size(width: 120, height: 40))
            p.send(.system(.resized(Size(width: 120, height: 40))))
            p.press(.enter)
            p.type(Self.plot); p.press(.enter)                // saved in the New form's file
            p.type(Self.note)
            arm.full = true
            p.press(.enter)                                   // not saved: the note is only on screen
            XCTAssertEqual(p.state.editing?.text, Self.note, "put back on the form")
            arm.counting = true
            p.terminate()                                     // SIGTERM: kept for the next start
            arm.counting = false
            let failed = arm.calls >= failAt
            let store = DocumentStore(folder: folder)
            XCTAssertEqual(try filesHolding(Self.note, in: folder), [], "call \(failAt) failed: the note in clear")
            let kept = store.recoveries()
            if failed && kept.isEmpty { failAt += 1; continue }   // the recovery itself could not be written
            let survey = try XCTUnwrap(kept.first?.records.first, "call \(failAt)")
            XCTAssertTrue(survey.isSealed, "call \(failAt): kept in clear")
            let xml = String(decoding: try SealedSurvey.open(survey, with: Self.key).submissionXML, as: UTF8.self)
            XCTAssertTrue(xml.contains(Self.note) && xml.contains(Self.plot), "call \(failAt): \(xml)")
            if failed { failAt += 1; continue }

            // The next start offers it; m puts it back.
            let clock = TestClock()
            var q = Program(store: store, documentName: "Plots", size: Size(width: 120, height: 40), clock: clock.wallClock)
            guard case .recovery = q.state.popover else { return XCTFail("offered at the next start") }
            clock.advance(2)
            q.press(.character("m"))
            q.press(.control("q"))
            let records = try store.load("Plots").get().records
            XCTAssertEqual(records.count, 1, "\(String(describing: q.state.status))")
            XCTAssertTrue(records.first?.isSealed ?? false)
            XCTAssertEqual(records.first?.instanceID, survey.instanceID)
            XCTAssertEqual(store.recoveries(), [])
            XCTAssertFalse(try FileManager.default.contentsOfDirectory(atPath: store.trashFolder.path).isEmpty, "its file went to .trash")
            XCTAssertEqual(try filesHolding(Self.note, in: folder), [], "nothing in clear, .trash included")
            XCTAssertEqual(try filesHolding(Self.plot, in: folder), [], "the New form's file of it dropped")
            XCTAssertGreaterThan(failAt, 3, "the stop made file-system calls")
            break
        }
        XCTAssertLessThan(failAt, 100)
    }
}

/// Issue 31, the review: the marked file is checked and removed through one opening, and its
/// bytes are zeroed whichever way it goes.
extension SealedProgramTests {
    /// The marked file of a stored survey is replaced by another window's next New form at any
    /// system call of its removal at the next start: the file put in its place is left whole
    /// (the removal zeroes and unlinks only the file it checked).
    func testAFilePutInPlaceOfAMarkedOneDuringItsRemovalIsLeftWhole() throws {
        final class Arm: @unchecked Sendable {
            var calls = 0, at = 0, replaced = false
            var replace: () -> Void = {}
        }
        let marked = Record(["firstName": .string(Self.plot)])
        let next = Record(["firstName": .string("Cerro Azul")])
        let stored = SurveyDocument(records: [Record([Record.instanceIDKey: .string("uuid:x")])])
        var at = 1
        while at < 30 {
            let folder = self.folder.appendingPathComponent("c\(at)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let live = DocumentStore(folder: folder)
            try live.saveDraft(marked, for: "Plots", in: .standard, beingStoredAs: "uuid:x")
            let arm = Arm()
            arm.at = at
            arm.replace = { try? live.saveDraft(next, for: "Plots", in: .standard) }
            let racing = DocumentStore(folder: folder, fileSystem: .failing { _, _ in
                arm.calls += 1
                if arm.calls == arm.at { arm.replaced = true; arm.replace() }
                return nil
            })
            let said = Program.settleNewFormLeftByAnAdd(of: "Plots", in: racing, loaded: .success(stored), streaming: false)
            guard arm.replaced else {
                XCTAssertNotNil(said, "no replacement: the marked file removed")
                XCTAssertFalse(FileManager.default.fileExists(atPath: live.draftURL(for: "Plots").path))
                break
            }
            XCTAssertEqual(live.loadDraft(for: "Plots"), next, "replaced at call \(at): the other window's New form lost")
            XCTAssertNil(live.draftBeingStoredAs(for: "Plots"), "call \(at)")
            at += 1
        }
        XCTAssertGreaterThan(at, 2, "the removal made system calls")
        XCTAssertLessThan(at, 30)
    }

    /// A second name for the New form's file, taken while it is marked: what its bytes are
    /// once survey is done with it (an unlink or a rename over it leaves them as they were).
    private static func peek(_ store: DocumentStore, in folder: URL) -> URL {
        let peek = folder.appendingPathComponent("peek")
        if !FileManager.default.fileExists(atPath: peek.path) {
            try? FileManager.default.linkItem(atPath: store.draftURL(for: "Plots").path, toPath: peek.path)
        }
        return peek
    }

    /// An Add that goes through removes the marked file (the finished survey in clear) with
    /// its bytes zeroed first, not by an unlink alone.
    func testTheMarkedFileOfAnAddThatWentThroughIsZeroed() throws {
        for threshold in [Int.max, 0] {
            let folder = self.folder.appendingPathComponent("t\(threshold)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let live = try makeDocument(records: Self.plainSurveys(["P1"]), in: folder)
            final class Arm: @unchecked Sendable { var peeked = false }
            let arm = Arm()
            let watched = DocumentStore(folder: folder, fileSystem: .failing { operation, path in
                // Before the marked file is touched after the save: a second name for it.
                if !arm.peeked, operation == .open || operation == .unlink, path?.hasSuffix(".Plots.draft.plist") ?? false,
                   let id = live.draftBeingStoredAs(for: "Plots"), live.documentBytesHold(id, in: "Plots") {
                    arm.peeked = FileManager.default.fileExists(atPath: Self.peek(live, in: folder).path)
                }
                return nil
            })
            var p = Program(store: watched, documentName: "Plots", size: Size(width: 120, height: 40), journalThreshold: threshold)
            keyNewForm(&p)
            p.press(.enter)                                       // [ Add ]
            p.finishBackgroundWork()
            XCTAssertTrue(arm.peeked, "threshold \(threshold): the marked file seen")
            XCTAssertFalse(FileManager.default.fileExists(atPath: live.draftURL(for: "Plots").path))
            let bytes = try Data(contentsOf: folder.appendingPathComponent("peek"))
            XCTAssertFalse(bytes.isEmpty)
            XCTAssertNil(bytes.firstRange(of: Data(Self.plot.utf8)), "threshold \(threshold): the survey left in clear in the freed file")
            XCTAssertTrue(bytes.allSatisfy { $0 == 0 }, "threshold \(threshold)")
        }
    }

    /// A document named with the most a name may hold (200 bytes: 100 Cyrillic letters): the
    /// marked file of its Add goes as any other's, and leaves no name behind (the private name
    /// it is moved to before it goes was once too long for the file system, and every Add's
    /// removal failed).
    func testTheMarkedFileOfADocumentWithTheLongestNameGoesAfterItsAdd() throws {
        let name = String(repeating: "Ж", count: 100)
        let store = try makeDocument(records: Self.plainSurveys(["P1"]), in: folder, named: name)
        var p = Program(store: store, documentName: name, size: Size(width: 120, height: 40))
        keyNewForm(&p)
        p.press(.enter)                                           // [ Add ]
        p.finishBackgroundWork()
        XCTAssertEqual(p.state.recordCount, 2, p.state.status?.text ?? "")
        XCTAssertTrue(p.state.records[1].isSealed, p.state.status?.text ?? "")
        XCTAssertFalse(FileManager.default.fileExists(atPath: store.draftURL(for: name).path), p.state.status?.text ?? "")
        let left = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.contains(".draft.plist") }
        XCTAssertEqual(left, [], p.state.status?.text ?? "")
        XCTAssertFalse(p.state.status?.text.lowercased().contains("could not") ?? false, p.state.status?.text ?? "")
    }

    /// Another window meets a file marked with an id the document does not hold (a's save
    /// failed after the mark; a stops there): the file is the only copy of a's survey, which
    /// b keeps for recovery (encrypted) before writing its own New form over it, whose bytes
    /// are then zeroed.
    func testAnotherWindowKeepsASurveyWhoseSaveFailedAfterTheMark() throws {
        final class Arm: @unchecked Sendable { var crashed = false }
        let store = try makeDocument(records: Self.plainSurveys(["P1"]), in: folder)
        let arm = Arm()
        let crashing = DocumentStore(folder: folder, fileSystem: .failing { operation, path in
            if operation == .rename, path?.hasSuffix("/Plots.plist") ?? false { arm.crashed = true }
            return arm.crashed ? EIO : nil
        })
        var a = Program(store: crashing, documentName: "Plots", size: Size(width: 120, height: 40))
        var b = Program(store: store, documentName: "Plots", size: Size(width: 120, height: 40))
        b.send(.system(.resized(Size(width: 120, height: 40))))
        keyNewForm(&a)
        a.press(.enter)                                           // [ Add ]: the save fails, then everything
        XCTAssertTrue(arm.crashed)
        XCTAssertNotNil(store.draftBeingStoredAs(for: "Plots"), "marked")
        XCTAssertEqual(try store.load("Plots").get().records.count, 1, "the save never landed")
        let peek = Self.peek(store, in: folder)
        b.press(.control("n"))
        b.type("Cerro Azul"); b.press(.enter)                     // b's New form written over a's file
        b.finishBackgroundWork()
        XCTAssertEqual(store.loadDraft(for: "Plots").text(forKey: "plot"), "Cerro Azul")
        let kept = store.recoveries().flatMap(\.records)
        XCTAssertEqual(kept.count, 1, "a's survey kept: \(String(describing: b.state.status))")
        let xml = try kept.first.map { String(decoding: try SealedSurvey.open($0, with: Self.key).submissionXML, as: UTF8.self) }
        XCTAssertTrue(xml?.contains(Self.plot) ?? false, "\(String(describing: xml))")
        XCTAssertTrue(xml?.contains(Self.note) ?? false)
        XCTAssertNil(try Data(contentsOf: peek).firstRange(of: Data(Self.plot.utf8)), "a's file replaced, its bytes left in clear")
        try FileManager.default.removeItem(at: peek)
        XCTAssertEqual(try filesHolding(Self.plot, in: folder), [])
    }
}

extension SealedProgramTests {
    /// The document changes on disk while an Add's save is under way (another program deletes
    /// the survey before it): the file was marked for the first attempt, the save merges and
    /// goes again, the survey now earlier than where the Add put it. The mark names the id the
    /// save that landed gave it, not the first attempt's (which the next start would not find,
    /// offering the survey again as the New form).
    func testAMergeDuringAnAddLeavesNoStaleMark() throws {
        final class Arm: @unchecked Sendable { var armed = false, changed = false; var change: () -> Void = {} }
        let store = try makeDocument(records: Self.plainSurveys(["P1", "P2"]), in: folder)
        let arm = Arm()
        arm.change = {
            guard var other = try? DocumentStore(folder: self.folder).load("Plots").get() else { return }
            other.records.remove(at: 0)
            _ = try? DocumentStore(folder: self.folder).save(other, as: "Plots")
        }
        let racing = DocumentStore(folder: folder, fileSystem: .failing { operation, path in
            let draft = path?.hasSuffix(".Plots.draft.plist") ?? false
            // The mark's write: the other program's change lands just after it.
            if arm.armed, operation == .rename, draft, !arm.changed {
                arm.changed = true
                defer { arm.change() }
                return nil
            }
            // Then a crash before the file's removal: it can be neither opened nor unlinked.
            return arm.changed && draft && (operation == .open || operation == .unlink) ? EIO : nil
        })
        var p = Program(store: racing, documentName: "Plots", size: Size(width: 120, height: 40))
        keyNewForm(&p)
        arm.armed = true
        p.press(.enter)                                           // [ Add ]
        XCTAssertTrue(arm.changed)
        let stored = try store.load("Plots").get().records
        XCTAssertEqual(stored.count, 2, "P1 deleted there, the survey added here: \(String(describing: p.state.status))")
        let sealed = try XCTUnwrap(stored.first(where: \.isSealed)?.instanceID)
        XCTAssertEqual(store.draftBeingStoredAs(for: "Plots"), sealed, "the mark names the id the survey was stored under")

        var q = Program(store: DocumentStore(folder: folder), documentName: "Plots", size: Size(width: 120, height: 40))
        q.send(.system(.resized(Size(width: 120, height: 40))))
        XCTAssertTrue(q.state.draft.isBlank(in: q.state.questionnaire), "the stored survey offered again")
        XCTAssertEqual(try filesHolding(Self.plot, in: folder), [])
    }
}
