import Foundation
import XCTest

/// Reading a captured screen the way a person does: rows, the title bar, a field's value.
enum ScreenText {
    static func lines(_ screen: String) -> [String] {
        screen.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    }

    /// The value right of a form label ("Age" → "20"), nil when the label is not on screen.
    /// A label is the text followed by two blanks or the end of the row.
    static func formValue(_ label: String, in screen: String) -> String? {
        for line in lines(screen) {
            var search = line.startIndex..<line.endIndex
            while let range = line.range(of: label, range: search) {
                let rest = line[range.upperBound...]
                if rest.isEmpty || rest.hasPrefix("  ") {
                    return String(rest.drop(while: { $0 == " " }))
                }
                search = range.upperBound..<line.endIndex
            }
        }
        return nil
    }

    /// The first row containing `text`, and its index.
    static func row(containing text: String, in screen: String) -> (index: Int, line: String)? {
        for (i, line) in lines(screen).enumerated() where line.contains(text) { return (i, line) }
        return nil
    }
}

extension TmuxSession {
    /// Waits until the form shows `value` right of `label`.
    @discardableResult
    func waitForField(_ label: String, _ value: String, timeout: TimeInterval = defaultTimeout,
                      file: StaticString = #filePath, line: UInt = #line) -> String? {
        waitUntil("the field \"\(label)\" shows \"\(value)\"", timeout: timeout, file: file, line: line) {
            ScreenText.formValue(label, in: $0) == value
        }
    }

    /// Waits until the form shows these five values (First name, Last name, Address, Phone, Age).
    @discardableResult
    func waitForRecord(_ first: String, _ last: String, _ address: String, _ phone: String, _ age: String,
                       file: StaticString = #filePath, line: UInt = #line) -> String? {
        let expected = [("First name", first), ("Last name", last), ("Address", address),
                        ("Phone", phone), ("Age", age)]
        return waitUntil("the form shows \(expected.map { "\($0.0)=\"\($0.1)\"" }.joined(separator: " "))",
                         file: file, line: line) { screen in
            expected.allSatisfy { ScreenText.formValue($0.0, in: screen) == $0.1 }
        }
    }
}
