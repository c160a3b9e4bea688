import Foundation
import XCTest
@testable import SurveyValues
@testable import SurveyForms
@testable import SurveyStorage

/// Evaluating one expression against a few answers, with the clock, zone and random source
/// pinned, for the function-library tests.
enum FormFunctionTestSupport {
    /// 2026-11-18 11:06:40 UTC.
    static let now = Date(timeIntervalSince1970: 1_795_000_000)

    static func context(_ answers: [String: String], current: FormValue = .string(""),
                        zone: TimeZoneRule = .utc) -> FormContext {
        var context = FormContext(current: current, now: now, timeZone: zone) { .string(answers[$0] ?? "") }
        // A fixed sequence, so uuid() and random() are the same on every run.
        let counter = Counter()
        context.random = { counter.next() }
        return context
    }

    static func eval(_ text: String, _ answers: [String: String] = [:], current: FormValue = .string(""),
                     zone: TimeZoneRule = .utc, configure: (inout FormContext) -> Void = { _ in },
                     file: StaticString = #filePath, line: UInt = #line) -> FormValue {
        do {
            var c = context(answers, current: current, zone: zone)
            configure(&c)
            return try FormExpression(parsing: text).evaluate(in: c)
        } catch {
            XCTFail("\(text): \(error)", file: file, line: line)
            return .string("<error>")
        }
    }

    static func error(_ text: String) -> String? {
        do { _ = try FormExpression(parsing: text); return nil } catch { return "\(error)" }
    }

    final class Counter: @unchecked Sendable {
        private var n = 0
        private let lock = NSLock()
        func next() -> Double {
            lock.lock(); defer { lock.unlock() }
            n += 1
            return Double((n * 37) % 100) / 100
        }
    }
}
