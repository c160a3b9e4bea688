import Foundation
import SurveyValues
import SurveyForms
import SurveyStorage
import SurveyRuntime
import SurveyUI
#if canImport(Glibc)
import Glibc
#endif

/// `make bench`: the costs a user feels, measured on generated data and printed as numbers.
/// Nothing here asserts a time; the numbers go in closing notes and DECISIONS.md.

func seconds(_ body: () throws -> Void) rethrows -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    try body()
    return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
}

/// Median of `runs` timings of `body`, in seconds.
func median(runs: Int, _ body: () throws -> Void) rethrows -> Double {
    var times: [Double] = []
    for _ in 0..<runs { times.append(try seconds(body)) }
    return times.sorted()[times.count / 2]
}

func peakRSSMegabytes() -> Double {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    return Double(usage.ru_maxrss) / 1024   // kilobytes on Linux
}

func generatedDocument(records count: Int) -> SurveyDocument {
    let firsts = ["José", "美咲", "Zoë", "Ana", "Omar", "Doris", "John", "Grace"]
    let lasts = ["Núñez", "山田", "O'Brien", "Lima", "Haddad", "Jones", "Smith", "Hopper"]
    return SurveyDocument(records: (0..<count).map { i in
        var values: [String: PropertyValue] = [
            "firstName": .string(firsts[i % firsts.count]),
            "lastName": .string("\(lasts[i % lasts.count]) \(i)"),
            "address": .string("\(i) Calle Mayor, Madrid 🏙️"),
            "phone": .string("+34 600 \(100_000 + i)"),
        ]
        if i % 7 != 0 { values["age"] = .integer(i % 100) }
        if i % 10 == 0 { values["notes"] = .string("kept by other tools") }
        return Record(values)
    })
}

func format(_ s: Double) -> String {
    s >= 1 ? String(format: "%.2f s", s) : s >= 1e-3 ? String(format: "%.2f ms", s * 1e3) : String(format: "%.1f µs", s * 1e6)
}

