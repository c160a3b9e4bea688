import Foundation
import XCTest
import SurveyTestSupport
@testable import SurveyValues
@testable import SurveyForms
@testable import SurveyStorage

/// Issue 30's double entry: which surveys are chosen (every Nth from a start, or a seeded
/// random percentage), CSPro's rules for a second keying, what a verification record says,
/// and the record's file beside the document (plistlib reads it; it follows a rename; an
/// unreadable one is never written over).
final class VerificationRecordTests: TemporaryFolderTestCase {
    private let when = Date(timeIntervalSince1970: 1_700_000_000)
    private let ids = (1...20).map { "uuid:\($0)" }

    func testEveryNthFromAStartAsCSProsFrequencyAndStart() {
        XCTAssertEqual(VerificationChoice.every(5, start: 1).choose(ids), ["uuid:1", "uuid:6", "uuid:11", "uuid:16"])
        XCTAssertEqual(VerificationChoice.every(5, start: 3).choose(ids), ["uuid:3", "uuid:8", "uuid:13", "uuid:18"])
        XCTAssertEqual(VerificationChoice.every(1, start: 19).choose(ids), ["uuid:19", "uuid:20"])
        XCTAssertEqual(VerificationChoice.every(3, start: 25).choose(ids), [])
    }

    /// The same seed chooses the same surveys, whatever their order and however many came
    /// since; another seed another sample; the share is about the percentage asked.
    func testRandomIsReproducibleBySeedAndAboutThePercentage() {
        let many = (1...2000).map { "uuid:\($0)" }
        let a = VerificationChoice.random(percent: 10, seed: 7).choose(many)
        XCTAssertEqual(a, VerificationChoice.random(percent: 10, seed: 7).choose(many))
        XCTAssertEqual(Set(VerificationChoice.random(percent: 10, seed: 7).choose(many.reversed())), Set(a), "order does not matter")
        XCTAssertEqual(VerificationChoice.random(percent: 10, seed: 7).choose(Array(many.prefix(1000))), a.filter { Int($0.dropFirst(5))! <= 1000 },
                       "surveys added later change nothing for the earlier ones")
        XCTAssertNotEqual(VerificationChoice.random(percent: 10, seed: 8).choose(many), a)
        XCTAssertTrue((150...250).contains(a.count), "\(a.count) of 2000 at 10%")
        XCTAssertEqual(VerificationChoice.random(percent: 0, seed: 7).choose(many), [])
        XCTAssertEqual(VerificationChoice.random(percent: 100, seed: 7).choose(many), many)
    }

    func testTheRulesOfASecondKeying() {
        typealias R = VerificationRules
        XCTAssertEqual(R.judge(stored: .integer(12), keyed: .integer(12), earlier: nil), .same)
        XCTAssertEqual(R.judge(stored: .integer(12), keyed: .integer(13), earlier: nil), .reKey(first: .integer(13)))
        XCTAssertEqual(R.judge(stored: .integer(12), keyed: .integer(13), earlier: .some(.integer(13))), .keyerError(replacement: .integer(13)))
        XCTAssertEqual(R.judge(stored: .integer(12), keyed: .integer(12), earlier: .some(.integer(13))), .verifierError)
        XCTAssertEqual(R.judge(stored: .integer(12), keyed: .integer(14), earlier: .some(.integer(13))), .reKey(first: .integer(14)))
        // Nothing stored, nothing keyed: the same. Something keyed where nothing was: twice, a keyer error.
        XCTAssertEqual(R.judge(stored: nil, keyed: nil, earlier: nil), .same)
        XCTAssertEqual(R.judge(stored: .string(""), keyed: nil, earlier: nil), .same)
        XCTAssertEqual(R.judge(stored: nil, keyed: .string("x"), earlier: .some(.string("x"))), .keyerError(replacement: .string("x")))
        // A decimal keyed 8 is the stored 8.0; several choices in any order are the same.
        XCTAssertEqual(R.judge(stored: .real(8), keyed: .integer(8), earlier: nil), .same)
        XCTAssertEqual(R.judge(stored: .string("a b"), keyed: .string("b a"), earlier: nil, isChoice: true), .same)
        XCTAssertEqual(R.judge(stored: .string("a b"), keyed: .string("b a"), earlier: nil), .reKey(first: .string("b a")))
    }

