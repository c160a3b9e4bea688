import Foundation
import SurveyValues
import SurveyForms
import SurveyStorage
#if canImport(Glibc)
import Glibc
#endif

/// `survey-bench --save-only 100000,1000000`: a whole-document save (atomic, fsync), in
/// process, timed (median of three) with the memory it adds at its peak: VmHWM is reset to
/// the current resident size (`/proc/self/clear_refs`) just before each save, and what it
/// reaches during the save, less the resident size before, is the save's own peak.
enum SaveBench {
    static func run(counts: [Int], in folder: URL) throws {
        let store = DocumentStore(folder: folder)
        for count in counts {
            var document = generatedDocument(records: count)
            document.assignMissingInstanceIDs()
            let name = "Save \(count)"
            var times: [Double] = []
            var added: [Double] = []
            for _ in 0..<3 {
                resetHighWater()
                let before = residentMegabytes()
                times.append(try seconds { try store.save(document, as: name) })
                added.append(LoadBenchmark.highWaterMegabytes() - before)
            }
            let size = (try? FileManager.default.attributesOfItem(atPath: store.url(for: name).path)[.size] as? Int) ?? 0
            print(String(format: "save at %d records (file %.1f MB): median %@ (runs %@), peak added %.1f MB (runs %@), resident before %.1f MB",
                         count, Double(size) / 1e6, format(times.sorted()[1]), times.map(format).joined(separator: ", "),
                         added.sorted()[1], added.map { String(format: "%.1f", $0) }.joined(separator: ", "),
                         residentMegabytes()))
        }
    }

    /// Makes VmHWM the current resident size (Linux 4.0 and later).
    static func resetHighWater() {
        let fd = Glibc.open("/proc/self/clear_refs", O_WRONLY)
        guard fd >= 0 else { return }
        _ = "5".withCString { Glibc.write(fd, $0, 1) }
        Glibc.close(fd)
    }

    static func residentMegabytes() -> Double {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
              let kilobytes = Double(line.split(separator: " ", omittingEmptySubsequences: true)[1]) else { return -1 }
        return kilobytes / 1024
    }
}