// Arguments: --quick (small sizes only, for `make test`), --rules-only 300,1000 (a reverse chain
// of calculations settled by the dependency graph and, unless --no-passes, by the old passes),
// --sync-only 10000,100000 (issue 19's apply, outgoing and USB merge), --roster-only (a 500-question form with two repeats of 20 instances: one edit settled),
// --load-sizes 10000,100000 (the load
// table's sizes), --form-only (the 500-question form's figures alone), --commit-only 10000,100000
// (the main thread's share of a commit and an Add, in process), --keys-only 1000 (list ↓ and form →, update and frame apart), --save-only 100000 (a whole
// save's time and peak memory, in process), --write-form PATH (write
// that form in pyxform's CSV layout and stop), --load-child WAY PATH (internal: one load in a
// fresh process).
let arguments = CommandLine.arguments
if arguments.count == 4, arguments[1] == "--load-child" {
    LoadBenchmark.runChild(path: arguments[3], way: arguments[2])
}
if arguments.count == 5, arguments[1] == "--team-child" {
    TeamBench.runChild(folder: arguments[2], target: arguments[3], device: arguments[4])
}
if arguments.count == 3, arguments[1] == "--write-form" {
    try FormBench.formCSV().write(toFile: arguments[2], atomically: true, encoding: .utf8)
    exit(0)
}
let quick = arguments.contains("--quick")
if let at = arguments.firstIndex(of: "--commit-only") {
    let counts = arguments.indices.contains(at + 1) ? arguments[at + 1].split(separator: ",").compactMap { Int($0) } : [100_000]
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("survey-bench-commit-\(getpid())")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    try benchmarkCommit(store: DocumentStore(folder: folder), counts: counts)
    exit(0)
}
// --filter-only 10000,1000000: `/` search alone, per character median and p99 (FilterBench.swift).
if let at = arguments.firstIndex(of: "--filter-only") {
    let counts = arguments.indices.contains(at + 1) ? arguments[at + 1].split(separator: ",").compactMap { Int($0) } : [100_000]
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("survey-bench-filter-\(getpid())")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    try benchmarkFilter(store: DocumentStore(folder: folder), counts: counts)
    print(String(format: "peak resident memory: %.1f MB", peakRSSMegabytes()))
    exit(0)
}
// --keys-only 1000,100000: list ↓ and form → in process, update and frame apart (KeysBench.swift).
if let at = arguments.firstIndex(of: "--keys-only") {
    let counts = arguments.indices.contains(at + 1) ? arguments[at + 1].split(separator: ",").compactMap { Int($0) } : [1_000]
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("survey-bench-keys-\(getpid())")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    try KeysBench.run(counts: counts, in: folder)
    exit(0)
}
if let at = arguments.firstIndex(of: "--save-only") {
    let counts = arguments.indices.contains(at + 1) ? arguments[at + 1].split(separator: ",").compactMap { Int($0) } : [100_000]
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("survey-bench-save-\(getpid())")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    try SaveBench.run(counts: counts, in: folder)
    exit(0)
}
if let at = arguments.firstIndex(of: "--rules-only") {
    let sizes = arguments.indices.contains(at + 1) ? arguments[at + 1].split(separator: ",").compactMap { Int($0) } : [300, 1_000]
    try RulesBench.run(sizes: sizes, passes: !arguments.contains("--no-passes"))
    exit(0)
}
if let at = arguments.firstIndex(of: "--sync-only") {
    let counts = arguments.indices.contains(at + 1) ? arguments[at + 1].split(separator: ",").compactMap { Int($0) } : [10_000, 100_000]
    try SyncBench.run(counts: counts)
    exit(0)
}
// --postgres-only 1000,100000: push and pull through a throwaway PostgreSQL (PostgresBench.swift).
if let at = arguments.firstIndex(of: "--postgres-only") {
    let sizes = arguments.indices.contains(at + 1) ? arguments[at + 1].split(separator: ",").compactMap { Int($0) } : [100_000]
    try PostgresBench.run(sizes: sizes)
    exit(0)
}
// --team-only 10000,100000: survey sync end to end, push, pull and no-op syncs (TeamBench.swift).
if let at = arguments.firstIndex(of: "--team-only") {
    let sizes = arguments.indices.contains(at + 1) ? arguments[at + 1].split(separator: ",").compactMap { Int($0) } : [100_000]
    try TeamBench.run(sizes: sizes)
    exit(0)
}
if arguments.contains("--roster-only") {
    try RosterBench.run()
    try RosterKeysBench.run()
    exit(0)
}
if arguments.contains("--form-only") {
    try FormBench.run(quick: quick)
    exit(0)
}
let loadSizes = arguments.firstIndex(of: "--load-sizes").flatMap { arguments.indices.contains($0 + 1) ? arguments[$0 + 1] : nil }
    .map { $0.split(separator: ",").compactMap { Int($0) } } ?? (quick ? [1_000] : [10_000, 100_000, 1_000_000])
/// The document the frame, key and commit figures use.
let bigCount = quick ? 1_000 : 10_000

let folder = FileManager.default.temporaryDirectory.appendingPathComponent("survey-bench-\(getpid())")
try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(at: folder) }
let store = DocumentStore(folder: folder)

print("survey benchmarks (\(ProcessInfo.processInfo.processorCount) cores)")
for count in quick ? [100, 1_000] : [100, 1_000, 10_000] {
    let doc = generatedDocument(records: count)
    let name = "Bench \(count)"
    let save = try median(runs: 5) { try store.save(doc, as: name) }
    let size = (try? FileManager.default.attributesOfItem(atPath: store.url(for: name).path)[.size] as? Int) ?? 0
    let load = median(runs: 5) { _ = store.load(name) }
    print(String(format: "%6d records  file %7.1f KB   save (atomic, fsync) %@   load %@",
                 count, Double(size) / 1024, format(save), format(load)))
}

let big = "Bench \(bigCount)"
for size in [Size(width: 80, height: 24), Size(width: 120, height: 40), Size(width: 200, height: 60)] {
    var program = Program(store: store, documentName: big, size: size)
    let frame = median(runs: 50) { _ = program.screen }
    let down = median(runs: 200) {
        program.handle(.key(.down))
        _ = program.screen
    }
    print("\(size) with \(bigCount) records: render a frame \(format(frame)), ↓ in the list + frame \(format(down))")
}

