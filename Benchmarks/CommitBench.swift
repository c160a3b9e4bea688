import Foundation
import SurveyValues
import SurveyForms
import SurveyStorage
import SurveyRuntime
import SurveyUI

/// Committing a field and adding a survey, in process: the main thread's share of the
/// "commit, durable" figure (journal append and sync included, the background rewrite of the
/// `.plist` not), per key, with the frame drawn after it.
func benchmarkCommit(store: DocumentStore, counts: [Int], commits: Int = 15) throws {
    for count in counts {
        for sorted in [false, true] { try benchmarkCommit(store: store, count: count, sorted: sorted, commits: commits) }
    }
}

/// `sorted`: the list ordered by name (s), so each change also moves a row.
func benchmarkCommit(store: DocumentStore, count: Int, sorted: Bool, commits: Int) throws {
    do {
        let name = "Commit \(count)\(sorted ? " sorted" : "")"
        var document = generatedDocument(records: count)
        document.assignMissingInstanceIDs()
        try store.save(document, as: name)
        // As the app runs: every commit through the journal, whatever the size.
        var program = Program(store: store, documentName: name, size: Size(width: 120, height: 40), journalThreshold: 0)
        /// The main thread's time for `action` and the frame after it.
        func timed(_ action: Action) -> Double { seconds { program.send(action); _ = program.screen } }
        let sortTime = sorted ? timed(.list(.cycleSortKey)) : 0
        program.handle(.key(.enter))            // list → form, on the first survey
        var edits: [Double] = []
        for i in 0..<commits {
            program.handle(.key(.enter))        // edit First name
            program.handle(.key(i % 2 == 0 ? .character("x") : .backspace))
            edits.append(timed(.form(.commitField)))
            program.handle(.key(.escape))
            usleep(150_000)                     // let the background rewrite run, as a typist would
        }
        var adds: [Double] = []
        for i in 0..<commits {
            program.send(.records(.newRecord))            // editing First name of an empty New form
            for c in "Ana\(i)" { program.send(.text(.insert(c))) }
            for _ in 0..<5 { program.send(.form(.commitAndAdvance)) }   // heads-down to [ Add ]
            adds.append(timed(.form(.activate)))
            usleep(150_000)
        }
        var deletes: [Double] = []
        for _ in 0..<5 {
            program.send(.app(.showList))
            program.send(.list(.toFirst))              // near the start: everything after it moves
            program.send(.list(.move(1)))
            program.send(.records(.requestRecordDelete))
            deletes.append(timed(.records(.confirmQuestion)))
            usleep(150_000)
        }
        var undos: [Double] = []
        for _ in 0..<3 {
            undos.append(timed(.records(.undo)))
            usleep(150_000)
        }
        precondition(program.state.status?.text.hasPrefix("Undid") == true, "the undo must land: \(program.state.status?.text ?? "")")
        precondition(program.state.status?.kind != .error, "the commits must succeed: \(program.state.status?.text ?? "")")
        precondition(program.state.recordCount == count + commits - deletes.count + undos.count, "every Add and delete must land")
        precondition(!sorted || program.state.list.order != ListOrder(), "the list must be sorted")
        edits.sort(); adds.sort(); deletes.sort()
        print(String(format: "commit at %d records%@ (main thread, journal synced, frame drawn): field median %@ (max %@), Add median %@ (max %@), delete median %@, undo of a delete median %@%@",
                     count, sorted ? ", sorted by name" : "", format(edits[edits.count / 2]), format(edits.last!), format(adds[adds.count / 2]), format(adds.last!), format(deletes[deletes.count / 2]), format(undos.sorted()[undos.count / 2]), sorted ? "; sorting it (s) took " + format(sortTime) : ""))
        program.terminate()
    }
}
