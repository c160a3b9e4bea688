import Foundation
import XCTest
import SurveyValues
import SurveyForms
@testable import SurveyUI

/// The save-as box's hold as the popovers and the session decide it (issue 29: their own, with
/// no `AppState` in sight): a key on the box that appeared unasked is refused while the hold
/// lasts and holds it anew; once it is over, or on a box that was asked for, keys are typed.
final class SaveAsHoldReducerTests: XCTestCase {
    private let start = Date(timeIntervalSince1970: 1_800_000_000)

    func testAKeyWithinTheHoldIsRefusedAndHoldsTheBoxAnewThenKeysAreTaken() {
        var popovers = PopoverState()
        popovers.present(.saveAs(TextInput(text: "Field 2")), holdingChoicesUntil: start.addingTimeInterval(1))
        XCTAssertTrue(popovers.refusesNamingKey(at: start.addingTimeInterval(0.5), holdingFor: 1))
        XCTAssertEqual(popovers.choicesHeldUntil, start.addingTimeInterval(1.5), "held a second from the refused key")
        XCTAssertEqual(popovers.open, .saveAs(TextInput(text: "Field 2")), "the box stays as it was")
        XCTAssertTrue(popovers.refusesNamingKey(at: start.addingTimeInterval(1.2), holdingFor: 1),
                      "past the first hold, but within the one the refused key started")
        XCTAssertFalse(popovers.refusesNamingKey(at: start.addingTimeInterval(2.3), holdingFor: 1))
        XCTAssertEqual(popovers.choicesHeldUntil, start.addingTimeInterval(2.2), "a key taken leaves the hold as it was")
    }

    func testABoxAskedForAndAnotherPopoverAreNeverHeld() {
        var asked = PopoverState()
        asked.present(.saveAs(TextInput(text: "")))
        XCTAssertFalse(asked.refusesNamingKey(at: start, holdingFor: 1))
        XCTAssertNil(asked.choicesHeldUntil)

        var offer = PopoverState()
        offer.present(.documents, holdingChoicesUntil: start.addingTimeInterval(1))
        XCTAssertFalse(offer.refusesNamingKey(at: start, holdingFor: 1), "only the save-as box is the naming's")
        XCTAssertEqual(offer.choicesHeldUntil, start.addingTimeInterval(1))
    }

    func testTheRefusalSaysWhyTheBoxAppeared() {
        var gone = DocumentSession(questionnaire: .standard, documentName: "Farm")
        gone.vanish(reason: nil, suggestion: "Farm")
        XCTAssertEqual(gone.namingHeldRemark, "Not typed: “Farm” is gone from the folder and its records wait for a name: "
                                              + "type it a second after your last key, or Esc for later")
        var unreadable = DocumentSession(questionnaire: .standard, documentName: "Farm")
        unreadable.vanish(reason: "not a property list", suggestion: "Farm 2")
        XCTAssertTrue(unreadable.namingHeldRemark.hasPrefix("Not typed: “Farm” was made unreadable by another program and"),
                      unreadable.namingHeldRemark)
    }
}
