import Foundation
import XCTest
import SurveyTestSupport
@testable import SurveyValues
@testable import SurveyForms
@testable import SurveyStorage

/// .xlsx workbooks, made in the test with openpyxl (what designers' spreadsheets save),
/// read into the same form as the CSV layout of the same questions.
final class XLSXWorkbookTests: XCTestCase {
    private var folder: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("survey-xlsx-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: folder)
    }

    private var fixture: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Fixtures/forms/household.csv")
    }

    /// The CSV layout turned into a workbook: one sheet per section, numbers as numbers
    /// (as Excel keeps them: 2022 in a choice name, 2024 as the version).
    private func makeWorkbook(from csv: URL) throws -> URL {
        let out = folder.appendingPathComponent("form.xlsx")
        let script = #"""
        import csv, sys
        from openpyxl import Workbook
        wb = Workbook(); wb.remove(wb.active)
        ws = None
        for row in csv.reader(open(sys.argv[1], encoding="utf-8")):
            if row and row[0].strip():
                ws = wb.create_sheet(row[0].strip().lower())
                continue
            cells = row[1:]
            out = []
            for c in cells:
                try:
                    f = float(c)
                    out.append(int(f) if c.endswith(".0") else c)
                except ValueError:
                    out.append(c if c != "" else None)
            ws.append(out)
        wb.save(sys.argv[2])
        """#
        let run = try ChildProcess.run(["python3", "-c", script, csv.path, out.path])
        XCTAssertEqual(run.status, 0, "openpyxl must be installed (make test installs it): \(run.stderr)")
        return out
    }

    /// The README's example form, saved as a workbook the way a designer would hand it over,
    /// is the same questionnaire as the CSV kept in the repository.
    func testTheExampleFormAsAWorkbookIsTheSameQuestionnaire() throws {
        let example = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../../Examples/household.csv").standardizedFileURL
        let workbook = try makeWorkbook(from: example)
        let fromWorkbook = XLSForm.read(try XLSFormSheets.read(fileAt: workbook.path))
        let fromCSV = XLSForm.read(try XLSFormSheets.read(fileAt: example.path))
        XCTAssertEqual(fromWorkbook.errors, [])
        XCTAssertEqual(fromCSV.warnings.map(\.description), [], "its geopoint is typed")
        let a = try XCTUnwrap(fromWorkbook.form), b = try XCTUnwrap(fromCSV.form)
        // Rows are numbered as each file shows them: the workbook's survey sheet starts at 1.
        let unnumbered = { (form: XLSForm) in form.questions.map { q -> XLSForm.Question in var q = q; q.row = 0; return q } }
        XCTAssertEqual(unnumbered(a), unnumbered(b))
        XCTAssertEqual(a.questions.first?.row, 2)
        XCTAssertEqual(b.questions.first?.row, 3)
        XCTAssertEqual(a.choices, b.choices)
        XCTAssertEqual(a.version, "2026113001", "the version reads as its digits")
        XCTAssertEqual(Questionnaire(form: a).fields, Questionnaire(form: b).fields)
    }

    func testAWorkbookReadsAsTheSameForm() throws {
        let workbook = try makeWorkbook(from: fixture)
        let fromWorkbook = XLSForm.read(try XLSFormSheets.read(fileAt: workbook.path))
        let fromCSV = XLSForm.read(try XLSFormSheets.read(fileAt: fixture.path))
        XCTAssertEqual(fromWorkbook.errors, [])
        let a = try XCTUnwrap(fromWorkbook.form), b = try XCTUnwrap(fromCSV.form)
        XCTAssertEqual(a.questions.map(\.name), b.questions.map(\.name))
        XCTAssertEqual(a.questions.map(\.kind), b.questions.map(\.kind))
        XCTAssertEqual(a.questions.map(\.labels), b.questions.map(\.labels))
        XCTAssertEqual(a.questions.map(\.constraint), b.questions.map(\.constraint))
        XCTAssertEqual(a.questions.map(\.relevant), b.questions.map(\.relevant))
        XCTAssertEqual(a.choices["fruit"]?.map(\.name), ["2022", "apple", "other"], "a number typed as a choice name")
        XCTAssertEqual(a.title, "Household")
        XCTAssertEqual(a.instanceName, b.instanceName)
        // And pyxform reads the same workbook as a usable form with the same questions.
        let oracle = try ChildProcess.run(["python3", "-c", """
            import sys; from pyxform.xls2json import parse_file_to_json
            d = parse_file_to_json(sys.argv[1])
            print(" ".join(c["name"] for c in d["children"] if c["name"] != "meta"))
            """, workbook.path])
        XCTAssertEqual(oracle.status, 0, "\(oracle.stderr)")
        // pyxform nests a group's questions inside it: compare the top level.
        var depth = 0
        var topLevel: [String] = []
        for q in a.questions {
            if q.kind == .endGroup { depth -= 1; continue }
            if depth == 0 { topLevel.append(q.name) }
            if q.kind == .beginGroup { depth += 1 }
        }
        let theirs = String(decoding: oracle.stdout, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        XCTAssertEqual(theirs.split(separator: " ").map(String.init), topLevel)
    }

    func testSomethingThatIsNotAWorkbookIsRefusedClearly() throws {
        let junk = folder.appendingPathComponent("junk.xlsx")
        try Data("this is not a zip archive at all".utf8).write(to: junk)
        XCTAssertThrowsError(try XLSFormSheets.read(fileAt: junk.path)) { error in
            XCTAssertEqual("\(error)", "\(junk.path): not a .xlsx workbook (no zip archive directory)")
        }
        // A zip whose central directory points past its end.
        var damaged = try Data(contentsOf: try makeWorkbook(from: fixture))
        damaged.removeSubrange(100..<2000)
        let broken = folder.appendingPathComponent("broken.xlsx")
        try damaged.write(to: broken)
        XCTAssertThrowsError(try XLSFormSheets.read(fileAt: broken.path))
    }
}
