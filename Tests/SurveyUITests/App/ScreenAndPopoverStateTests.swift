import XCTest
import SurveyValues
@testable import SurveyUI

/// Closing a popover (issue 29: the popovers' own rule, not `AppState`'s).
final class PopoverCloseTests: XCTestCase {
    func testHelpGoesBackToWhatItWasOpenedOverAndAFilterLineBringsTheListBack() {
        var popovers = PopoverState()
        popovers.present(.list)
        popovers.showHelp()
        popovers.close(backToTheListFor: false)
        XCTAssertEqual(popovers.open, .list, "help goes back to the list")
        popovers.close(backToTheListFor: false)
        XCTAssertNil(popovers.open)
        popovers.present(.documents)
        popovers.close(backToTheListFor: true)
        XCTAssertEqual(popovers.open, .list, "the / line being typed lives in the list popover")
    }
}

/// F4 and the documents' delete question as the screen and the popovers decide them (issue 29).
final class ScreenAndPopoverChoiceTests: XCTestCase {
    func testF4ShowsTheFactsWithWhatTheyNeedReadAndGoesBack() {
        var screen = ScreenState(size: Size(width: 120, height: 40), splitWidth: 80)
        screen.moveFocus(to: .list)
        XCTAssertEqual(screen.toggleInfo(split: true, survey: "uuid:a"),
                       [.listDocuments, .readSyncSummary, .readVerification(thenVerify: false), .readHistory(survey: "uuid:a")])
        XCTAssertEqual(screen.detail, .info)
        XCTAssertEqual(screen.focus, .list, "split, the list keeps the focus")
        XCTAssertEqual(screen.toggleInfo(split: true, survey: "uuid:a"), [], "the form again: nothing to read")
        XCTAssertEqual(screen.detail, .form)
        XCTAssertEqual(screen.toggleInfo(split: false, survey: nil), [.listDocuments, .readSyncSummary, .readVerification(thenVerify: false)])
        XCTAssertEqual(screen.focus, .form)
    }

    func testYesToADeleteGoesBackToTheDocumentsAndAsksTheDelete() {
        var popovers = PopoverState()
        XCTAssertNil(popovers.confirmDelete(), "no question open")
        popovers.present(.confirmDelete(name: "Old", records: 3))
        XCTAssertEqual(popovers.confirmDelete(), .deleteDocument("Old", records: 3))
        XCTAssertEqual(popovers.open, .documents)
    }
}
