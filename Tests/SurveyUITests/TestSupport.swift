import Foundation
import XCTest
@_exported import SurveyUITestSupport
import SurveyValues
import SurveyForms
import SurveyStorage
@testable import SurveyUI

/// Beside this file, whichever folder the test that draws the screen is in.
private let snapshotFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("__Snapshots__")

/// Compares a rendered screen with `__Snapshots__/NAME.txt`, one row a line with a `|` at the
/// right edge so trailing blanks show. `SURVEY_RECORD=1` rewrites the file and fails, so a
/// recording never passes by accident; a mismatch prints a line diff.
func assertScreen(_ grid: CellGrid, named name: String, file: StaticString = #filePath, line: UInt = #line) {
    let actual = grid.lines.map { $0 + "|" }.joined(separator: "\n") + "\n"
    let url = snapshotFolder.appendingPathComponent("\(name).txt")
    let recording = ProcessInfo.processInfo.environment["SURVEY_RECORD"] == "1"
    guard !recording, let expected = try? String(contentsOf: url, encoding: .utf8) else {
        try? actual.write(to: url, atomically: true, encoding: .utf8)
        XCTFail("Recorded snapshot \(name); check it and run again without SURVEY_RECORD", file: file, line: line)
        return
    }
    guard expected != actual else { return }
    let e = expected.split(separator: "\n", omittingEmptySubsequences: false)
    let a = actual.split(separator: "\n", omittingEmptySubsequences: false)
    var diff: [String] = []
    for i in 0..<max(e.count, a.count) {
        let el = i < e.count ? String(e[i]) : "<none>"
        let al = i < a.count ? String(a[i]) : "<none>"
        if el != al { diff.append("row \(i):\n  - \(el)\n  + \(al)") }
    }
    XCTFail("Screen \(name) differs:\n" + diff.joined(separator: "\n"), file: file, line: line)
}
