import Foundation
import XCTest
@testable import SurveyModel

/// Every form in pyxform's own test suite that pyxform converts opens here too
/// (`Fixtures/forms/pyxform-suite`, made by `packaging/pyxform-suite-corpus.py` from pyxform
/// 4.5.0's tests), but for a named list of refusals, each with its reason. A form is let off
/// only when every one of its errors is one of these.
final class PyxformSuiteTests: XCTestCase {
    static var folder: URL { TestSupport.fixtureURL("forms/pyxform-suite") }

    /// What survey refuses though pyxform converts it: the words of the error, and why.
    static let refusals: [(words: String, reason: String)] = [
        // XPath the parser does not read: bare relative paths (`name = ${crop}`, pyxform's test
        // of a path to nothing), predicates on the root, and malformed text pyxform passes
        // through unparsed (`{r}`, `£`, a lone `$`). Paths into the form's own instance
        // (`/data/x`, `../x`, `current()/../..`, `${rep}[i]/x`) are read
        // (FormExpression+Paths.swift, XLSFormReader+Paths.swift); one that reaches no
        // question is refused, where JavaRosa would read nothing.
        ("is not closed", "XPath steps the parser does not read yet"),
        ("is not a function call", "a bare word where XPath means a path relative to the question, which the parser does not read"),
        ("unexpected “", "malformed XPath (`{r}`, `£`) pyxform passes through unparsed"),
        ("must start ${", "a lone `$`, malformed XPath pyxform passes through unparsed"),
        ("reaches no question of the form", "a path into the instance that reaches no question (pyxform's tests of path expansion)"),
        ("names no question below the form's root", "a predicate on the instance's root (`/data[position() = 1]/x`), not read"),
        // On purpose.
        ("depends on itself",
         "a `relevant` or `required` that reads its own answer (`pulldata(…, .)`): the rule would decide whether the "
             + "question is asked from the answer it decides, a cycle survey's dependency check refuses"),
        ("is not an answer this question takes",
         "a default its own question refuses (DECISIONS.md), or one pyxform computes from operators alone (`1 + 1`)"),
    ]

    /// The corpus's forms, by file name, with survey's errors for each (none: it opens).
    static func verdicts() throws -> [(form: String, errors: [String])] {
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
            .filter { [".md", ".csv", ".xlsx"].contains(where: $0.hasSuffix) }.sorted()
        var result: [(String, [String])] = []
        for name in names {
            do {
                let sheets = try XLSFormSheets.read(fileAt: folder.appendingPathComponent(name).path)
                result.append((name, XLSForm.read(sheets).errors.map(\.description)))
            } catch {
                result.append((name, ["\(error)"]))
            }
        }
        return result
    }

    func testEveryFormPyxformConvertsOpensButForTheNamedRefusals() throws {
        let verdicts = try Self.verdicts()
        XCTAssertGreaterThan(verdicts.count, 500, "the corpus is missing: run packaging/pyxform-suite-corpus.py")
        var byReason: [String: Int] = [:]
        var unexplained: [String] = []
        for (form, errors) in verdicts where !errors.isEmpty {
            for error in errors {
                if let refusal = Self.refusals.first(where: { error.contains($0.words) }) {
                    byReason[refusal.words, default: 0] += 1
                } else {
                    unexplained.append("\(form): \(error)")
                }
            }
        }
        let opened = verdicts.filter(\.errors.isEmpty).count
        print("pyxform suite: \(opened) of \(verdicts.count) forms open; errors by reason: \(byReason)")
        XCTAssertEqual(unexplained, [], "forms pyxform converts that survey refuses for no reason listed")
        // Loops, one name in two groups (kept under its group path, XLSFormReader+Keys.swift),
        // `${last-saved#x}` and paths into the instance open.
        XCTAssertGreaterThanOrEqual(opened, 577)
    }

    /// The real biomass-plot form of the issue (two languages, five repeats, unnamed `end
    /// repeat` rows) opens, its repeats nested as pyxform nests them.
    func testTheBiomassPlotFormOpensWithItsRepeats() throws {
        let name = try XCTUnwrap(try FileManager.default.contentsOfDirectory(atPath: Self.folder.path)
            .first { $0.hasPrefix("bug_example_xls--UCL_Biomass_Plot_Form") })
        let result = XLSForm.read(try XLSFormSheets.read(fileAt: Self.folder.appendingPathComponent(name).path))
        XCTAssertEqual(result.errors, [])
        let form = try XCTUnwrap(result.form)
        let questionnaire = Questionnaire(form: form)
        XCTAssertEqual(questionnaire.repeats.count, 5)
        XCTAssertTrue(questionnaire.repeats.contains { $0.repeats.count == 1 }, "a repeat nested in another")
        // Before, every row was a top-level field; now a repeat's rows are its own.
        let topRows = Set(form.questions.map(\.row))
        let innerRows = questionnaire.repeats.flatMap { $0.children.flatMap(\.descendants) }.compactMap(\.question?.row)
        XCTAssertFalse(innerRows.isEmpty)
        XCTAssertTrue(topRows.isDisjoint(with: innerRows))
        XCTAssertEqual(questionnaire.fields.count, form.questions.count)
    }
}
