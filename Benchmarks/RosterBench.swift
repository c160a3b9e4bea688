import Foundation
import SurveyValues
import SurveyForms
import SurveyStorage

/// Issue 18's roster figure: a 500-question form with two repeats of 20 instances each (the
/// top level 100 rows, each repeat 200: questions, and calculations reading their instance and
/// the survey), its totals outside (`sum(${a_calc_…})`, `count(${alpha})`). Printed: the time
/// to settle after one edit inside one instance (what each keystroke's commit costs), beside
/// the same edit in a flat form of 500 rows; the whole survey completed for [ Add ]; the
/// gate (`problems(in:)`); and one instance's relevance (what a frame of the roster costs).
/// `--roster-only`.
enum RosterBench {
    /// 100 top-level rows, then each repeat's 200 rows: half integers with a constraint and a
    /// `relevant` reading the one before, half calculations reading their question and the
    /// calculation before them.
    static func formCSV(repeats: Bool) -> String {
        var rows = ["survey,,,,,,,", ",type,name,label,calculation,constraint,relevant,repeat_count"]
        for i in 0..<50 {
            rows.append(",integer,t\(i),Top \(i),,. >= 0,\(i == 0 ? "" : "${t\(i - 1)} != -1"),")
            rows.append(",calculate,tc\(i),,${t\(i)} + \(i == 0 ? "0" : "${tc\(i - 1)}"),,,")
        }
        for block in ["alpha", "beta"] {
            if repeats { rows.append(",begin repeat,\(block),\(block),,,,20") }
            let p = block.prefix(1)
            for i in 0..<100 {
                rows.append(",integer,\(p)\(i),Q \(i),,. <= ${t0} + 1000,\(i == 0 ? "" : "${\(p)\(i - 1)} != -1"),")
                rows.append(",calculate,\(p)c\(i),,${\(p)\(i)} * 2 + \(i == 0 ? "${t1}" : "${\(p)c\(i - 1)}"),,,")
            }
            if repeats { rows.append(",end repeat,,,,,,") }
        }
        rows.removeLast(repeats ? 5 : 4)   // 500 rows with the totals below (an end row kept)
        if repeats {
            rows.append(",end repeat,,,,,,")
            rows += [",calculate,total_a,,sum(${ac97}),,,", ",calculate,total_b,,sum(${bc97}),,,",
                     ",calculate,members,,count(${alpha}),,,", ",calculate,max_b,,max(${b3}),,,"]
        } else {
            rows += [",calculate,total_a,,${ac97},,,", ",calculate,total_b,,${bc97},,,",
                     ",calculate,members,,1,,,", ",calculate,max_b,,${b3},,,"]
        }
        return rows.joined(separator: "\n")
    }

    static func run() throws {
        let clock = FormBench.clock
        print("roster of 500 questions, two repeats of 20 instances (\(ProcessInfo.processInfo.processorCount) cores):")
        for repeats in [false, true] {
            let read = XLSForm.read(try XLSFormSheets.csv(formCSV(repeats: repeats)))
            guard let form = read.form else { print("  the form does not read: \(read.errors.prefix(3))"); continue }
            var q = Questionnaire(form: form)
            let build = seconds { q = Questionnaire(form: form) }
            let rows = form.rowCount
            var values: [String: PropertyValue] = [:]
            for i in 0..<50 { values["t\(i)"] = .integer(i) }
            if repeats {
                for (block, p) in [("alpha", "a"), ("beta", "b")] {
                    values[block] = .array((0..<20).map { k in
                        .dictionary(Dictionary(uniqueKeysWithValues: (0..<100).map { ("\(p)\($0)", PropertyValue.integer(k + $0)) }))
                    })
                }
            } else {
                for p in ["a", "b"] { for i in 0..<100 { values["\(p)\(i)"] = .integer(i) } }
            }
            var result = Record()
            let complete = seconds { result = q.completed(Record(values), clock: clock) }
            var edited = result
            let path = repeats ? AnswerPath([AnswerPath.Step(name: "alpha", index: 10)], "a5") : AnswerPath("a5")
            edited.setValue(.integer(500), at: path)
            var hidden: [String: PropertyValue] = [:]
            var settled = Record()
            let runs = 20
            let edit = seconds { for _ in 0..<runs { settled = q.settled(edited, changedAt: path, before: result, hidden: &hidden, clock: clock) } } / Double(runs)
            precondition(settled["total_a"] != result["total_a"], "the edit must reach the total: \(String(describing: result["total_a"])) \(String(describing: settled["total_a"])) \(String(describing: settled["ac5"]))")
            let gate = seconds { _ = FormInstance(q, record: settled, clock: clock).problems() }
            let unpack = seconds { for _ in 0..<runs { _ = settled.values } } / Double(runs)
            let steps = repeats ? [AnswerPath.Step(name: "alpha", index: 10)] : []
            let frame = seconds { for _ in 0..<runs { _ = FormInstance(q, record: settled, clock: clock).relevance(at: steps) } } / Double(runs)
            print(String(format: "  %@ (%d rows): build %@, complete %@, one edit settled %@, gate %@, relevance of %@ %@",
                         repeats ? "two rosters" : "flat       ", rows, format(build), format(complete), format(edit), format(gate),
                         repeats ? "an instance" : "the form   ", format(frame)))
            print("    (reading the survey's answers out of its packed bytes: \(format(unpack)))")
        }
    }
}
