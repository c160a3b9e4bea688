import Foundation
import XCTest
import SurveyValues
import SurveyForms
@testable import SurveyUI

// Helpers shared by the tests of the UI core (SurveyUITests) and of the runtime
// (SurveyRuntimeTests).

/// Builds a record from the five standard fields.
public func record(_ first: String, _ last: String, address: String = "", phone: String = "", age: Int? = nil) -> Record {
    var values: [String: PropertyValue] = [
        "firstName": .string(first), "lastName": .string(last),
        "address": .string(address), "phone": .string(phone),
    ]
    if let age { values["age"] = .integer(age) }
    return Record(values)
}

/// The original app's two records plus `extra` numbered ones, for scrolling.
public func sampleRecords(extra: Int = 0) -> [Record] {
    var records = [record("John", "Smith", address: "123 Any St.", phone: "555-1234", age: 20),
                   record("Doris", "Jones", address: "789 Town St.", phone: "555-1234", age: 40)]
    for i in 0..<extra { records.append(record("Person\(i + 3)", "Sample\(i + 3)")) }
    return records
}

public func makeState(_ records: [Record] = sampleRecords(), width: Int = 120, height: Int = 40,
               draft: Record = Record()) -> AppState {
    AppState(documentName: "Field Day", loaded: .success(SurveyDocument(records: records)),
             draft: draft, size: Size(width: width, height: height), environment: .forTests)
}

extension AppState {
    /// Presses keys through the real key table, as the app does (a terminal too small to show
    /// anything ignores them); returns every effect they produced. A key that does nothing in
    /// the current mode fails the test: say so with `pressUnbound`.
    @discardableResult
    public mutating func press(_ keys: Key..., file: StaticString = #filePath, line: UInt = #line) -> [Effect] {
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
    public mutating func type(_ text: String, file: StaticString = #filePath, line: UInt = #line) -> [Effect] {
        var effects: [Effect] = []
        for c in text { effects += press(.character(c), file: file, line: line) }
        return effects
    }

    /// Presses keys that must do nothing here: each fails the test if it has a binding (and
    /// is then not pressed), so "this key does nothing" is said, not assumed.
    public mutating func pressUnbound(_ keys: Key..., file: StaticString = #filePath, line: UInt = #line) {
        for key in keys {
            if let action = KeyMap.action(for: .key(key), in: self) {
                XCTFail("\(key) is bound in \(modeDescription), to \(action)", file: file, line: line)
            }
        }
    }

    /// The input mode, and whether the terminal is too small for any key to count.
    public var modeDescription: String {
        "\(inputMode)" + (layout.kind == .tooSmall ? " (terminal too small)" : "")
    }

    @discardableResult
    public mutating func send(_ action: Action) -> [Effect] { update(&self, action) }

    public var statusText: String? { status?.text }
}

extension Array where Element == Effect {
    /// The effects but the keyer statistics' note of an Add (`Effect.noteKeyed`), for tests
    /// about what an Add saves.
    public var withoutKeyedNote: [Effect] {
        filter { if case .noteKeyed = $0 { false } else { true } }
    }
}

extension Record {
    /// The survey's title under the original five (`Questionnaire.standard.title(of:)`, the
    /// one title rule): "Last, First", for tests that state five-field surveys by name.
    public var listTitle: String { Questionnaire.standard.title(of: self) }
    public func listTitle(limit: Int?) -> String { Questionnaire.standard.title(of: self, limit: limit) }
}

extension AppEnvironment {
    /// The environment of a state made in a test: the machine's clock (as the runtime's
    /// `WallClock.system`), unless the test pins one.
    public static let forTests = AppEnvironment(clock: WallClock { Date() })
}
