import Foundation
import XCTest

/// The target boundary keeps `Program` and its background workers out of the UI core; the
/// core could still reach the store or a queue through `SurveyModel` and Foundation, which it
/// imports. This test holds the rest of the line: no source file of `Sources/SurveyUI` names
/// the document store, the session memory's file access, a file manager, a thread or a
/// background queue. (`DispatchQueue.concurrentPerform` in `SearchIndex` is allowed: it
/// computes in parallel and returns, like a loop.)
final class PureCoreTests: XCTestCase {
    func testTheUICoreTouchesNoFileAndStartsNoThread() throws {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../Sources/SurveyUI").standardizedFileURL
        let files = (FileManager.default.enumerator(atPath: folder.path)?.allObjects as? [String] ?? []).filter { $0.hasSuffix(".swift") }
        XCTAssertGreaterThan(files.count, 30)
        let forbidden = ["DocumentStore", "DocumentJournal", "FileManager", "FileHandle", "SessionMemory(",
                         "SessionMemory.update", "Thread", "DispatchQueue(", "DispatchQueue.global", "DispatchGroup",
                         ".async", "fopen(", "contentsOfFile", "write(to", "Data(contentsOf"]
        var found: [String] = []
        for file in files {
            let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
            for (n, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                let code = line.components(separatedBy: "//").first ?? ""
                for word in forbidden where code.contains(word) { found.append("\(file):\(n + 1): \(word)") }
            }
        }
        XCTAssertEqual(found, [], "the UI core is pure; file and thread work belongs in SurveyRuntime")
    }
}

/// Each feature's state is written only by its own methods: every stored property of the
/// sub-state types has a private setter (the compiler then refuses a write from any other
/// file), so the rules of each (one popover at a time, a new document resets the form, the
/// undo stacks move together) are stated once, beside the state. `DocumentSession.document`
/// is the one exception, written through `AppState.document`, which keeps the list in step.
final class StateOwnershipTests: XCTestCase {
    func testEverySubStateIsWrittenOnlyByItsOwnMethods() throws {
        let core = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../Sources/SurveyUI").standardizedFileURL
        let owners = ["Features/Form/FormState.swift": "FormState",
                      "Features/Documents/DocumentSession.swift": "DocumentSession",
                      "Features/Documents/DocumentManagerState.swift": "DocumentManagerState",
                      "Features/List/SurveyListState.swift": "SurveyListState",
                      "State/FeatureStates.swift": "ScreenState, PopoverState"]
        // A stored property: `var name: Type` or `var name = value`, not a computed one.
        let stored = try NSRegularExpression(pattern: #"^    (public |public internal\(set\) |internal |private\(set\) |public private\(set\) )?var \w+(: [^{]+)?( = [^{]+)?$"#)
        var writable: [String] = []
        var checked = 0
        for (file, type) in owners.sorted(by: { $0.key < $1.key }) {
            let text = try String(contentsOf: core.appendingPathComponent(file), encoding: .utf8)
            for (n, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                let line = String(line)
                guard stored.firstMatch(in: line, range: NSRange(line.startIndex..., in: line)) != nil else { continue }
                checked += 1
                if line.contains("private(set)") || line.contains("private var") { continue }
                if file.hasSuffix("DocumentSession.swift"), line.contains("var document:") { continue }
                writable.append("\(type) \(file):\(n + 1): \(line.trimmingCharacters(in: .whitespaces))")
            }
        }
        XCTAssertGreaterThan(checked, 30, "the stored properties were found")
        XCTAssertEqual(writable, [], "a sub-state's fields change through its own methods")
    }
}
