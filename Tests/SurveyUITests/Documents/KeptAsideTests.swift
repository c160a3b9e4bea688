import Foundation
import XCTest
import SurveyValues
import SurveyForms
import SurveyStorage
@testable import SurveyUI

/// A save clash keeps another program's version of a survey aside (the same answer was
/// changed there and here; ours stayed, being saved first) and offers it at once: `m`
/// merges it into the survey as it is now (three ways, against the version both started
/// from), `t` does the same taking theirs where both changed, `d` discards it to .trash,
/// Esc leaves it for the next start. The offer can appear while someone keys heads-down:
/// it takes only its own letters, a second after it appeared and after the last key it
/// refused, and every other key is refused and said, never typed underneath.
final class KeptAsideTests: XCTestCase {
    private let start = Date(timeIntervalSince1970: 1_800_000_000)

    private static func withID(_ record: Record, _ id: String) -> Record {
        var copy = record
        copy[Record.instanceIDKey] = .string(id)
        return copy
    }

    /// John as both sides had him before: the base.
    private static let johnBefore = withID(record("John", "Smith", address: "123 Any St.", phone: "555-1234", age: 20), "uuid:john")
    /// Here: the phone changed (already saved).
    private static let johnHere = withID(record("John", "Smith", address: "123 Any St.", phone: "555-9999", age: 20), "uuid:john")
    /// There: the phone changed too, and the address.
    private static let johnThere = withID(record("John", "Smith", address: "1 New St.", phone: "000", age: 20), "uuid:john")
    private static let doris = withID(record("Doris", "Jones", address: "789 Town St.", phone: "555-1234", age: 40), "uuid:doris")

    private static let kept = Recovery(documentName: "Field Day", fileName: ".Field Day.recovered-20270115-080000-42.plist",
                                       date: Date(timeIntervalSince1970: 1_800_000_000), records: [johnThere],
                                       bases: ["uuid:john": johnBefore])

    private func state(width: Int = 120, height: Int = 40) -> AppState {
        var s = makeState([Self.johnHere, Self.doris], width: width, height: height)
        s.environment.clock = .pinned(start)
        s.environment.timeZone = .utc
        return s
    }

    private func offer(_ s: inout AppState) {
        s.send(.outcome(.recovery(.found([Self.kept]))))
        XCTAssertEqual(s.inputMode, .offeringRecovery)
    }

    /// A second later: the offer takes its choices.
    private func wait(_ s: inout AppState, _ seconds: TimeInterval = 2) {
        let now = s.environment.clock.now
        s.environment.clock = .pinned(now.addingTimeInterval(seconds))
    }

    func testMergeTakesTheirOtherAnswersKeepsYoursWhereBothChangedAndSaysWhich() {
        var s = state()
        offer(&s)
        wait(&s)
        XCTAssertEqual(s.press(.character("m")), [.saveDocument])
        XCTAssertNil(s.popover)
        XCTAssertEqual(s.records[0].values["phone"], .string("555-9999"), "yours, where both changed")
        XCTAssertEqual(s.records[0].values["address"], .string("1 New St."), "theirs, where only they changed")
        XCTAssertEqual(s.records[1], Self.doris)
        XCTAssertEqual(s.statusText, "Merged 1 kept survey into “Field Day”; took theirs for Address; kept yours where both changed: "
                       + "Phone (theirs was 000); the other version is in .trash")
        // Only once the merge is saved does the kept file go (to .trash, with its base).
        XCTAssertEqual(s.send(.outcome(.saving(.saved(replacedCharacters: 0)))), [.putAwayRecovery(Self.kept, replaced: [])])
        // Undone like any change.
        s.press(.control("z"))
        XCTAssertEqual(s.records[0], Self.johnHere)
    }

    func testTTakesTheirsWhereBothChangedAndKeepsYoursInTheTrash() {
        var s = state()
        offer(&s)
        wait(&s)
        XCTAssertEqual(s.press(.character("t")), [.saveDocument])
        XCTAssertEqual(s.records[0].values["phone"], .string("000"))
        XCTAssertEqual(s.records[0].values["address"], .string("1 New St."))
        XCTAssertEqual(s.statusText, "Merged 1 kept survey into “Field Day”; took theirs for Address; theirs where both changed: "
                       + "Phone (yours was 555-9999); the other version is in .trash")
        XCTAssertEqual(s.send(.outcome(.saving(.saved(replacedCharacters: 0)))), [.putAwayRecovery(Self.kept, replaced: [Self.johnHere])])
    }

    func testAMergeWhoseSaveFailsPutsTheOfferBackAndKeepsTheFile() {
        var s = state()
        offer(&s)
        wait(&s)
        s.press(.character("m"))
        XCTAssertEqual(s.send(.outcome(.saving(.failed("No space left on device")))), [], "no .putAwayRecovery")
        XCTAssertEqual(s.records[0], Self.johnHere)
        guard case .recovery(Self.kept) = s.popover else { return XCTFail("offered again: \(String(describing: s.popover))") }
        XCTAssertTrue(s.statusText?.hasPrefix("Could not save Field Day: No space left on device") == true, s.statusText ?? "")
    }

