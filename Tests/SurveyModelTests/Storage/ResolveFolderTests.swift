import Foundation
import XCTest
@testable import SurveyValues
@testable import SurveyForms
@testable import SurveyStorage

final class ResolveFolderTests: XCTestCase {
    private let env = ["SURVEY_HOME": "/s/home", "XDG_DATA_HOME": "/xdg", "HOME": "/home/u"]
    private let cwd = FileManager.default.currentDirectoryPath

    private func resolve(_ dir: String?, _ environment: [String: String]) -> String {
        DocumentStore.resolveFolder(dir: dir, environment: environment).path
    }

    func testPrecedence() {
        XCTAssertEqual(resolve("/from/dir", env), "/from/dir")
        XCTAssertEqual(resolve(nil, env), "/s/home")
        XCTAssertEqual(resolve(nil, env.filter { $0.key != "SURVEY_HOME" }), "/xdg/survey")
        XCTAssertEqual(resolve(nil, ["HOME": "/home/u"]), "/home/u/.local/share/survey")
    }

    func testEmptyValuesCountAsUnset() {
        XCTAssertEqual(resolve("", env), "/s/home")
        XCTAssertEqual(resolve(nil, ["SURVEY_HOME": "", "XDG_DATA_HOME": "/xdg", "HOME": "/h"]), "/xdg/survey")
        XCTAssertEqual(resolve(nil, ["SURVEY_HOME": "", "XDG_DATA_HOME": "", "HOME": "/h"]), "/h/.local/share/survey")
    }

    func testHomeFallsBackToNSHomeDirectory() {
        let expected = URL(fileURLWithPath: NSHomeDirectory() + "/.local/share/survey").standardizedFileURL.path
        XCTAssertEqual(resolve(nil, [:]), expected)
        XCTAssertEqual(resolve(nil, ["HOME": ""]), expected)
    }

    func testRelativePathsResolveAgainstCurrentDirectory() {
        XCTAssertEqual(resolve("data/surveys", [:]), URL(fileURLWithPath: cwd + "/data/surveys").standardizedFileURL.path)
        XCTAssertEqual(resolve(nil, ["SURVEY_HOME": "rel"]), URL(fileURLWithPath: cwd + "/rel").standardizedFileURL.path)
        XCTAssertEqual(resolve("./a/../b", [:]), URL(fileURLWithPath: cwd + "/b").standardizedFileURL.path)
    }

    func testRelativeXDGDataHomeIsIgnoredAsTheSpecSays() {
        XCTAssertEqual(resolve(nil, ["XDG_DATA_HOME": "relative", "HOME": "/h"]), "/h/.local/share/survey")
    }

    func testTildeIsExpandedWithHome() {
        XCTAssertEqual(resolve("~/surveys", ["HOME": "/home/u"]), "/home/u/surveys")
        XCTAssertEqual(resolve(nil, ["SURVEY_HOME": "~", "HOME": "/home/u"]), "/home/u")
    }
}
