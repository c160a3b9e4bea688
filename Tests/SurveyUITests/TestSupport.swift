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
    /// Presses keys through the real key table, as the app does (a terminal too small to show
    /// anything ignores them); returns every effect they produced. A key that does nothing in
    /// the current mode fails the test: say so with `pressUnbound`.
    @discardableResult
    mutating func press(_ keys: Key..., file: StaticString = #filePath, line: UInt = #line) -> [Effect] {
        var effects: [Effect] = []
        for key in keys {
            guard let action = KeyMap.action(for: .key(key), in: self) else {
                XCTFail("\(key) has no binding in \(modeDescription)", file: file, line: line)
                continue
            }
            effects += update(&self, action)
        }
        return effects
    }

    /// Types text a character at a time; each must do something, as with `press`.
    @discardableResult
    mutating func type(_ text: String, file: StaticString = #filePath, line: UInt = #line) -> [Effect] {
        var effects: [Effect] = []
        for c in text { effects += press(.character(c), file: file, line: line) }
        return effects
    }

    /// Presses keys that must do nothing here: each fails the test if it has a binding (and
    /// is then not pressed), so "this key does nothing" is said, not assumed.
    mutating func pressUnbound(_ keys: Key..., file: StaticString = #filePath, line: UInt = #line) {
        for key in keys {
            if let action = KeyMap.action(for: .key(key), in: self) {
                XCTFail("\(key) is bound in \(modeDescription), to \(action)", file: file, line: line)
            }
        }
    }

    /// The input mode, and whether the terminal is too small for any key to count.
    var modeDescription: String {
        "\(inputMode)" + (layout.kind == .tooSmall ? " (terminal too small)" : "")
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

extension Program {
    /// Hands keys to the program as the terminal would. A key that does nothing in the current
    /// state fails the test: say so with `pressUnbound`.
    mutating func press(_ keys: Key..., file: StaticString = #filePath, line: UInt = #line) {
        for key in keys where !handle(.key(key)) {
            XCTFail("\(key) has no binding in \(state.modeDescription)", file: file, line: line)
        }
    }

    /// Types text a character at a time; each must do something, as with `press`.
    mutating func type(_ text: String, file: StaticString = #filePath, line: UInt = #line) {
        for c in text { press(.character(c), file: file, line: line) }
    }

    /// Hands over keys that must do nothing here: each fails the test if the program took it,
    /// or if the state changed.
    mutating func pressUnbound(_ keys: Key..., file: StaticString = #filePath, line: UInt = #line) {
        for key in keys {
            let before = state
            if handle(.key(key)) {
                XCTFail("\(key) is bound in \(before.modeDescription)", file: file, line: line)
            } else if state != before {
                XCTFail("\(key) changed the state without a binding", file: file, line: line)
            }
        }
    }

    /// `pressUnbound` for each character of the text.
    mutating func typeUnbound(_ text: String, file: StaticString = #filePath, line: UInt = #line) {
        for c in text { pressUnbound(.character(c), file: file, line: line) }
    }
}

extension Record {
    /// The survey's title under the original five (`Questionnaire.standard.title(of:)`, the
    /// one title rule): "Last, First", for tests that state five-field surveys by name.
    var listTitle: String { Questionnaire.standard.title(of: self) }
    func listTitle(limit: Int?) -> String { Questionnaire.standard.title(of: self, limit: limit) }
}