    func testTheOfferShowsEveryClashingAnswerBeforeAnythingIsChosen() {
        var s = state(width: 80, height: 24)
        offer(&s)
        assertScreen(Screen.render(s), named: "recovery-clash-80x24")
        XCTAssertTrue(s.screenText.contains("Phone: yours 555-9999, theirs 000"), s.screenText)
        XCTAssertTrue(s.screenText.contains("Only theirs changed: Address"), s.screenText)
    }

    func testDDiscardsAndEscLeavesItForTheNextStart() {
        var s = state()
        offer(&s)
        wait(&s)
        XCTAssertEqual(s.press(.character("d")), [.discardRecovery(Self.kept)])
        XCTAssertNil(s.popover)
        offer(&s)
        wait(&s)
        XCTAssertEqual(s.press(.escape), [])
        XCTAssertNil(s.popover)
        XCTAssertEqual(s.records[0], Self.johnHere, "nothing changed")
    }

    /// The keyer had typed "4" of an age when the clash was found; "5⏎" and "Tom" land on
    /// the offer: none of it is typed, none of it chooses, and each key says why. After a
    /// pause `m` merges, and the "4" is still being typed where it was.
    func testAKeyerTypingIntoTheOfferChoosesNothingAndLosesNothing() {
        var s = state()
        s.press(.enter)
        s.press(.down, .down, .down, .down)
        s.type("4")
        XCTAssertEqual(s.editing?.text, "4")
        offer(&s)
        var effects = s.type("5")
        effects += s.press(.enter)
        effects += s.type("Tom")            // `m` and `t` are choices, but typed: not taken
        effects += s.press(.character("d"))
        XCTAssertEqual(effects, [], "nothing chosen, nothing saved")
        guard case .recovery = s.popover else { return XCTFail("the offer stays") }
        XCTAssertEqual(s.editing?.text, "4", "nothing typed under the offer")
        XCTAssertEqual(s.records[0], Self.johnHere)
        XCTAssertEqual(s.status?.kind, .error)
        XCTAssertEqual(s.statusText, "Not typed: the kept surveys wait for a choice: m to merge them, t to take theirs where both "
                       + "changed, d to discard them, Esc for later (a second after your last key)")
        wait(&s)
        XCTAssertEqual(s.press(.character("m")), [.saveDocument])
        XCTAssertEqual(s.editing?.text, "4", "the answer being typed is still being typed")
        s.send(.outcome(.saving(.saved(replacedCharacters: 0))))
        s.type("5")
        XCTAssertTrue(s.press(.enter).contains(.saveDocument))
        XCTAssertEqual(s.records[0].values["age"], .integer(45))
        XCTAssertEqual(s.records[0].values["address"], .string("1 New St."))
    }

    /// A choice is taken only a second after the offer appeared and after the last key it
    /// refused: someone typing on never chooses, someone who stops and reads does.
    func testAChoiceIsTakenOnlyASecondAfterTheLastKey() {
        var s = state()
        offer(&s)
        XCTAssertEqual(s.press(.character("m")), [], "at once: refused")
        wait(&s, 0.6)
        XCTAssertEqual(s.press(.character("m")), [], "a second after the refused m: not yet")
        wait(&s, 0.6)
        XCTAssertEqual(s.press(.character("x")), [])
        wait(&s, 0.9)
        XCTAssertEqual(s.press(.character("m")), [], "within a second of the x")
        wait(&s, 1.0)
        XCTAssertEqual(s.press(.character("m")), [.saveDocument])
    }

    /// Every key but its choices and quitting is refused and said: none is typed into the
    /// form under it, moves anything or opens anything, and none passes silently.
    func testEveryOtherKeyIsRefusedAndSaid() {
        var s = state()
        s.press(.enter)
        offer(&s)
        wait(&s)
        let keys: [Key] = [.character("4"), .character("0"), .character("a"), .character("M"), .character(" "), .enter, .tab,
                           .backTab, .up, .down, .left, .right, .pageUp, .pageDown, .home, .end, .backspace, .delete,
                           .function(1), .function(2), .function(3), .function(4), .function(9), .control("n"), .control("z"),
                           .control("o")]
        for key in keys {
            let before = s
            s.statusLine.clear()
            XCTAssertEqual(s.press(key), [], "\(key)")
            XCTAssertEqual(s.popover, before.popover, "\(key) leaves the offer up")
            XCTAssertEqual(s.document, before.document, "\(key)")
            XCTAssertEqual(s.form, before.form, "\(key) types or moves nothing on the form")
            XCTAssertEqual(s.list.rows.cursor, before.list.rows.cursor, "\(key)")
            XCTAssertTrue(s.statusText?.hasPrefix("Not typed: the kept surveys wait for a choice") == true, "\(key) is said")
        }
        let paste = KeyMap.action(for: .paste("45\n"), in: s)
        XCTAssertEqual(paste, .documents(.keyNotAChoice), "a paste is not typed under it either")
        XCTAssertEqual(KeyMap.action(for: .key(.control("q")), in: s), .app(.quit), "quitting still works")
    }
}
