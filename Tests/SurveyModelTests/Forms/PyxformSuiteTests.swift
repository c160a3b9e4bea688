import Foundation
import XCTest
@testable import SurveyValues
@testable import SurveyForms
@testable import SurveyStorage

/// Every form in pyxform's own test suite that pyxform converts opens here too
/// (`Fixtures/forms/pyxform-suite`, made by `packaging/pyxform-suite-corpus.py` from pyxform
/// 4.5.0's tests; forms pyxform refuses are refused, `XLSFormVerdictTests`).
///
/// What pyxform passes though survey reads nothing from it opens with a warning instead
/// (DECISIONS.md, "A rule that reads nothing"; `XLSFormReadsNothingTests`): a bare word where
/// a question was meant (`because`, `name = ${crop}`, `XLDateAmbiguous-v1` as an instance
/// name), a path to no question (`${rep1}[…]/label`, `/test_name[…]/text`), text that is not
/// XPath (`{r}`, `$(myField)`, `£¥§`), a `relevant` that reads its own answer
/// (`pulldata(…, .)`; the same in a `required` is no warning), a default its question refuses
/// (`foo` for an integer, `1900-01-01 00:00:00`, a date cell as pyxform reads it, for a date).
final class PyxformSuiteTests: XCTestCase {
    static var folder: URL { TestSupport.fixtureURL("forms/pyxform-suite") }

    /// The corpus's forms, by file name, with survey's errors and warnings for each.
    static func verdicts() throws -> [(form: String, errors: [String], warnings: [String])] {
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
            .filter { [".md", ".csv", ".xlsx"].contains(where: $0.hasSuffix) }.sorted()
        var result: [(String, [String], [String])] = []
        for name in names {
            do {
                let read = XLSForm.read(try XLSFormSheets.read(fileAt: folder.appendingPathComponent(name).path))
                result.append((name, read.errors.map(\.description), read.warnings.map(\.description)))
            } catch {
                result.append((name, ["\(error)"], []))
            }
        }
        return result
    }

    func testEveryFormPyxformConvertsOpens() throws {
        let verdicts = try Self.verdicts()
        XCTAssertGreaterThan(verdicts.count, 500, "the corpus is missing: run packaging/pyxform-suite-corpus.py")
        let refused = verdicts.filter { !$0.errors.isEmpty }.map { "\($0.form): \($0.errors)" }
        let opened = verdicts.count - refused.count
        let warned = verdicts.filter { !$0.warnings.isEmpty }.count
        print("pyxform suite: \(opened) of \(verdicts.count) forms open, \(warned) with warnings")
        XCTAssertEqual(refused, [], "forms pyxform converts that survey refuses")
        XCTAssertEqual(opened, verdicts.count)
    }

    /// The forms issue 18 named open with a warning where the rule reads nothing.
    func testTheFormsThatReadNothingOpenWithAWarning() throws {
        let verdicts = try Self.verdicts()
        let expected: [(prefix: String, words: String)] = [
            ("bug_example_xls--bad_calc", "“because pyxform doesn't know what to do” cannot be read"),
            // The cell is a date typed as 1 (1900-01-01): pyxform writes the default as that date.
            ("bug_example_xls--xl_date_ambiguous_v1", "the default “1900-01-01 00:00:00” is not an answer this question takes"),
            ("test_repeat--test_calculate_relative_path", "“name” reads nothing"),
            ("test_repeat--test_relative_path_expansion_not_using_current_if_reference_path_is_predicate_but_not_part", "the path ${rep1}/label reaches no question of the form"),
            ("test_repeat--test_repeat_with_reference_path_after_instance_in_predicate_uses_current", "the path /test_name/text reaches no question of the form"),
            ("test_survey--test_many_xpath_references_do_not_hit_64_recursion_limit__one_to_one", "“{r}” cannot be read"),
            ("test_validate_unicode_exception--test_validate_unicode_exception", "cannot be read (“$” must start ${name})"),
            ("test_external_instances--test_external_instance_pulldata_relevant", "${Part_ID}’s relevant reads its own answer"),
            ("test_static_defaults--test_static_defaults", "the question starts empty"),
        ]
        for (prefix, words) in expected {
            let form = try XCTUnwrap(verdicts.first { $0.form.hasPrefix(prefix) }, prefix)
            XCTAssertEqual(form.errors, [], prefix)
            XCTAssertTrue(form.warnings.contains { $0.contains(words) }, "\(prefix): \(form.warnings)")
        }
        // A required that reads its own answer is judged on it, like a constraint: no warning.
        let required = try XCTUnwrap(verdicts.first { $0.form.hasPrefix("test_external_instances--test_external_instance_pulldata_required") })
        XCTAssertEqual(required.errors, [])
        XCTAssertEqual(required.warnings, [])
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
