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
///
/// The forms pyxform refuses (`refused/`, pyxform's error for each in the manifest) are
/// refused here too, at pyxform's row and in the column it names, but for those
/// `knownDisagreements` lists, each with why.
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

    /// The forms of pyxform's suite pyxform refuses that survey accepts, by the start of their
    /// file name, with why. Any other form pyxform refuses survey refuses too.
    static let knownDisagreements: [String: String] = [
        "bug_example_xls--ict_survey_fails": "pyxform crashes (TypeError: an unexpected keyword argument 'sheet3'): its CSV reader passes on every sheet, "
            + "and its workbook has no place for `Sheet3`, no part of a form; no rule refuses it, and survey skips the sheet as pyxform skips one in a workbook",
    ]

    /// Every form pyxform 4.5 refuses is refused here (but `knownDisagreements`), and where
    /// pyxform names a row, survey's error is on that row (and in the column pyxform names).
    /// pyxform is asked again, so the manifest cannot drift from the oracle.
    func testEveryFormPyxformRefusesIsRefusedAtItsRow() throws {
        let manifest = try XCTUnwrap(try JSONSerialization.jsonObject(
            with: Data(contentsOf: Self.folder.appendingPathComponent("manifest.json"))) as? [String: Any])
        let refused = try XCTUnwrap(manifest["refused"] as? [[String: String]])
        let converted = try XCTUnwrap(manifest["converted"] as? [String])
        XCTAssertGreaterThan(refused.count, 200, "run packaging/pyxform-suite-corpus.py")
        let folder = Self.folder.appendingPathComponent("refused")
        let live = try XLSFormEntityTests.pyxformErrors(refused.map { folder.appendingPathComponent($0["form"]!).path })
        var accepted: [String] = [], wrongRow: [String] = [], rows = 0
        for (entry, now) in zip(refused, live) {
            let name = entry["form"]!, error = entry["error"]!
            XCTAssertNotNil(now, "\(name): pyxform converts it now")
            let sheets = try XLSFormSheets.read(fileAt: folder.appendingPathComponent(name).path)
            let result = XLSForm.read(sheets)
            guard !result.errors.isEmpty else {
                accepted.append(name)
                continue
            }
            XCTAssertNil(result.form, name)
            // pyxform's "[row : N]" (on the survey sheet unless it names another), and "the 'COLUMN' value".
            guard let match = error.firstMatch(of: /\[row : (\d+)\]/), let row = Int(match.1) else { continue }
            let sheet = error.firstMatch(of: /On the '(\w+)' sheet/).map { String($0.1) } ?? "survey"
            // `dataset` is pyxform's older name of the entities sheet's `list_name`.
            let column = error.firstMatch(of: /the '([^']+)' value/).map { $0.1 == "dataset" ? "list_name" : String($0.1) }
            // pyxform names row 1 for the settings' `name` (its NAMES_008 hard-codes it), the
            // header's row: the value is on the settings' one row after it.
            let expected = XLSFormEntityTests.surveyRow(sheet == "settings" ? max(row, 2) : row, sheet: sheet, in: sheets)
            rows += 1
            let found = result.errors.contains { problem in
                problem.sheet == sheet && problem.row == expected
                    && (column == nil || problem.column.map { column!.hasPrefix($0) || $0.hasPrefix(column!) } ?? false)
            }
            if !found { wrongRow.append("\(name): pyxform \(sheet) row \(expected ?? -1) (\(column ?? "-")), survey \(result.errors.map(\.description))") }
        }
        let disagreeing = accepted.map { name in Self.knownDisagreements.keys.first { name.hasPrefix($0) } ?? name }
        XCTAssertEqual(Set(disagreeing), Set(Self.knownDisagreements.keys), "forms pyxform refuses that survey accepts")
        XCTAssertEqual(wrongRow, [], "refusals at another row or column than pyxform's")
        let agreed = converted.count + refused.count - accepted.count
        print("pyxform suite verdicts: \(agreed) of \(converted.count + refused.count) agree (\(refused.count - accepted.count) of \(refused.count) refused, "
              + "\(rows) at pyxform's row)")
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
