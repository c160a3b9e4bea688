import Foundation
import XCTest
import SurveyUITestSupport
import SurveyValues
import SurveyForms
@testable import SurveyUI

/// A survey encrypted for the data manager's key (issue 31) in the form's place: said for
/// what it is, with what is readable of it (its publishable answers, form and id), never as
/// empty questions with [ Clear ] and [ Add ] under them (keys that would be refused).
final class SealedSurveyScreenTests: XCTestCase {
    static let form = """
        survey,,,,
        ,type,name,label,publishable
        ,text,plot,Plot,
        ,text,note,Note,
        ,text,team,Team,yes
        settings,,,,
        ,form_id,version,public_key,
        ,plots,4,QUJD,
        """

    /// As `SealedSurvey.seal` leaves one (the submission's bytes stand in for the real ones).
    static let sealed = Record([
        Record.instanceIDKey: .string("uuid:5f0c2a9e-0b8e-4d2f-9c1a-3e7b6d4a2f10"),
        "formID": .string("plots"), "formVersion": .string("4"), "team": .string("Blue"),
        Record.Sealed.formIDKey: .string("plots"), Record.Sealed.versionKey: .string("4"),
        Record.Sealed.encryptedKeyKey: .string("QUJD"), Record.Sealed.submissionKey: .data(Data([1, 2, 3, 4])),
        Record.Sealed.signatureKey: .string("QUJD"),
    ])
    static let plain = Record([Record.instanceIDKey: .string("uuid:p1"), "plot": .string("North field"), "team": .string("Red")])

    func testAnEncryptedSurveyIsShownAsWhatItIs() throws {
        for (width, height) in [(100, 24), (60, 20)] {
            var s = try formState(csv: Self.form, records: [Self.plain, Self.sealed], width: width, height: height)
            _ = s.send(.list(.toLast))
            XCTAssertEqual(s.shown, .record(1))
            let grid = Screen.render(s)
            let text = grid.lines.joined(separator: "\n")
            XCTAssertTrue(text.contains("Encrypted for the data manager's key"), text)
            XCTAssertFalse(text.contains("[ Add ]") || text.contains("[ Clear ]") || text.contains("Add ]"), text)
            XCTAssertFalse(text.contains("Plot") && text.contains("Note"), "its unreadable questions are not drawn empty: \(text)")
            assertScreen(grid, named: "sealed-survey-\(width)x\(height)")
            // A survey in clear beside it is the form as ever.
            _ = s.send(.list(.toFirst))
            XCTAssertTrue(Screen.render(s).lines.joined().contains("[ Add ]"))
        }
    }
}
