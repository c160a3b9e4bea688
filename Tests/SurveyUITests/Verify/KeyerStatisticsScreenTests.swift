import XCTest
import SurveyValues
import SurveyForms
@testable import SurveyUI

/// Issue 30's keyer statistics in the app: a survey added from the New form notes its keys
/// and the time it took, under the keyer's login; F4 reads the record and draws a bar per
/// keyer of its surveys and of its keyer error rate, at 120x40 and 60x20.
final class KeyerStatisticsScreenTests: XCTestCase {
    private let form = """
    survey,,,
    ,type,name,label
    ,text,plot,Plot
    ,integer,trees,Trees
    """

    func testAnAddNotesItsKeysAndTime() throws {
        var s = try formState(csv: form)
        s.environment.device = DeviceMetadata(deviceID: "survey:test", username: "ana")
        let start = Date(timeIntervalSince1970: 1_796_032_800)
        s.press(.enter)
        s.type("P1")
        s.press(.enter)                                   // the first answer starts the clock
        s.environment.clock = .pinned(start.addingTimeInterval(95))
        s.type("12")
        let effects = s.press(.enter, .enter)             // the last answer, then [ Add ]
        let notes = effects.compactMap { effect -> (Record, Int, VerificationEntry)? in
            if case .noteKeyed(let added, let entry) = effect { (added.record, added.near, entry) } else { nil }
        }
        XCTAssertEqual(notes.count, 1)
        XCTAssertEqual(notes.first?.1, 0, "near its index: the runtime finds it there after the save, or by its answers")
        XCTAssertEqual(notes.first?.0["plot_id"], s.records[0]["plot_id"], "the survey added")
        XCTAssertEqual(notes.first?.2.kind, .keyed)
        XCTAssertEqual(notes.first?.2.login, "ana")
        XCTAssertEqual(notes.first?.2.keys, 8, "Enter, P, 1, Enter, 1, 2, Enter, Enter")
        XCTAssertEqual(notes.first?.2.seconds, 95)
        XCTAssertEqual(s.form.draftKeys, 0, "the next New form starts counting afresh")
        // The note comes after the save, which gives the survey its id.
        let save = try XCTUnwrap(effects.firstIndex(of: .saveDocument))
        let note = try XCTUnwrap(effects.firstIndex { if case .noteKeyed = $0 { true } else { false } })
        XCTAssertLessThan(save, note)
    }

    private var log: VerificationLog {
        let day = Date(timeIntervalSince1970: 1_796_032_800)
        var entries: [VerificationEntry] = []
        for i in 0..<10 { entries.append(VerificationEntry(kind: .keyed, survey: "a\(i)", login: "ana", date: day, keys: 50, seconds: 60)) }
        for i in 0..<4 { entries.append(VerificationEntry(kind: .keyed, survey: "b\(i)", login: "bo", date: day, keys: 50, seconds: 60)) }
        for path in ["x", "y", "z", "w"] {
            entries.append(VerificationEntry(kind: path == "x" ? .keyerError : .same, survey: "b0", path: path, login: "vera", date: day))
            entries.append(VerificationEntry(kind: .same, survey: "a0", path: path, login: "vera", date: day))
        }
        entries.append(VerificationEntry(kind: .chosen, survey: "b0", login: "boss", date: day))
        entries.append(VerificationEntry(kind: .finished, survey: "b0", login: "vera", date: day))
        return VerificationLog(entries)
    }

    func testF4DrawsABarPerKeyerAtTwoSizes() throws {
        for (width, height) in [(120, 40), (60, 20)] {
            var s = try formState(csv: form, width: width, height: height)
            let effects = s.press(.function(4))
            XCTAssertTrue(effects.contains(.readVerification(thenVerify: false)), "F4 reads the record")
            s.send(.outcome(.verify(.read(document: s.documentName, log, thenVerify: false))))
            XCTAssertNil(s.popover, "reading it for F4 starts no verification")
            let lines = Screen.render(s).lines
            let screen = lines.joined(separator: "\n")
            XCTAssertTrue(screen.contains("Keyers: surveys keyed"), "\(width)x\(height)\n" + screen)
            XCTAssertTrue(screen.contains("Verified") && screen.contains("1 of 1 chosen survey"), screen)
            let ana = try XCTUnwrap(lines.firstIndex { $0.contains("ana ") && $0.contains("10 surveys") }, screen)
            let bo = try XCTUnwrap(lines.firstIndex { $0.contains("bo ") && $0.contains("4 surveys") }, screen)
            let anaBar = lines[ana].filter { $0 == KeyerBarsView.block }.count
            let boBar = lines[bo].filter { $0 == KeyerBarsView.block }.count
            XCTAssertGreaterThan(anaBar, boBar, "ten surveys draw a longer bar than four")
            XCTAssertEqual(Double(boBar), (Double(anaBar) * 0.4).rounded(), accuracy: 1)
            XCTAssertTrue(lines[bo + 1].contains("25.0% of 4 verified"), lines[bo + 1])
            XCTAssertTrue(lines[ana + 1].contains("0.0% of 4 verified"), lines[ana + 1])
            XCTAssertEqual(lines[ana + 1].filter { $0 == KeyerBarsView.block }.count, 0, "no error, no bar")
            XCTAssertGreaterThan(lines[bo + 1].filter { $0 == KeyerBarsView.block }.count, 0)
        }
    }
}
