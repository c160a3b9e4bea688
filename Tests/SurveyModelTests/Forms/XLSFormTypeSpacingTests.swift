import Foundation
import XCTest
import SurveyTestSupport
@testable import SurveyValues
@testable import SurveyForms

/// Two small form rules judged by survey and by pyxform 4.5 alike: the spaces inside a
/// `type` (runs of spaces are one, a tab or a line break makes a type pyxform does not know),
/// and a choice list named as a list file, pulldata's file or an external instance (pyxform
/// makes an instance of every choice list, used or not, and refuses the two of one name).
final class XLSFormTypeSpacingTests: XCTestCase {
    private struct Case {
        let title: String
        let md: String
        /// The row survey refuses it at; nil: accepted.
        var refusedAt: Int? = nil
    }

    private static func form(_ rows: [String], choices: [String] = ["| | yn | y | Yes |", "| | yn | n | No |"]) -> String {
        (["| survey |", "| | type | name | label | calculation |"] + rows
            + ["| choices |", "| | list_name | name | label |"] + choices).joined(separator: "\n") + "\n"
    }

    private static let cases: [Case] = [
        Case(title: "two spaces between select_one and its list", md: form(["| | select_one  yn | q | Q | |"])),
        Case(title: "two spaces before or_other", md: form(["| | select_one  yn  or_other | q | Q | |"])),
        Case(title: "two spaces in select_multiple and rank", md: form(["| | select_multiple  yn | q | Q | |", "| | rank  yn | r | R | |"])),
        Case(title: "two spaces before a list file", md: form(["| | select_one_from_file  households.csv | q | Q | |"])),
        Case(title: "a tab between select_one and its list", md: form(["| | select_one\tyn | q | Q | |"]), refusedAt: 3),
        Case(title: "a tab before or_other", md: form(["| | select_one yn\tor_other | q | Q | |"]), refusedAt: 3),
        Case(title: "a choice list a select reads, named as a list file",
             md: form(["| | select_one households | q | Q | |", "| | select_one_from_file households.csv | hh | H | |"],
                      choices: ["| | households | y | Yes |"]), refusedAt: 4),
        Case(title: "a choice list no select reads, named as a list file",
             md: form(["| | select_one_from_file households.csv | hh | H | |", "| | select_one yn | q | Q | |"],
                      choices: ["| | households | y | Yes |", "| | yn | y | Yes |"]), refusedAt: 3),
        Case(title: "a choice list no select reads, named as pulldata's file",
             md: form(["| | calculate | c | | pulldata('households', 'a', 'b', 'c') |"], choices: ["| | households | y | Yes |"]),
             refusedAt: 3),
        Case(title: "a choice list no select reads, named apart", md: form(["| | text | t | T | |"], choices: ["| | unused | y | Yes |"])),
    ]

    func testSurveyAndPyxformAgreeOnSpacesInTypesAndChoiceListsNamedAsFiles() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("type-spacing-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        var paths: [String] = []
        for (i, test) in Self.cases.enumerated() {
            let url = folder.appendingPathComponent("form\(i).md")
            try Data(test.md.utf8).write(to: url)
            paths.append(url.path)
        }
        let verdicts = try XLSFormEntityTests.pyxformErrors(paths)
        for (test, pyxform) in zip(Self.cases, verdicts) {
            let result = XLSForm.read(try XLSFormSheets.markdown(test.md))
            if let row = test.refusedAt {
                XCTAssertNotNil(pyxform, "\(test.title): pyxform accepts")
                XCTAssertNil(result.form, test.title)
                XCTAssertEqual(result.errors.map(\.row), [row], "\(test.title): \(result.errors)")
                if pyxform?.contains("same instance id") == true {
                    XCTAssertTrue(result.errors.allSatisfy { $0.message.contains("the same instance id will be generated") }, "\(result.errors)")
                } else {
                    XCTAssertTrue(result.errors.allSatisfy { $0.message.contains("unknown question type") }, "\(result.errors)")
                }
            } else {
                XCTAssertNil(pyxform, "\(test.title): pyxform refuses")
                XCTAssertEqual(result.errors, [], test.title)
                XCTAssertNotNil(result.form, test.title)
            }
        }
        // The two spaces read as one: a select of yn.
        let spaced = try XCTUnwrap(XLSForm.read(try XLSFormSheets.markdown(Self.cases[0].md)).form)
        XCTAssertEqual(spaced.questions.first?.kind, .selectOne(list: "yn", orOther: false))
    }
}
