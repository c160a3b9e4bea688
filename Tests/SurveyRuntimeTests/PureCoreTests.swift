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
