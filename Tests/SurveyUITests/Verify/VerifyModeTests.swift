import XCTest
import SurveyValues
import SurveyForms
@testable import SurveyUI

/// Issue 30, verify mode (CSPro's double entry): `v` on the list re-keys a survey from paper,
/// the answers blank; a difference asks again; the same new value twice replaces the stored
/// one through the form's commit (a keyer error; the form's constraint still judges it);
/// the stored value on the second try is a verifier error; every outcome is written with the
/// verifier's login; a partly verified survey resumes.
final class VerifyModeTests: XCTestCase {
    private let form = """
    survey,,,,,,
    ,type,name,label,constraint,verify,calculation
    ,text,plot,Plot,,,
    ,integer,trees,Trees counted,. < 100,,
    ,text,notes,Office notes,,no,
    ,begin repeat,tree,Tree,,,
    ,integer,dbh,Diameter,. < 300,,
    ,end repeat,,,,,
    ,calculate,twice,,,,${trees} * 2
    """

    private func plot(_ id: String, _ name: String, trees: Int = 12) -> Record {
        Record(["instanceID": .string(id), "plot": .string(name), "trees": .integer(trees), "notes": .string("wet"),
                "tree": .array([.dictionary(["dbh": .integer(30)]), .dictionary(["dbh": .integer(40)])])])
    }

    private func state(width: Int = 120, height: Int = 40, records: [Record]? = nil) throws -> AppState {
        var s = try formState(csv: form, records: records ?? [plot("uuid:a", "P1"), plot("uuid:b", "P2")],
                              width: width, height: height)
        s.environment.device = DeviceMetadata(deviceID: "survey:test", username: "verifier1")
        return s
    }

    /// `v` on the list, then the record as the runtime reads it.
    private func start(_ s: inout AppState, log: VerificationLog = VerificationLog()) -> [Effect] {
        if s.inputMode != .listPane { s.press(.function(2)) }
        XCTAssertEqual(s.press(.character("v")), [.readVerification(thenVerify: true)])
        return s.send(.outcome(.verify(.read(document: s.documentName, log, thenVerify: true))))
    }

    private func session(_ s: AppState) -> VerifySession? {
        if case .verify(let v) = s.popover { v } else { nil }
    }

    private func notes(_ effects: [Effect]) -> [VerificationEntry] {
        var entries: [VerificationEntry] = []
        for effect in effects {
            switch effect {
            case .noteVerification(let e): entries += e
            case .noteCorrection(let e, _, _): entries.append(e)      // written once its save stands
            default: break
            }
        }
        return entries
    }

    private func key(_ s: inout AppState, _ text: String) -> [Effect] {
        s.type(text) + s.press(.enter)
    }

    func testTheQuestionsVerifiedLeaveOutTheVerifyColumnsNoAndWhatTheFormFillsIn() throws {
        var s = try state()
        let effects = start(&s)
        XCTAssertEqual(s.inputMode, .verifying)
        XCTAssertEqual(notes(effects).map(\.kind), [.chosen], "a survey verified by hand is recorded as chosen")
        XCTAssertEqual(session(s)?.questions.map(\.path.description), ["plot", "trees", "tree[1]/dbh", "tree[2]/dbh"])
        XCTAssertEqual(session(s)?.survey, "uuid:a")
    }

    func testCSProsRulesSameKeyerErrorVerifierErrorAndAConstraintStillJudges() throws {
        var s = try state()
        _ = start(&s)
        // Plot: the same as stored.
        var entries = notes(key(&s, "P1"))
        XCTAssertEqual(entries.map(\.kind), [.same])
        XCTAssertEqual(entries.first?.login, "verifier1")
        XCTAssertEqual(entries.first?.path, "plot")
        XCTAssertEqual(entries.first?.date, Date(timeIntervalSince1970: 1_796_032_800))
        // Trees: 13 differs (asked again, nothing written), 13 again replaces the stored 12.
        XCTAssertEqual(key(&s, "13"), [])
        XCTAssertTrue(s.statusText?.contains("key it again") == true, s.statusText ?? "")
        XCTAssertEqual(s.records[0]["trees"], .integer(12), "one differing try changes nothing")
        let replaced = key(&s, "13")
        XCTAssertTrue(replaced.contains(.saveDocument), "the correction is saved as any answer is")
        entries = notes(replaced)
        XCTAssertEqual(entries.map(\.kind), [.keyerError])
        XCTAssertEqual(entries.first?.stored, "12")
        XCTAssertEqual(entries.first?.keyedValue, "13")
        XCTAssertEqual(s.records[0]["trees"], .integer(13))
        XCTAssertEqual(s.records[0]["twice"], .string("26"), "the form's calculation follows the correction")
        // Tree 1's diameter: 31, then the stored 30: the verifier's slip, nothing changes.
        XCTAssertEqual(key(&s, "31"), [])
        entries = notes(key(&s, "30"))
        XCTAssertEqual(entries.map(\.kind), [.verifierError])
        XCTAssertEqual(entries.first?.path, "tree[1]/dbh")
        XCTAssertEqual(s.records[0].value(at: AnswerPath([.init(name: "tree", index: 0)], "dbh")), .integer(30))
        // Tree 2's diameter: 400 twice is what the keyer would have had to key, and the
        // form's constraint refuses it there too: nothing is replaced or counted.
        XCTAssertEqual(key(&s, "400"), [])
        let refused = key(&s, "400")
        XCTAssertFalse(refused.contains(.saveDocument))
        XCTAssertEqual(notes(refused), [])
        XCTAssertEqual(s.records[0].value(at: AnswerPath([.init(name: "tree", index: 1)], "dbh")), .integer(40))
        XCTAssertNotNil(session(s), "still verifying the same question")
        XCTAssertEqual(session(s)?.currentQuestion?.path.description, "tree[2]/dbh")
        // Keyed as stored: verified, and with it the survey.
        entries = notes(key(&s, "40"))
        XCTAssertEqual(entries.map(\.kind), [.same, .finished])
        XCTAssertEqual(entries.last?.survey, "uuid:a")
        XCTAssertNil(s.popover)
        XCTAssertTrue(s.statusText?.contains("is verified: 2 the same, 1 keyer error, 1 verifier error") == true, s.statusText ?? "")
    }

