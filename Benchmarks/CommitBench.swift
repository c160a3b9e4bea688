import Foundation
import SurveyModel
import SurveyUI

/// Committing a field and adding a survey on a large document, in process: the main thread's
/// share of the "commit, durable" figure (journal append and sync included, the background
/// rewrite of the `.plist` not), per key, with the frame drawn after it.
func benchmarkCommit(store: DocumentStore, counts: [Int], commits: Int = 15) throws {
    for count in counts {
        let name = "Commit \(count)"
        var document = generatedDocument(records: count)
        document.assignMissingInstanceIDs()
        try store.save(document, as: name)
        var program = Program(store: store, documentName: name, size: Size(width: 120, height: 40))
        program.handle(.key(.enter))            // list → form, on the first survey
        var edits: [Double] = []
        for i in 0..<commits {
            program.handle(.key(.enter))        // edit First name
            program.handle(.key(i % 2 == 0 ? .character("x") : .backspace))
            edits.append(seconds {
                program.send(.commitField)
                _ = program.screen
            })
            program.handle(.key(.escape))
            usleep(150_000)                     // let the background rewrite run, as a typist would
        }
        var adds: [Double] = []
        for i in 0..<commits {
            program.send(.newRecord)            // editing First name of an empty New form
            for c in "Ana\(i)" { program.send(.insert(c)) }
            for _ in 0..<5 { program.send(.commitAndAdvance) }   // heads-down to [ Add ]
            adds.append(seconds {
                program.send(.activate)
                _ = program.screen
            })
            usleep(150_000)
        }
        precondition(program.state.status?.kind != .error, "the commits must succeed: \(program.state.status?.text ?? "")")
        precondition(program.state.recordCount == count + commits, "every Add must land")
        edits.sort(); adds.sort()
        print(String(format: "commit at %d records (main thread, journal synced, frame drawn): field median %@ (max %@), Add median %@ (max %@)",
                     count, format(edits[edits.count / 2]), format(edits.last!), format(adds[adds.count / 2]), format(adds.last!)))
        program.terminate()
    }
}
