import Foundation
import SurveyValues
import SurveyForms
import SurveyStorage
import SurveyRuntime
import SurveyUI

/// The keys a user spends most of their time on, in process at 120x40 with the split layout:
/// ↓ in the list and → on the form (the next survey), each timed as its update and its frame
/// apart (the frame drawn into the grid of the one before, as the terminal does). What the
/// side-by-side's "list ↓" and "form →" figures hold beyond the pseudo-terminal's own cost.
enum KeysBench {
    static func run(counts: [Int], in folder: URL) throws {
        let store = DocumentStore(folder: folder)
        for count in counts {
            let name = "Keys \(count)"
            try store.save(generatedDocument(records: count), as: name)
            var program = Program(store: store, documentName: name, size: Size(width: 120, height: 40))
            program.finishBackgroundWork()
            var grid = CellGrid(size: Size(width: 120, height: 40))
            program.render(into: &grid)
            func timed(_ key: Key, runs: Int) -> (update: Double, frame: Double) {
                var updates: [Double] = [], frames: [Double] = []
                for _ in 0..<runs {
                    updates.append(seconds { program.handle(.key(key)) })
                    frames.append(seconds { program.render(into: &grid) })
                }
                return (updates.sorted()[runs / 2], frames.sorted()[runs / 2])
            }
            let down = timed(.down, runs: 300)
            program.handle(.key(.enter))              // list → form
            program.render(into: &grid)
            let right = timed(.right, runs: 300)
            print("keys at \(count) records, 120x40, median: list ↓ update \(format(down.update)) + frame \(format(down.frame)); "
                  + "form → update \(format(right.update)) + frame \(format(right.frame))")
            program.terminate()
        }
    }
}
