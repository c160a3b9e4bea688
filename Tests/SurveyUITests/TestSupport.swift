import Foundation
import XCTest
import SurveyModel
@testable import SurveyUI

/// Builds a record from the five standard fields.
func record(_ first: String, _ last: String, address: String = "", phone: String = "", age: Int? = nil) -> Record {
    var values: [String: PropertyValue] = [
        "firstName": .string(first), "lastName": .string(last),
        "address": .string(address), "phone": .string(phone),
    ]
    if let age { values["age"] = .integer(age) }
    return Record(values)
}

/// The original app's two records plus `extra` numbered ones, for scrolling.
func sampleRecords(extra: Int = 0) -> [Record] {
    var records = [record("John", "Smith", address: "123 Any St.", phone: "555-1234", age: 20),
                   record("Doris", "Jones", address: "789 Town St.", phone: "555-1234", age: 40)]
    for i in 0..<extra { records.append(record("Person\(i + 3)", "Sample\(i + 3)")) }
    return records
}

func makeState(_ records: [Record] = sampleRecords(), width: Int = 120, height: Int = 40,
               draft: Record = Record()) -> AppState {
    AppState(documentName: "Field Day", loaded: .success(SurveyDocument(records: records)),
             draft: draft, size: Size(width: width, height: height))
}

extension AppState {
    /// Presses keys through the real key table; returns every effect they produced.
    @discardableResult
    mutating func press(_ keys: Key...) -> [Effect] {
        var effects: [Effect] = []
        for key in keys {
            guard let action = KeyMap.action(for: key, in: inputMode) else { continue }
            effects += update(&self, action)
        }
        return effects
    }

    @discardableResult
    mutating func type(_ text: String) -> [Effect] {
        var effects: [Effect] = []
        for c in text { effects += press(.character(c)) }
        return effects
    }

    @discardableResult
    mutating func send(_ action: Action) -> [Effect] { update(&self, action) }

    var statusText: String? { status?.text }
}

/// Compares a rendered screen with `__Snapshots__/NAME.txt`, one row a line with a `|` at the
/// right edge so trailing blanks show. `SURVEY_RECORD=1` rewrites the file and fails, so a
/// recording never passes by accident; a mismatch prints a line diff.
func assertScreen(_ grid: CellGrid, named name: String, file: StaticString = #filePath, line: UInt = #line) {
    let actual = grid.lines.map { $0 + "|" }.joined(separator: "\n") + "\n"
    let url = URL(fileURLWithPath: "\(file)").deletingLastPathComponent()
        .appendingPathComponent("__Snapshots__/\(name).txt")
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

extension Record {
    /// The survey's title under the original five (`Questionnaire.standard.title(of:)`, the
    /// one title rule): "Last, First", for tests that state five-field surveys by name.
    var listTitle: String { Questionnaire.standard.title(of: self) }
    func listTitle(limit: Int?) -> String { Questionnaire.standard.title(of: self, limit: limit) }
}
