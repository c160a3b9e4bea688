import Foundation
import XCTest
import SurveyValues
import SurveyForms
import SurveyStorage
@testable import SurveyUI

/// Labels in scripts written without spaces (Chinese, Japanese, Thai) wrap on the form and in
/// F1 as English ones do: broken between characters by display width, so every character
/// shows somewhere, at every width.
final class LongLabelWrapTests: XCTestCase {
    static let labels = [
        "en": "In the past twelve months, has any member of your household been unable to work or go to school because of illness or injury?",
        "zh": "请问在过去十二个月里您家中是否有任何成员因为生病或受伤而无法正常工作或上学",
        "ja": "過去十二か月の間に、病気やけがのために仕事や学校を休んだ世帯員はいましたか？",
        "th": "ในช่วงสิบสองเดือนที่ผ่านมามีสมาชิกในครัวเรือนคนใดที่ไม่สามารถไปโรงเรียนได้เพราะเจ็บป่วยหรือได้รับบาดเจ็บ",
    ]
    static let sizes = [(120, 30), (60, 24), (30, 24)]

    /// A one-question form whose label is `label`, highlighted on an empty document.
    private func state(label: String, width: Int, height: Int) throws -> AppState {
        let sheets = try XLSFormSheets.csv("survey,,,\n,type,name,label\n,text,q,\"\(label)\"\n")
        let read = XLSForm.read(sheets)
        let form = try XCTUnwrap(read.form, "\(read.errors)")
        var s = AppState(documentName: "Labels", loaded: .success(SurveyDocument()),
                         size: Size(width: width, height: height), questionnaire: Questionnaire(form: form), environment: .forTests)
        s.form.highlight(.field(0))
        return s
    }

    /// The characters drawn inside `rect`, row after row, with blanks and box lines left out.
    private func text(_ grid: CellGrid, in rect: Rect) -> String {
        var text = ""
        for y in rect.y..<rect.maxY {
            for x in rect.x..<rect.maxX where !grid[x, y].isContinuation {
                text += grid[x, y].text
            }
        }
        return text.filter { !$0.isWhitespace && !"─│┌┐└┘".contains($0) }
    }

    /// The rows of `rect` as they show, for failure messages.
    private func rows(_ grid: CellGrid, in rect: Rect) -> String {
        (rect.y..<rect.maxY).map { y in
            (rect.x..<rect.maxX).map { grid[$0, y].text }.joined() + "|"
        }.joined(separator: "\n")
    }

    func testALongLabelInAnyScriptWrapsOnTheFormAtEveryWidth() throws {
        for (script, label) in Self.labels {
            for (width, height) in Self.sizes {
                let s = try state(label: label, width: width, height: height)
                let grid = Screen.render(s)
                let form = s.layout.form
                XCTAssertTrue(text(grid, in: form).contains(label.filter { !$0.isWhitespace }),
                              "\(script) at \(width)x\(height): the whole label, across lines\n\(rows(grid, in: form))")
            }
        }
    }

    func testALongLabelInAnyScriptShowsWholeInTheHelpPopover() throws {
        for (script, label) in Self.labels {
            for (width, height) in Self.sizes {
                var s = try state(label: label, width: width, height: height)
                s.press(.function(1))
                XCTAssertEqual(s.inputMode, .help)
                let grid = Screen.render(s)
                let box = try XCTUnwrap(popover(in: grid), "\(script) at \(width)x\(height): no popover\n\(grid.lines.joined(separator: "\n"))")
                XCTAssertTrue(text(grid, in: box).contains(label.filter { !$0.isWhitespace }),
                              "\(script) at \(width)x\(height): the whole label in F1\n\(rows(grid, in: box))")
            }
        }
    }

    func testWrappedLinesKeepEveryClusterWholeAndFitTheWidth() {
        let texts = Self.labels.values.map { $0 } + [
            "naïve café résumé" + String(repeating: "e\u{301}", count: 30),
            String(repeating: "👩‍👩‍👧‍👦🇫🇷", count: 12) + " ok",
            "a " + String(repeating: "字", count: 25) + " b",
        ]
        for text in texts {
            for width in [2, 3, 7, 20, 41] {
                let lines = TextWrap.lines(text, width: width)
                XCTAssertEqual(lines.joined().filter { !$0.isWhitespace }, text.filter { !$0.isWhitespace },
                               "width \(width): every character once, none split")
                for line in lines {
                    XCTAssertLessThanOrEqual(TextWidth.width(of: line), width, "\(line) at width \(width)")
                    XCTAssertFalse(line.isEmpty, "no empty line at width \(width)")
                }
            }
        }
    }

    /// The box a popover draws (┌ to ┘), borders included so a title on the top one counts.
    private func popover(in grid: CellGrid) -> Rect? {
        for y in 0..<grid.size.height {
            for x in 0..<grid.size.width where grid[x, y].text == "┌" {
                guard let right = (x + 1..<grid.size.width).first(where: { grid[$0, y].text == "┐" }),
                      let bottom = (y + 1..<grid.size.height).first(where: { grid[x, $0].text == "└" }) else { continue }
                return Rect(x: x, y: y, width: right - x + 1, height: bottom - y + 1)
            }
        }
        return nil
    }
}
