import Foundation
import SurveyValues
import SurveyForms
import SurveyStorage

/// Issue 18's figure: a chain of calculations written last-first (`c1 = ${c2} + 1`, …,
/// `cN = ${start} + 1`), settled as `survey add` settles a survey (`completed`), and once more
/// after changing `start` as the form does on a commit (`settled` with `before`): by the
/// dependency graph's one pass, and by the passes it replaced (`settledByPasses`, which needs
/// a pass per link). Printed only. `--rules-only 300,1000`; `--no-passes` skips the old way,
/// which takes minutes at 1,000.
enum RulesBench {
    static func chainCSV(_ n: Int) -> String {
        var rows = ["survey,,,,", ",type,name,label,calculation", ",integer,start,Start,"]
        for i in 1...n { rows.append(",calculate,c\(i),,${\(i == n ? "start" : "c\(i + 1)")} + 1") }
        return rows.joined(separator: "\n")
    }

    static func run(sizes: [Int], passes: Bool) throws {
        let clock = FormBench.clock
        print("reverse chain of calculations (\(ProcessInfo.processInfo.processorCount) cores):")
        for n in sizes {
            let read = XLSForm.read(try XLSFormSheets.csv(chainCSV(n)))
            guard let form = read.form else { print("  \(n): the form does not read: \(read.errors.prefix(2))"); continue }
            let q = Questionnaire(form: form)
            let record = Record(["start": .integer(1)])
            var result = Record()
            let add = seconds { result = q.completed(record, clock: clock) }
            precondition(result["c1"] == .string(String(n + 1)), "the chain must settle")
            var changed = result
            changed["start"] = .integer(2)
            var hidden: [String: PropertyValue] = [:]
            let edit = seconds { result = q.settled(changed, before: result, hidden: &hidden, clock: clock) }
            precondition(result["c1"] == .string(String(n + 2)), "the change must reach the end of the chain")
            var line = String(format: "  %5d calculations  graph: add %@, edit %@", n, format(add), format(edit))
            if passes {
                var old = Record()
                let byPasses = seconds { old = q.settledByPasses(record, hidden: &hidden, clock: clock) }
                precondition(old["c1"] == .string(String(n + 1)), "the passes must settle too")
                line += String(format: "   passes (before): settle %@", format(byPasses))
            }
            print(line)
        }
    }
}
