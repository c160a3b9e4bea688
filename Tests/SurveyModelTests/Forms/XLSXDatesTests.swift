import Foundation
import XCTest
import SurveyTestSupport
@testable import SurveyValues
@testable import SurveyForms
@testable import SurveyStorage

/// A form's id and version read exactly as pyxform reads them (issue 27): the settings'
/// `form_id`, else the stem of the file's name; a version typed as a date (or `=NOW()`) as
/// pyxform writes it after openpyxl made it a `datetime`, `2022-04-11 16:26:28.971000`, not
/// the day count Excel keeps. pyxform itself is the oracle: each workbook, made with
/// openpyxl, is converted by pyxform and its XForm's `id` and `version` compared.
final class XLSXDatesTests: XCTestCase {
    private var folder: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("survey-xlsx-dates-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: folder)
    }

    /// pyxform's root `id` and `version` of each file, by file name.
    private func pyxformIdentity(of files: [URL]) throws -> [String: [String]] {
        let script = #"""
        import json, re, sys, html
        from pyxform.xls2xform import convert
        out = {}
        for path in sys.argv[1:]:
            xform = convert(xlsform=path).xform
            root = re.search(r'<instance>\s*<([A-Za-z_][\w.-]*)((?:\s+[\w:]+="[^"]*")*)\s*>', xform).group(2)
            attrs = dict(re.findall(r'([\w:]+)="([^"]*)"', root))
            out[path.rsplit("/", 1)[1]] = [html.unescape(attrs.get("id", "")), html.unescape(attrs.get("version", ""))]
        print(json.dumps(out))
        """#
        let run = try ChildProcess.run(["python3", "-c", script] + files.map(\.path))
        XCTAssertEqual(run.status, 0, "pyxform must be installed (make test installs it): \(run.stderr)")
        return try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [String: [String]])
    }

    /// survey's id and version of a form file, as a document attached from it would have them.
    private func surveyIdentity(of file: URL) throws -> [String] {
        let read = XLSForm.read(try XLSFormSheets.read(fileAt: file.path))
        let form = try XCTUnwrap(read.form, "\(file.lastPathComponent): \(read.errors)")
            .identified(byDefault: DocumentStore.fileStem(file.path))
        return [form.formID ?? "", form.version ?? ""]
    }

    /// The real biomass form (a `=NOW()` version cell formatted `yyyy-mm-ddThh:mm:ss`, no
    /// `form_id`), under the file name UCL gave it.
    func testTheBiomassFormsIdAndVersionAreTheOnesPyxformWrites() throws {
        let fixture = try XCTUnwrap(try FileManager.default.contentsOfDirectory(atPath: PyxformSuiteTests.folder.path)
            .first { $0.hasPrefix("bug_example_xls--UCL_Biomass_Plot_Form") })
        let file = folder.appendingPathComponent("UCL_Biomass_Plot_Form.xlsx")
        try FileManager.default.copyItem(at: PyxformSuiteTests.folder.appendingPathComponent(fixture), to: file)
        let oracle = try pyxformIdentity(of: [file])
        XCTAssertEqual(oracle["UCL_Biomass_Plot_Form.xlsx"], ["UCL_Biomass_Plot_Form", "2022-04-11 16:26:28.971000"])
        XCTAssertEqual(try surveyIdentity(of: file), oracle["UCL_Biomass_Plot_Form.xlsx"])
        // The day count survey read before still names this version.
        let form = try XCTUnwrap(XLSForm.read(try XLSFormSheets.read(fileAt: file.path)).form)
        XCTAssertTrue(form.isVersion("44662.6850575292"))
        XCTAssertTrue(form.isVersion("2022-04-11 16:26:28.971000"))
        XCTAssertFalse(form.isVersion("44662.6850585292"), "86 ms later")
        XCTAssertFalse(form.isVersion("44663"))
        for other in ["2024120101", "1e300", "-1e300", "-5", "0"] { XCTAssertFalse(form.isVersion(other), other) }
    }

    /// Versions in every shape a designer types them, each compared with pyxform's.
    func testEveryKindOfVersionCellReadsAsPyxformReadsIt() throws {
        let script = #"""
        import sys, datetime
        from openpyxl import Workbook
        from openpyxl.utils.datetime import CALENDAR_MAC_1904
        cases = [
            ("datetime_ms", datetime.datetime(2022, 4, 11, 16, 26, 28, 971000), "yyyy\\-mm\\-dd\\Thh:mm:ss", False),
            ("date_only", datetime.date(2024, 12, 1), "yyyy-mm-dd", False),
            ("builtin_14", 45627, 14, False),
            ("time_only", datetime.time(9, 30), "h:mm", False),
            ("duration", 1.5, "[h]:mm:ss", False),
            ("general_int", 2024120101, "General", False),
            ("general_float", 3.25, "General", False),
            ("quoted_literal", 3.25, '"v"0.00', False),
            ("escaped_letters", 7, '\\d0', False),
            ("leap_1900", 59.5, "yyyy-mm-dd hh:mm", False),
            ("rounds_to_next_day", 45000.999999999, "yyyy-mm-dd hh:mm:ss", False),
            ("epoch_1904", datetime.datetime(2020, 1, 1, 6, 0), "yyyy-mm-dd hh:mm", True),
            ("text", "v2.1", "General", False),
            ("with_form_id", 45627.25, "dd/mm/yyyy hh:mm", False),
        ]
        for name, value, fmt, mac in cases:
            wb = Workbook()
            if mac:
                wb.epoch = CALENDAR_MAC_1904
            ws = wb.active
            ws.title = "survey"
            ws.append(["type", "name", "label"])
            ws.append(["text", "q1", "Q1"])
            settings = wb.create_sheet("settings")
            if name == "with_form_id":
                settings.append(["version", "form_id"])
                settings.append([value, "census_2026"])
            else:
                settings.append(["version"])
                settings.append([value])
            cell = settings["A2"]
            if isinstance(fmt, int):
                cell._style = cell._style  # keep the object; a builtin id by its code:
                from openpyxl.styles.numbers import BUILTIN_FORMATS
                cell.number_format = BUILTIN_FORMATS[fmt]
            else:
                cell.number_format = fmt
            wb.save(sys.argv[1] + "/" + name + ".xlsx")
        """#
        let made = try ChildProcess.run(["python3", "-c", script, folder.path])
        XCTAssertEqual(made.status, 0, "openpyxl must be installed: \(made.stderr)")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted().map { folder.appendingPathComponent($0) }
        XCTAssertEqual(files.count, 14)
        let oracle = try pyxformIdentity(of: files)
        for file in files {
            XCTAssertEqual(try surveyIdentity(of: file), oracle[file.lastPathComponent], file.lastPathComponent)
        }
        // What pyxform wrote, so a change in it shows here too.
        XCTAssertEqual(oracle["datetime_ms.xlsx"]?.last, "2022-04-11 16:26:28.971000")
        XCTAssertEqual(oracle["time_only.xlsx"]?.last, "09:30:00")
        XCTAssertEqual(oracle["duration.xlsx"]?.last, "1 day, 12:00:00")
        XCTAssertEqual(oracle["leap_1900.xlsx"]?.last, "1900-02-28 12:00:00")
        XCTAssertEqual(oracle["general_float.xlsx"]?.last, "3.25")
        XCTAssertEqual(oracle["with_form_id.xlsx"], ["census_2026", "2024-12-01 06:00:00"])
    }

    /// openpyxl's test of a number format, case by case.
    func testDateFormatsAreTheOnesOpenpyxlCountsAsDates() {
        for code in ["yyyy-mm-dd", "d-mmm", "h:mm AM/PM", "[h]:mm:ss", "mmss.0", "[$-409]mmmm d, yyyy", "dd\"x\"", "yyyy;@"] {
            XCTAssertTrue(XLSXDates.isDateFormat(code), code)
        }
        for code in ["General", "0.00", "0.00E+00", "@", "\"days\" 0", "\\d0", "_d0", "[Red]0.00", "#,##0;[h]"] {
            XCTAssertFalse(XLSXDates.isDateFormat(code), code)
        }
    }
}