    /// A third value after two differing tries is asked again, as the first try.
    func testAThirdValueIsAskedAgain() throws {
        var s = try state()
        _ = start(&s)
        _ = key(&s, "P1")
        XCTAssertEqual(key(&s, "14"), [])
        XCTAssertEqual(key(&s, "15"), [])
        XCTAssertEqual(session(s)?.firstTryText, "15")
        XCTAssertEqual(notes(key(&s, "15")).map(\.kind), [.keyerError])
        XCTAssertEqual(s.records[0]["trees"], .integer(15))
    }

    /// Stopped after the plot, the survey resumes at the trees: the record says what is verified.
    func testAPartlyVerifiedSurveyResumesWhereItStopped() throws {
        var s = try state()
        let chosen = VerificationEntry(kind: .chosen, survey: "uuid:b", login: "boss", date: Date(timeIntervalSince1970: 0))
        let plotDone = VerificationEntry(kind: .same, survey: "uuid:b", path: "plot", login: "verifier1", date: Date(timeIntervalSince1970: 1))
        let effects = start(&s, log: VerificationLog([chosen, plotDone]))
        XCTAssertEqual(notes(effects), [], "already chosen")
        XCTAssertEqual(session(s)?.survey, "uuid:b", "the chosen survey, not the one shown")
        XCTAssertEqual(s.shown, .record(1))
        XCTAssertEqual(session(s)?.currentQuestion?.path.description, "trees")
        XCTAssertTrue(s.screenText.contains("2 of 4"), s.screenText)
        s.press(.escape)
        XCTAssertNil(s.popover)
        XCTAssertTrue(s.statusText?.contains("v on the list resumes") == true)
    }

    /// A finished survey leads straight on to the next one chosen.
    func testFinishingOneGoesOnToTheNextChosen() throws {
        var s = try state()
        let log = VerificationLog(["uuid:a", "uuid:b"].map { VerificationEntry(kind: .chosen, survey: $0, login: "boss", date: Date(timeIntervalSince1970: 0)) })
        _ = start(&s, log: log)
        for answer in ["P1", "12", "30", "40"] { _ = key(&s, answer) }
        XCTAssertEqual(session(s)?.survey, "uuid:b")
        XCTAssertEqual(session(s)?.currentQuestion?.path.description, "plot")
        XCTAssertTrue(s.statusText?.contains("next:") == true, s.statusText ?? "")
    }

    /// A survey the chain reaches that was verified whole before is finished at once (its
    /// end written), and the chain goes on; the status names the survey verified by hand and
    /// the one now on the form.
    func testASurveyVerifiedBeforeIsFinishedAtOnceAndTheChainGoesOn() throws {
        var s = try state(records: [plot("uuid:a", "P1"), plot("uuid:b", "P2"), plot("uuid:c", "P3")])
        let chosen = ["uuid:a", "uuid:b", "uuid:c"].map { VerificationEntry(kind: .chosen, survey: $0, login: "boss", date: Date(timeIntervalSince1970: 0)) }
        let bDone = ["plot", "trees", "tree[1]/dbh", "tree[2]/dbh"].map {
            VerificationEntry(kind: .same, survey: "uuid:b", path: $0, login: "verifier1", date: Date(timeIntervalSince1970: 1))
        }
        _ = start(&s, log: VerificationLog(chosen + bDone))
        XCTAssertEqual(session(s)?.survey, "uuid:a")
        let titleA = try XCTUnwrap(session(s)?.title)
        var effects: [Effect] = []
        for answer in ["P1", "12", "30", "40"] { effects += key(&s, answer) }
        XCTAssertEqual(notes(effects).filter { $0.kind == .finished }.map(\.survey), ["uuid:a", "uuid:b"])
        XCTAssertEqual(session(s)?.survey, "uuid:c")
        XCTAssertEqual(s.shown, .record(2))
        let status = try XCTUnwrap(s.statusText)
        XCTAssertTrue(status.hasPrefix("\(titleA) is verified: 4 the same"), status)
        XCTAssertTrue(status.hasSuffix("; next: \(s.session.quotedTitle(s.records[2]))"), status)
    }

