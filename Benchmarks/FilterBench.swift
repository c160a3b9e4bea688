import Foundation
import SurveyValues
import SurveyForms
import SurveyStorage
import SurveyRuntime
import SurveyUI

/// `/` search at 10,000 and 100,000 records (1,000 with --quick; any sizes with
/// --filter-only): the time from a typed character to the list drawn, then clearing it.
/// Three kinds of key, since the slowest decides the p99: characters typed at once after `/`
/// while a large list's index is built, the index's arrival (which searches every survey for
/// what was typed), then characters that narrow and Backspaces that widen the match set
/// (each widening searches every survey again), and the rest of a search a key left to the
/// background arriving.
func benchmarkFilter(store: DocumentStore, counts: [Int]) throws {
    for count in counts {
        let name = "Filter \(count)"
        try store.save(generatedDocument(records: count), as: name)
        var program = Program(store: store, documentName: name, size: Size(width: 120, height: 40))
        func key(_ k: Key) -> Double {
            seconds {
                program.handle(.key(k))
                _ = program.screen
            }
        }
        // Typed before the index comes (the list waits for it, showing every survey).
        var early: [Double] = [key(.character("/"))]
        for c in "ma" { early.append(key(.character(c))) }
        // The index arriving: taken in by the loop like any background result.
        let started = DispatchTime.now().uptimeNanoseconds
        var arrival = 0.0
        // Lists from 20,000 surveys have their index built in the background; smaller ones at `/`.
        while count >= 20_000 {
            var took = false
            arrival = seconds {
                took = program.collectBackgroundWork()
                _ = program.screen
            }
            if took { break }
            usleep(500)
        }
        let indexing = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
        var times: [Double] = []
        for c in "drid 12" { times.append(key(.character(c))) }
        // Widening: each Backspace searches every survey again, then narrowing once more.
        for _ in 0..<4 { times.append(key(.backspace)) }
        for c in "d 12" { times.append(key(.character(c))) }
        // A search a key left unfinished (`SearchJob`) arrives in the background, with the count.
        let finishing = DispatchTime.now().uptimeNanoseconds
        var rest = 0.0
        while program.state.list.isMatching {
            var took = false
            rest = seconds {
                took = program.collectBackgroundWork()
                _ = program.screen
            }
            if took { continue }
            usleep(500)
        }
        let finished = Double(DispatchTime.now().uptimeNanoseconds - finishing) / 1e9
        let shown = program.state.list.projection.count
        let clear = key(.escape)
        let all = (early + [arrival, rest] + times).sorted()
        times.sort()
        let p99 = all[min(all.count - 1, Int(Double(all.count) * 0.99))]
        print(String(format: "filter at %d records: per character median %@, p99 %@ (%d keys: typed while indexing %@, the index arriving %@ after waiting %@, widening by Backspace worst %@; the last search's rest arriving %@ after waiting %@; %d shown); Esc %@",
                     count, format(times[times.count / 2]), format(p99), all.count, format(early.max()!), format(arrival),
                     format(indexing), format(times.last!), format(rest), format(finished), shown, format(clear)))
        // The same keys in a list sorted by last name (`s`: every survey's sort key is made,
        // and their order).
        let peakBeforeSorting = peakRSSMegabytes()
        let sortKey = key(.character("s"))
        var sorted = [key(.character("/"))]
        for c in "madrid 12" { sorted.append(key(.character(c))) }
        for _ in 0..<4 { sorted.append(key(.backspace)) }
        for c in "d 12" { sorted.append(key(.character(c))) }
        program.finishBackgroundWork()
        let sortedShown = program.state.list.projection.count
        let firstSorted = sorted[1]
        sorted.sort()
        print(String(format: "  (peak memory before sorting %.1f MB) sorted by last name: s %@; then the first character %@, per character median %@, worst %@ (%d keys; %d shown)",
                     peakBeforeSorting, format(sortKey), format(firstSorted), format(sorted[sorted.count / 2]), format(sorted.last!), sorted.count, sortedShown))
        program.terminate()
    }
}

/// Replaying an undo as a merge (what Ctrl-Z does) on a large document, in memory: linear
/// since the merge finds records through an id table (it was quadratic).
func benchmarkUndoMerge(counts: [Int]) {
    for count in counts {
        var after = generatedDocument(records: count)
        after.assignMissingInstanceIDs()
        var before = after
        before.records.insert(after.records[count / 2], at: count / 2)
        before.records[count / 2].values[Record.instanceIDKey] = .string(Record.newInstanceID())
        let time = seconds { _ = SurveyDocument.merge(base: after, mine: before, theirs: after) }
        print(String(format: "undo of a delete replayed as a merge at %d records: %@", count, format(time)))
    }
}