var program = Program(store: store, documentName: big, size: Size(width: 120, height: 40))
program.handle(.key(.enter))
program.handle(.key(.enter))
let keystroke = median(runs: 200) {
    program.handle(.key(.character("x")))
    _ = program.screen
}
program.handle(.key(.escape))
program.handle(.key(.enter))
var flip = false
let commit = median(runs: 5) {
    flip.toggle()
    program.handle(.key(flip ? .character("y") : .backspace))
    program.handle(.key(.tab))       // commit: saves all the records
    program.handle(.key(.backTab))   // back to editing the first field
}
precondition(program.state.status?.kind != .error, "the commits must succeed: \(program.state.status?.text ?? "")")
let bigDoc = generatedDocument(records: bigCount)
let encode = try median(runs: 3) { _ = try bigDoc.propertyListData() }
print("encoding \(bigCount) records as XML (no disk): \(format(encode))")
print("typing a character + frame: \(format(keystroke)); committing a field of a \(bigCount)-record document (save included): \(format(commit))")
for i in 1...4 { try store.save(bigDoc, as: "Big \(i)") }
var manager = Program(store: store, documentName: big, size: Size(width: 120, height: 40))
let open = seconds { manager.handle(.key(.function(3))) }
let tick = median(runs: 20) { manager.send(.system(.refreshTick)) }
print("documents list over \(manager.state.documents.count) documents (5 of \(bigCount) records): open \(format(open)), idle refresh \(format(tick))")
try benchmarkFilter(store: store, counts: quick ? [1_000] : [10_000, 100_000])
benchmarkUndoMerge(counts: quick ? [1_000] : [10_000, 100_000])
print(String(format: "peak resident memory: %.1f MB", peakRSSMegabytes()))

// A 1 MB value (a pasted or imported text in a name and the address): a frame and each key
// should cost what is visible, not the length of the value.
let longText: String = {
    let piece = "Calle Mayor 1, Madrid 🏙️ José Núñez "
    return String(repeating: piece, count: (quick ? 20_000 : 1_000_000) / piece.utf8.count + 1)
}()
try store.save(SurveyDocument(records: [
    Record(["firstName": .string("Ana"), "lastName": .string(longText), "address": .string(longText),
            "phone": .string("555-1234")]),
    Record(["firstName": .string("John"), "lastName": .string("Smith")]),
]), as: "Long value")
var long = Program(store: store, documentName: "Long value", size: Size(width: 80, height: 24))
/// Median cost of one key plus the frame drawn after it.
@MainActor func perKey(_ keys: [Key], runs: Int = 21) -> Double {
    median(runs: runs) {
        for key in keys { long.handle(.key(key)) }
        _ = long.screen
    } / Double(keys.count)
}
let longFrame = median(runs: 21) { _ = long.screen }
long.handle(.key(.enter))                       // list → form
let browse = perKey([.down, .up])               // highlight moves over the long fields
long.handle(.key(.down))
long.handle(.key(.down))                        // Address
long.handle(.key(.enter))                       // editing, caret at the end
let typeAtEnd = perKey([.character("x"), .backspace])
let caretMoves = perKey([.left, .right])
let homeEnd = perKey([.home, .end])
long.handle(.key(.home))
let typeAtStart = perKey([.character("x"), .backspace])
precondition(long.state.editing?.input.characters.count == longText.count, "the edits must cancel out")
long.handle(.key(.escape))
print("\(quick ? "20 KB" : "1 MB") value (\(longText.utf8.count) bytes, \(longText.count) characters) at 80x24, per key + frame:")
print("  frame \(format(longFrame)); browsing ↓↑ \(format(browse)); typing at the end \(format(typeAtEnd)), at the start \(format(typeAtStart)); ← → \(format(caretMoves)); Home End \(format(homeEnd))")

try FormBench.run(quick: quick)
print("")
try RosterBench.run()
try RosterKeysBench.run()

print("")
try LoadBenchmark.printTable(sizes: loadSizes, dataFolder: URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent(".build/bench-data"))

// A team's PostgreSQL: not in --quick (make test), which must not need a server.
if !quick { try PostgresBench.run(sizes: [100_000]) }
if !quick { try TeamBench.run(sizes: loadSizes.filter { $0 <= 100_000 } + (loadSizes.contains(1_000_000) ? [1_000_000] : [])) }
