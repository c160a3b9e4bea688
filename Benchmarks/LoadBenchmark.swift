import Foundation
import SurveyValues
import SurveyForms
import SurveyStorage
#if canImport(Glibc)
import Glibc
#endif

/// Loading whole documents of 10,000 to 1,000,000 records, the old way (Foundation's
/// `PropertyListSerialization`) and the new one (`PropertyListScanner`, through
/// `DocumentStore.load`, exactly as the app opens a document), each in a fresh child process
/// so its peak memory is its own. Documents come from `gen_survey_data.py` (plistlib, fixed
/// seed) and are kept in `.build/bench-data` between runs.
enum LoadBenchmark {
    struct Outcome {
        var seconds: Double
        var peakMegabytes: Double
        var baselineMegabytes: Double
        var records: Int
    }

    /// In the child: load `path` one way, print "seconds peakMB baselineMB records".
    static func runChild(path: String, way: String) -> Never {
        let baseline = highWaterMegabytes()
        let url = URL(fileURLWithPath: path)
        var count = -1
        let time = seconds {
            if way == "stream" || way == "ids" {
                // As the app opens a document: its first screen, the rest in the background,
                // ids derived; or the whole file then its ids, as before streaming.
                let store = DocumentStore(folder: url.deletingLastPathComponent())
                let name = url.deletingPathExtension().lastPathComponent
                if way == "ids" {
                    guard case .success(var document) = store.load(name) else { return }
                    document.identifyRecordsFoundWithoutIDs()
                    count = document.records.count
                    return
                }
                switch store.openStreaming(name, from: 0, firstRecords: 1_000) {
                case .whole(let loaded):
                    count = (try? loaded.get().records.count) ?? -1
                case .streaming(let first, let rest):
                    var records = first.records
                    rest.begin()
                    rest.waitUntilDone()
                    let part = rest.take()
                    records.append(contentsOf: part.records)
                    count = part.end == .complete ? records.count : -1
                }
            } else if way == "old" {
                guard let data = try? Data(contentsOf: url),
                      let document = try? SurveyDocument(foundationPropertyListData: data) else { return }
                count = document.records.count
            } else {
                let store = DocumentStore(folder: url.deletingLastPathComponent())
                guard case .success(let document) = store.load(url.deletingPathExtension().lastPathComponent) else { return }
                count = document.records.count
            }
        }
        print(time, highWaterMegabytes(), baseline, count)
        exit(count >= 0 ? 0 : 1)
    }

    /// VmHWM, the process's peak resident memory. Not `getrusage`: its `ru_maxrss` keeps the
    /// parent's peak across fork and exec.
    static func highWaterMegabytes() -> Double {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
              let kilobytes = Double(line.split(separator: " ")[1]) else { return -1 }
        return kilobytes / 1024
    }

    /// A generated document of `count` records (made once, then reused).
    static func document(records count: Int, in folder: URL) throws -> URL {
        let url = folder.appendingPathComponent("records-\(count).plist")
        if FileManager.default.fileExists(atPath: url.path) { return url }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("gen_survey_data.py")
        let partial = url.appendingPathExtension("partial")
        try run(["python3", script.path, "\(count)", "plist", partial.path])
        try FileManager.default.moveItem(at: partial, to: url)
        return url
    }

    static func measure(_ url: URL, way: String) throws -> Outcome {
        let me = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().path
        let output = try run([me, "--load-child", way, url.path])
        let fields = output.split(separator: " ").compactMap { Double($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
        guard fields.count == 4 else { throw BenchError("unexpected child output: \(output)") }
        return Outcome(seconds: fields[0], peakMegabytes: fields[1], baselineMegabytes: fields[2], records: Int(fields[3]))
    }

    static func printTable(sizes: [Int], dataFolder: URL) throws {
        print("Loading a whole document (fresh process each; peak = peak resident memory of that process)")
        print("   records      file   old: Foundation       new: scanner          speed-up  memory")
        for count in sizes {
            let url = try document(records: count, in: dataFolder)
            let size = (try FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int) ?? 0
            // Median of three runs up to 100,000 records (the machine is shared); one above.
            let runs = count <= 100_000 ? 3 : 1
            let old = try median(of: runs) { try measure(url, way: "old") }
            let new = try median(of: runs) { try measure(url, way: "new") }
            guard old.records == count, new.records == count else {
                throw BenchError("records-\(count): old read \(old.records), new read \(new.records)")
            }
            print(String(format: "%10d  %6.1f MB  %8.0f ms %6.0f MB  %8.0f ms %6.0f MB  %7.1fx  %5.1fx",
                         count, Double(size) / 1_048_576, old.seconds * 1e3, old.peakMegabytes,
                         new.seconds * 1e3, new.peakMegabytes, old.seconds / new.seconds,
                         old.peakMegabytes / new.peakMegabytes))
        }
        if let first = sizes.first, let url = try? document(records: first, in: dataFolder),
           let idle = try? measure(url, way: "new") {
            print(String(format: "  (a child's memory before loading anything: %.0f MB)", idle.baselineMegabytes))
        }
    }

    static func median(of runs: Int, _ body: () throws -> Outcome) rethrows -> Outcome {
        var outcomes: [Outcome] = []
        for _ in 0..<runs { outcomes.append(try body()) }
        return outcomes.sorted { $0.seconds < $1.seconds }[runs / 2]
    }

    @discardableResult
    static func run(_ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw BenchError("\(arguments.joined(separator: " ")) exited with \(process.terminationStatus)")
        }
        return String(decoding: output, as: UTF8.self)
    }
}

struct BenchError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