    func testTheLogSaysWhatIsChosenPartlyVerifiedAndVerified() {
        let log = VerificationLog([
            VerificationEntry(kind: .chosen, survey: "uuid:1", login: "boss", date: when),
            VerificationEntry(kind: .chosen, survey: "uuid:2", login: "boss", date: when),
            VerificationEntry(kind: .chosen, survey: "uuid:3", login: "boss", date: when),
            VerificationEntry(kind: .chosen, survey: "uuid:1", login: "boss", date: when),
            VerificationEntry(kind: .same, survey: "uuid:1", path: "plot", login: "v", date: when),
            VerificationEntry(kind: .keyerError, survey: "uuid:1", path: "tree[2]/dbh", login: "v", date: when),
            VerificationEntry(kind: .finished, survey: "uuid:1", login: "v", date: when),
            VerificationEntry(kind: .verifierError, survey: "uuid:3", path: "plot", login: "v", date: when),
        ])
        XCTAssertEqual(log.chosen, ["uuid:1", "uuid:2", "uuid:3"])
        XCTAssertEqual(log.progress(of: "uuid:1"), .verified)
        XCTAssertEqual(log.progress(of: "uuid:2"), .waiting)
        XCTAssertEqual(log.progress(of: "uuid:3"), .partly)
        XCTAssertEqual(log.waiting, ["uuid:3", "uuid:2"], "a partly verified survey resumes first")
        XCTAssertEqual(log.settled("uuid:1"), ["plot", "tree[2]/dbh"])
    }

    /// The `verify` column: `no` and `false()` leave a question out, anything else (or no
    /// column) keeps it in; the repeat's own questions read it too.
    func testTheVerifyColumn() throws {
        let csv = """
        survey,,,,
        ,type,name,label,verify
        ,text,a,A,
        ,text,b,B,no
        ,text,c,C,false()
        ,text,d,D,yes
        ,begin repeat,r,R,
        ,integer,e,E,no
        ,integer,f,F,
        ,end repeat,,,
        """
        let url = folder.appendingPathComponent("form.csv")
        try Data(csv.utf8).write(to: url)
        let result = XLSForm.read(try XLSFormSheets.read(fileAt: url.path))
        let form = try XCTUnwrap(result.form, "\(result.errors)")
        let q = Questionnaire(form: form)
        XCTAssertEqual(q.fields.filter { $0.kind.isAnswered }.map { "\($0.key)=\($0.isVerified)" }, ["a=true", "b=false", "c=false", "d=true"])
        let inner = q.scopeQuestionnaire([AnswerPath.Step(name: "r", index: 0)])
        XCTAssertEqual(inner.fields.filter { $0.kind.isAnswered }.map { "\($0.key)=\($0.isVerified)" }, ["e=false", "f=true"])
    }

    func testTheFileBesideTheDocumentIsReadByPlistlibAndFollowsARename() throws {
        try store.save(SurveyDocument(), as: "Field")
        XCTAssertEqual(store.verificationURL(for: "Field"), folder.appendingPathComponent(".Field.verify.plist"))
        let entries = [
            VerificationEntry(kind: .chosen, survey: "uuid:1", login: "boss", date: when),
            VerificationEntry(kind: .keyerError, survey: "uuid:1", path: "tree[2]/dbh", login: "v", date: when, stored: "12", keyedValue: "13"),
            VerificationEntry(kind: .keyed, survey: "uuid:1", login: "k", date: when, keys: 42, seconds: 61.5),
        ]
        try store.appendVerification(Array(entries.prefix(1)), for: "Field")
        try store.appendVerification(Array(entries.dropFirst()), for: "Field")
        XCTAssertEqual(try store.verificationLog(for: "Field").entries, entries)
        XCTAssertEqual(try store.documentNames(), ["Field"], "hidden: not a document")
        let output = try TestSupport.python(#"""
            import calendar, json, plistlib, sys
            with open(sys.argv[1], "rb") as f:
                entries = plistlib.load(f)
            print(json.dumps([[e["kind"], e["survey"], e.get("path"), e["login"], calendar.timegm(e["date"].utctimetuple()),
                               e.get("stored"), e.get("keyed"), e.get("keys"), e.get("seconds")] for e in entries]))
            """#, [store.verificationURL(for: "Field").path])
        let parsed = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(output.utf8)) as? [[Any]])
        XCTAssertEqual(parsed.map { $0[0] as? String }, ["chosen", "keyer error", "keyed"])
        XCTAssertEqual(parsed[1][2] as? String, "tree[2]/dbh")
        XCTAssertEqual(parsed[1][4] as? Int, 1_700_000_000)
        XCTAssertEqual(parsed[1][5] as? String, "12")
        XCTAssertEqual(parsed[2][7] as? Int, 42)
        XCTAssertEqual(parsed[2][8] as? Double, 61.5)
        _ = try store.rename("Field", to: "Plots", at: Date())
        XCTAssertEqual(try store.verificationLog(for: "Plots").entries, entries)
        XCTAssertFalse(FileManager.default.fileExists(atPath: store.verificationURL(for: "Field").path))
    }

    func testAnUnreadableRecordIsNeverWrittenOver() throws {
        try Data("garbage".utf8).write(to: store.verificationURL(for: "Field"))
        XCTAssertThrowsError(try store.appendVerification([VerificationEntry(kind: .chosen, survey: "uuid:1", login: "b", date: when)],
                                                          for: "Field")) { error in
            XCTAssertTrue("\(error)".contains("does not write over it"), "\(error)")
        }
        XCTAssertEqual(try Data(contentsOf: store.verificationURL(for: "Field")), Data("garbage".utf8))
    }
}
