import Foundation
import SurveyValues
import SurveyForms
import SurveyStorage

/// Issue 19's model half: what applying a pull costs before any database is involved.
/// For N surveys with a base each: N incoming versions applied when nothing changed here
/// (fast-forward), when every survey was edited here in another answer (a three-way merge
/// each), and the outgoing list after it; then a USB merge of two folders of N surveys,
/// written (document, ledger). `--sync-only 10000,100000`.
enum SyncBench {
    static func run(counts: [Int]) throws {
        print("sync (model half, \(ProcessInfo.processInfo.processorCount) cores):")
        for count in counts {
            let document = generatedDocument(records: count)
            var records = Array(document.records)
            for i in records.indices { records[i][Record.instanceIDKey] = .string("uuid:\(i)") }
            var ledger = SyncLedger()
            for record in records {
                ledger.bases[record.instanceID!] = SyncLedger.Version(answers: record.answers, revision: SyncRevision(1))
            }
            let incoming = records.map { record -> IncomingVersion in
                var answers = record.answers
                answers["phone"] = .string("changed there")
                return IncomingVersion(id: record.instanceID!, answers: answers, revision: SyncRevision(2))
            }
            let date = Date()
            let unchanged = SyncState(records: records, ledger: ledger)
            let fastForward = seconds { _ = SyncPlan.apply(incoming, to: unchanged, at: date) }
            var edited = unchanged
            for i in edited.records.indices { edited.records[i]["address"] = .string("changed here") }
            var merged = edited
            let merge = seconds { merged = SyncPlan.apply(incoming, to: edited, at: date).state }
            var out: [OutgoingChange] = []
            let outgoing = seconds { out = SyncPlan.outgoing(from: merged, device: "bench") }
            print("  \(count) surveys: apply, unchanged here \(format(fastForward)); apply, each merged \(format(merge)); "
                + "outgoing (\(out.count)) \(format(outgoing))")

            let root = FileManager.default.temporaryDirectory.appendingPathComponent("survey-bench-sync-\(getpid())")
            defer { try? FileManager.default.removeItem(at: root) }
            let (a, b) = (root.appendingPathComponent("a"), root.appendingPathComponent("b"))
            for folder in [a, b] { try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true) }
            let storeA = DocumentStore(folder: a), storeB = DocumentStore(folder: b)
            try storeA.save(SurveyDocument(records: records), as: "Field")
            try storeB.save(SurveyDocument(records: incoming.map { version in
                var record = Record(version.answers)
                record[Record.instanceIDKey] = .string(version.id)
                return record
            }), as: "Field")
            let usb = seconds { _ = try? storeA.mergeOtherCopies([storeB.url(for: "Field")], into: "Field", write: true, at: Date()) }
            let again = seconds { _ = try? storeA.mergeOtherCopies([storeB.url(for: "Field")], into: "Field", write: true, at: Date()) }
            let readLedger = seconds { _ = try? storeA.syncLedger(for: "Field") }
            let snapshot = seconds { _ = try? storeA.syncSnapshot(of: "Field") }
            print("  \(count) surveys: read the ledger \(format(readLedger)), the whole sync state \(format(snapshot))")
            let ledgerSize = (try? FileManager.default.attributesOfItem(atPath: storeA.syncURL(for: "Field").path)[.size] as? Int) ?? 0
            print("  \(count) surveys: survey merge, no common base \(format(usb)) (ledger \(ledgerSize / 1024) KB); "
                + "the same again \(format(again))")
        }
    }
}