    /// A survey left half done and reached next in the chain resumes: what it had verified
    /// is not asked (nor counted) again.
    func testASurveyLeftHalfDoneResumesWhenTheChainReachesIt() throws {
        var s = try state()
        let chosen = ["uuid:a", "uuid:b"].map { VerificationEntry(kind: .chosen, survey: $0, login: "boss", date: Date(timeIntervalSince1970: 0)) }
        let bPlot = VerificationEntry(kind: .same, survey: "uuid:b", path: "plot", login: "verifier1", date: Date(timeIntervalSince1970: 1))
        let bTrees = VerificationEntry(kind: .keyerError, survey: "uuid:b", path: "trees", login: "verifier1", date: Date(timeIntervalSince1970: 2))
        s.send(.form(.nextRecord))
        s.send(.form(.previousRecord))                     // uuid:a shown: it goes first, b waits
        _ = start(&s, log: VerificationLog(chosen + [bPlot, bTrees]))
        XCTAssertEqual(session(s)?.survey, "uuid:a")
        for answer in ["P1", "12", "30", "40"] { _ = key(&s, answer) }
        XCTAssertEqual(session(s)?.survey, "uuid:b")
        XCTAssertEqual(session(s)?.currentQuestion?.path.description, "tree[1]/dbh", "b's plot and trees were verified before")
    }

    /// What the form fills in (a typed question with a calculation) or keeps from the keyer
    /// (read-only) is never verified, so never replaced; an incomplete survey is never chosen
    /// and never blocks the rest.
    func testReadOnlyAndFilledQuestionsAreNotVerifiedAndAnIncompleteSurveyBlocksNothing() throws {
        let filled = """
        survey,,,,,
        ,type,name,label,read_only,calculation
        ,text,plot,Plot,yes,
        ,integer,trees,Trees counted,,
        ,integer,double,Twice the trees,,${trees} * 2
        """
        var incomplete = Record(["instanceID": .string("uuid:i"), "plot": .string("P0")])
        incomplete[Record.incompleteKey] = .bool(true)
        let records = [incomplete, Record(["instanceID": .string("uuid:a"), "plot": .string("P1"), "trees": .integer(12), "double": .integer(24)])]
        var s = try formState(csv: filled, records: records)
        let log = VerificationLog(["uuid:i", "uuid:a"].map { VerificationEntry(kind: .chosen, survey: $0, login: "boss", date: Date(timeIntervalSince1970: 0)) })
        _ = start(&s, log: log)
        XCTAssertEqual(session(s)?.survey, "uuid:a", "the incomplete one waits for its Finish, not for verification")
        XCTAssertEqual(session(s)?.questions.map(\.path.description), ["trees"])
    }

    /// The field is blank, the stored answer never shown before a try; after a difference
    /// Tab shows both; at 120x40 and in a narrow 40x12, the caret in the field.
    func testRenderedBlankThenBothSideBySideAtTwoSizes() throws {
        for (width, height) in [(120, 40), (40, 12)] {
            var s = try state(width: width, height: height)
            _ = start(&s)
            _ = key(&s, "P1")
            var screen = s.screenText
            XCTAssertTrue(screen.contains("Verify"), screen)
            XCTAssertTrue(screen.contains("Trees counted"), screen)
            XCTAssertFalse(screen.contains("Stored:"), screen)
            XCTAssertFalse(screen.contains("12"), "no stored answer shows beside the blank field\n" + screen)
            let grid = Screen.render(s)
            XCTAssertNotNil(grid.cursor, "the caret sits in the blank field")
            s.press(.tab)
            XCTAssertTrue(s.statusText?.contains("Key the answer first") == true, "nothing is shown before a try")
            _ = key(&s, "13")
            s.press(.tab)
            screen = s.screenText
            XCTAssertTrue(screen.contains("key it again"), "\(width)x\(height)\n" + screen)
            XCTAssertTrue(screen.contains("Stored: 12"), "\(width)x\(height)\n" + screen)
            if width >= 60 { XCTAssertTrue(screen.contains("First try: 13"), screen) }
        }
    }

    /// The key is listed in F1's help over the list, and typed letters go to the field.
    func testTheKeyIsInTheHelpAndLettersAreTyped() throws {
        var s = try state()
        XCTAssertTrue(KeyMap.bindings.contains { $0.keys == [.character("v")] && $0.modes.contains(.listPane) })
        _ = start(&s)
        XCTAssertEqual(s.press(.control("n")), [], "a new survey never starts under the box")
        XCTAssertEqual(s.inputMode, .verifying)
        XCTAssertEqual(s.shown, .record(0))
        s.type("P")
        XCTAssertEqual(session(s)?.input.text, "P")
        s.press(.backspace)
        XCTAssertEqual(session(s)?.input.text, "")
    }
}
