import Foundation
import SurveyModel
import SurveyRuntime
import SurveyUI

/// `/` search at 10,000 and 100,000 records (1,000 with --quick): the time from a typed character to the
/// narrowed list drawn (the browsing issue's figure), then clearing it.
func benchmarkFilter(store: DocumentStore, counts: [Int]) throws {
    for count in counts {
        let name = "Filter \(count)"
        try store.save(generatedDocument(records: count), as: name)
        var program = Program(store: store, documentName: name, size: Size(width: 120, height: 40))
        // A large list's index is built in the background once "/" is pressed: waited for
        // here, so the characters below time the search itself.
        let indexing = seconds {
            program.handle(.key(.character("/")))
            program.finishBackgroundWork()
        }
        var times: [Double] = []
        for c in "madrid 12" {
            times.append(seconds {
                program.handle(.key(.character(c)))
                _ = program.screen
            })
        }
        let shown = program.state.list.projection.count
        let clear = seconds {
            program.handle(.key(.escape))
            _ = program.screen
        }
        times.sort()
        print(String(format: "filter at %d records: / and its index %@; per typed character median %@, worst %@ (%d shown); Esc %@",
                     count, format(indexing), format(times[times.count / 2]), format(times.last!), shown, format(clear)))
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
