import Foundation
import XCTest
@testable import SurveyValues
@testable import SurveyForms
@testable import SurveyStorage
@testable import SurveyUI

/// Views take what they draw: each is drawn here from hand-made data, no `AppState`.
final class ViewModelTests: XCTestCase {
    func testDocumentInfoDrawsOnlyTheFactsItIsGiven() {
        var grid = CellGrid(size: Size(width: 30, height: 5))
        DocumentInfoView(facts: [("Name", "a"), ("Not in this form version", "x: 1")])
            .draw(into: &grid, in: grid.bounds)
        XCTAssertEqual(grid.lines, [
            "  Document info               ",
            "                              ",
            "  Name         a              ",
            "  Not in this form version    ",
            "               x: 1           ",
        ])
    }

    func testDocumentManagerDrawsTheRowsItIsGiven() {
        let size = Size(width: 40, height: 9)
        var grid = CellGrid(size: size)
        DocumentManagerView(documents: [DocumentSummary(name: "farm", recordCount: 3, problem: nil, modified: nil, byteSize: 10),
                                        DocumentSummary(name: "town", recordCount: nil, problem: "bad", modified: nil, byteSize: 0)],
                            cursor: 1, scroll: 0, current: "farm", renaming: nil, timeZone: .utc)
            .draw(into: &grid, layout: Layout(size: size))
        XCTAssertEqual(grid.lines, [
            "                                        ",
            " ┌─ Documents ────────────────────────┐ ",
            " │  Name                      Records │ ",
            " │• farm                            3 │ ",
            " │  town                   unreadable │ ",
            " └────────────────────────────────────┘ ",
            "                                        ",
            "                                        ",
            "                                        ",
        ])
        XCTAssertEqual(grid.cursor, Point(x: 2, y: 4), "on the highlighted row, not the current one")
    }

    func testHelpDrawsTheTextItIsGivenThenTheModesKeys() {
        let help = HelpPopover(title: "Age", info: "Years.", mode: .documents,
                               message: AppState.StatusMessage("Saved.", kind: .info))
        let lines = help.lines(width: 30, maxMessageRows: 2)
        XCTAssertEqual(Array(lines.prefix(4).map(\.text)), ["Last message: Saved.", "", "Years.", ""])
        XCTAssertEqual(lines.count, 4 + KeyMap.helpBindings(for: .documents).count + 2, "one line per key of the mode given")
        XCTAssertEqual(lines.last?.text, "Esc or F1 closes this help")
    }

    func testListPaneDrawsTheRowsAndTitlesItIsGiven() {
        let names = ["Ames, Ann", "Bell, Bo", "Cole, Cy"]
        let records = RecordList(names.map { _ in Record([:]) })
        var grid = CellGrid(size: Size(width: 16, height: 4))
        ListPane(title: "Surveys (3)", emptyText: "", filterLine: nil,
                 projection: ListProjection(records: records, filter: RecordFilter(""), order: ListOrder()),
                 cursorRow: 1, scroll: 0, cursorIsShown: true, focused: false,
                 body: Rect(x: 0, y: 1, width: 16, height: 3),
                 titleCells: { _, _, _ in nil }, titleText: { i, _ in names[i] })
            .draw(into: &grid, in: grid.bounds)
        XCTAssertEqual(grid.lines, [" Surveys (3)    ", " Ames, Ann      ", "›Bell, Bo       ", " Cole, Cy       "],
                       "the marker on the cursor's row, as the list is not focused")
        XCTAssertEqual(grid[1, 2].style, Style(.bold, role: .accent))
    }

    func testFormPaneDrawsTheRowsAndAnswersItIsGiven() {
        let fields = Array(Questionnaire.standard.fields.prefix(2))
        var grid = CellGrid(size: Size(width: 40, height: 8))
        FormPane(heading: "Survey 1 of 1", rows: fields.map { .field(label: $0.label, extraLine: false) }, scroll: 0,
                 highlight: .field(1), editing: nil, problems: [:], fields: fields,
                 answer: { (["Ann", "Ames"][$0.index], false) })
            .draw(into: &grid, in: grid.bounds)
        XCTAssertEqual(grid.lines, [
            "  Survey 1 of 1                         ",
            "                                        ",
            "  First name  Ann                       ",
            "                                        ",
            "   Last name  Ames                      ",
            "                                        ",
            "              [ Clear ]  [ Add ]        ",
            "                                        ",
        ])
        XCTAssertEqual(grid.cursor, Point(x: 14, y: 4), "on the highlighted field's value")
        XCTAssertEqual(grid[14, 4].style, Style(.reverse))
    }

    func testChoicePickerDrawsTheChoicesWhereItIsGiven() {
        let choices = ["yes", "no"].map { XLSForm.Choice(name: $0, labels: [:], extra: [:]) }
        let picker = ChoicePicker(entry: 0, title: "Agrees?", choices: choices, labels: ["yes": "Yes", "no": "No"],
                                  multiple: false, current: "no")
        let geometry = ChoicePickerView.Geometry(box: Rect(x: 0, y: 0, width: 30, height: 5),
                                                 hint: Rect(x: 2, y: 1, width: 27, height: 1),
                                                 rows: Rect(x: 1, y: 2, width: 28, height: 2), scroll: 0,
                                                 labelWidth: 25, lineCounts: [1, 1])
        var grid = CellGrid(size: Size(width: 30, height: 5))
        ChoicePickerView(picker: picker, geometry: geometry).draw(into: &grid)
        XCTAssertEqual(grid.lines, [
            "┌─ Agrees? ──────────────────┐",
            "│ Digit or Enter chooses · t…│",
            "│ 1 Yes                      │",
            "│ 2 No                       │",
            "└────────────────────────────┘",
        ])
        XCTAssertEqual(grid.cursor, Point(x: 2, y: 3), "on the current answer")
    }
}
