import Foundation
import XCTest

/// The target boundaries keep `Program`, its background jobs and the storage module out of the
/// UI core (`ModuleBoundaryTests`); the core could still reach a file or a queue through
/// Foundation, which it imports. This test holds the rest of the line: no source file of
/// `Sources/SurveyUI` names a file manager, a thread or a background queue. (The store's names
/// stay in the list, though they no longer compile there. `DispatchQueue.concurrentPerform` in
/// `SearchIndex` is allowed: it computes in parallel and returns, like a loop.)
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

/// The compiler keeps the UI core away from files and threads only while its target does
/// not depend on the modules that have them (issue 29): a `SurveyUI` file naming
/// `DocumentStore`, `DocumentJournal`, `FileSystem`, `Program` or `startThread` does not
/// compile, because `SurveyStorage` and `SurveyRuntime` are not among its dependencies. This
/// test reads the manifest so that adding one of them is a failing test, not a quiet change;
/// and it checks the model's three modules point one way (values ← forms ← storage).
final class ModuleBoundaryTests: XCTestCase {
    private func dependencies(of target: String) throws -> [String] {
        let manifest = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../Package.swift").standardizedFileURL
        let text = try String(contentsOf: manifest, encoding: .utf8)
        let pattern = try NSRegularExpression(pattern: #"\.target\(name: "\#(target)"(, dependencies: \[([^\]]*)\])?"#)
        let match = try XCTUnwrap(pattern.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)),
                                  "the target \(target) is in Package.swift")
        guard let range = Range(match.range(at: 2), in: text) else { return [] }
        return text[range].split(separator: ",").map { $0.trimmingCharacters(in: CharacterSet(charactersIn: " \"\n")) }
    }

    func testTheUICoreDependsOnValuesAndFormsOnly() throws {
        XCTAssertEqual(try dependencies(of: "SurveyUI").sorted(), ["SurveyForms", "SurveyValues"])
    }

    func testTheModelModulesPointOneWay() throws {
        XCTAssertEqual(try dependencies(of: "SurveyValues"), [], "values depend on nothing of ours")
        let forms = try dependencies(of: "SurveyForms")
        XCTAssertTrue(forms.contains("SurveyValues"))
        XCTAssertFalse(forms.contains("SurveyStorage"), "forms read no file")
        XCTAssertTrue(try dependencies(of: "SurveyStorage").contains("SurveyForms"))
    }

    /// What the boundary is for: the value and form modules call no file or thread API of
    /// their own (their one exception, the local time zone read once, is named).
    func testTheValueAndFormModulesTouchNoFile() throws {
        let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../Sources").standardizedFileURL
        let forbidden = ["FileManager", "FileHandle", "fopen(", "Data(contentsOf", "contentsOfFile", "write(to",
                         "Thread", "DispatchQueue(", "DispatchQueue.global", "pthread_create", "opendir("]
        var found: [String] = []
        for module in ["SurveyValues", "SurveyForms"] {
            let folder = sources.appendingPathComponent(module)
            let files = (FileManager.default.enumerator(atPath: folder.path)?.allObjects as? [String] ?? []).filter { $0.hasSuffix(".swift") }
            XCTAssertGreaterThan(files.count, 40, module)
            for file in files where file != "Text/TimeZoneRule+Local.swift" {
                let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
                for (n, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                    let code = line.components(separatedBy: "//").first ?? ""
                    for word in forbidden where code.contains(word) { found.append("\(module)/\(file):\(n + 1): \(word)") }
                }
            }
        }
        XCTAssertEqual(found, [], "file and thread work belongs in SurveyStorage")
    }
}
