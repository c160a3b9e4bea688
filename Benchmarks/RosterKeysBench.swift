import Foundation
import SurveyValues
import SurveyForms
import SurveyStorage
import SurveyUI

/// Issue 18's "keys at least as fast as the flat form": the keys of keying RosterBench's
/// 500-question form in process (`update` plus `Screen.render` into a CellGrid at 120x40),
/// the form with two rosters of 20 members beside the same rows flat, on a document of 100
/// surveys answering it: ↓ and Tab browsing, → to the next survey, PgDn to the next member
/// (rosters only), and the Enter that keeps a typed answer inside a member (the commit:
/// checked, settled, the undo step and the save effect; the save itself is the runtime's).
/// Each key's `update` and its frame (`Screen.render(_:into:)` into the grid kept from the
/// frame before, as the terminal draws) are timed apart, so issue 20's "a key at most 1 ms,
/// the frame at most 0.5 ms" reads off the table. Printed only; nothing asserts a time.
/// `--roster-only`.
enum RosterKeysBench {
    static let surveys = 100
    static let presses = 200

    static func run() throws {
        let clock = FormBench.clock
        print("keys on it, \(surveys) surveys, 120x40, per key in ms: update median / p99, frame median / p99:")
        for repeats in [false, true] {
            let read = XLSForm.read(try XLSFormSheets.csv(RosterBench.formCSV(repeats: repeats)))
            guard let form = read.form else { continue }
            let questionnaire = Questionnaire(form: form)
            let records = (0..<surveys).map { questionnaire.completed(answers(repeats: repeats, survey: $0), clock: clock) }
            var state = AppState(documentName: "Bench", loaded: .success(SurveyDocument(records: records)),
                                 size: Size(width: 120, height: 40), questionnaire: questionnaire,
                                 environment: AppEnvironment(clock: .pinned(clock.now)))
            _ = update(&state, .list(.focusForm))
            let start = state
            let outline = start.outline
            // The 40th question of the second member of alpha (flat: the same row).
            let target = outline.indices.first { i in
                outline.field(i).key == "a40" && (!repeats || outline.steps(i).last?.index == 0)
            } ?? EntryNumber(0)
            var grid = Screen.render(start)
            func keys(_ key: Key, before: (inout AppState, Int) -> Void) -> FormBench.KeySpread {
                state = start
                var updates: [Double] = [], frames: [Double] = []
                for r in 0..<presses {
                    before(&state, r)
                    guard let action = KeyMap.action(for: key, in: state.inputMode) else { break }
                    updates.append(seconds { _ = update(&state, action) })
                    frames.append(seconds { Screen.render(state, into: &grid) })
                }
                return FormBench.KeySpread(update: FormBench.Spread(updates), frame: FormBench.Spread(frames))
            }
            let down = keys(.down) { s, _ in if s.formItem == .add { s = start } }
            let tab = keys(.tab) { _, _ in }
            let right = keys(.right) { s, r in
                if case .record(let i) = s.shown, r > 0, i < surveys - 1 { return }
                s = start
                s.form.highlight(.field(target))
            }
            let commit = keys(.enter) { s, _ in
                s = start
                s.form.highlight(.field(target))
                _ = update(&s, .form(.activate))
                _ = update(&s, .text(.insert("7")))
            }
            var lines = [("↓  ", down), ("Tab", tab), ("→  ", right), ("Enter keeping an answer", commit)]
            if repeats {
                let page = keys(.pageDown) { s, r in
                    if r % 19 == 0 { s = start; s.form.highlight(.field(target)) }
                }
                lines.insert(("PgDn (next member)", page), at: 3)
            }
            print("  \(repeats ? "two rosters" : "flat       "):")
            for (label, spread) in lines {
                print("    \(label.padding(toLength: 24, withPad: " ", startingAt: 0)) \(spread.line)")
            }
        }
    }

    /// A survey answering every question: the top level's, and 20 members of each roster.
    static func answers(repeats: Bool, survey k: Int) -> Record {
        var values: [String: PropertyValue] = [:]
        for i in 0..<50 { values["t\(i)"] = .integer(i + k) }
        for (block, p) in [("alpha", "a"), ("beta", "b")] {
            let member = { (m: Int) in Dictionary(uniqueKeysWithValues: (0..<100).map { ("\(p)\($0)", PropertyValue.integer(m + $0)) }) }
            if repeats {
                values[block] = .array((0..<20).map { .dictionary(member($0)) })
            } else {
                values.merge(member(0)) { a, _ in a }
            }
        }
        return Record(values)
    }
}
