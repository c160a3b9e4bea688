import Foundation
import XCTest
import SurveyModel
@testable import SurveyUI

final class QuestionnaireFormTests: XCTestCase {
    func testPeek() throws {
        var s = try householdState(width: 80, height: 24)
        s.press(.enter)
        s.type("Ana"); s.press(.enter)
        s.type("Lima"); s.press(.enter)
        s.type("34"); s.press(.enter)
        s.type("1"); s.type("1")
        s.type("1")  // north
        print(s.screenText)
        s.type("2")  // lake
        s.type("Village One"); s.press(.enter)
        s.type("5"); s.press(.enter)
        s.type("7"); s.press(.enter)
        print(s.screenText, s.statusText ?? "")
        s.press(.backspace); s.type("2"); s.press(.enter)
        print(s.screenText, s.statusText ?? "")
        s.type("1"); s.type("5")
        print(s.screenText, s.statusText ?? "")
        s.press(.enter)
        print(s.screenText, s.statusText ?? "")
    }
}
