import Foundation
import SurveyDatabase
import SurveyValues
import SurveyForms
import SurveyStorage
import SurveyTestSupport

/// Issue 28: what a team feels, end to end. `DocumentSync.run` (what `survey sync` and F9
/// run) on a document of N five-field surveys through a throwaway PostgreSQL, each step in a
/// fresh child process so its peak memory is its own: laptop A's first sync (a push of N
/// new surveys), A's next sync (nothing to do: it must not pull its own pushes back), B's
/// first sync on an empty folder (a pull of N), B's next sync (nothing to do), and a sync
/// of 100 edits each way. Beside them, the floor: `psql \copy` of the same rows in and out.
/// Printed, never asserted. `--team-only 10000,100000`.
enum TeamBench {
    struct Step {
        var seconds: Double
        var peakMegabytes: Double
        var message: String
    }

    static func run(sizes: [Int]) throws {
        print("")
        print("Team sync end to end (\(surveyBinary.map { "survey sync, \($0)" } ?? "DocumentSync.run as survey sync runs it");"
            + " a fresh process per step; throwaway server, Unix socket, fsync off):")
        let server: ThrowawayPostgres
        do {
            server = try ThrowawayPostgres.shared()
        } catch {
            print("  skipped: \(error)")
            return
        }
        for size in sizes { try table(size: size, server: server) }
    }

    static func table(size: Int, server: ThrowawayPostgres) throws {
        let (database, role) = try PostgresBench.teamDatabase(on: server, "team")
        defer { PostgresBench.dropTeamDatabase(database, role, on: server) }
        let target = server.connectionString(database: database, user: role)

        let root = FileManager.default.temporaryDirectory.appendingPathComponent("survey-bench-team-\(getpid())")
        defer { try? FileManager.default.removeItem(at: root) }
        let (a, b) = (root.appendingPathComponent("a"), root.appendingPathComponent("b"))
        for folder in [a, b] { try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true) }
        try DocumentStore(folder: a).save(generatedDocument(records: size), as: "Field")
        try DocumentStore(folder: b).save(SurveyDocument(records: []), as: "Field")
        let fileMB = Double((try? FileManager.default.attributesOfItem(atPath: DocumentStore(folder: a).url(for: "Field").path)[.size] as? Int) ?? 0) / 1_048_576

        print(String(format: "  %d surveys (%.0f MB document):", size, fileMB))
        func show(_ label: String, _ step: Step) {
            func padded(_ text: String, _ width: Int, right: Bool = false) -> String {
                let space = String(repeating: " ", count: max(0, width - text.count))
                return right ? space + text : text + space
            }
            print("    " + padded(label, 32) + padded(format(step.seconds), 10, right: true)
                + String(format: " %6.0f MB   ", step.peakMegabytes) + step.message)
        }
        show("A first sync (push all)", try child(a, target, "A"))
        show("A next sync (nothing to do)", try child(a, target, "A"))
        show("A sync again (nothing to do)", try child(a, target, "A"))
        show("B first sync (pull all)", try child(b, target, "B"))
        show("B next sync (nothing to do)", try child(b, target, "B"))
        try edit(a, count: 100)
        show("A sync of 100 edits (out)", try child(a, target, "A"))
        try holdForProfiling(a: a, b: b, target: target)
        show("B sync of 100 edits (in)", try child(b, target, "B"))

        // The floor: the same rows through COPY into a plain table of the same columns, and out.
        let file = server.folder.appendingPathComponent("team-\(size).csv")
        defer { try? FileManager.default.removeItem(at: file) }
        try server.psql("""
            CREATE TABLE floor (instance_id text PRIMARY KEY, dataset text, answers jsonb, form_id text, form_version text, device text)
            """, database: database)
        try server.psql("\\copy (SELECT instance_id, dataset, answers, form_id, form_version, device FROM survey.surveys) TO '\(file.path)' WITH (FORMAT csv)",
                        database: database)
        let copyIn = try seconds { try server.psql("\\copy floor FROM '\(file.path)' WITH (FORMAT csv)", database: database) }
        let copyOut = try seconds { try server.psql("\\copy floor TO '\(file.path).out' WITH (FORMAT csv)", database: database) }
        try? FileManager.default.removeItem(atPath: file.path + ".out")
        // What the server must do for any push: the same rows through the trigger, the checks
        // and row-level security, as the team role. COPY cannot write a table with row-level
        // security, so into a temporary table and from there (fresh ids, rolled back).
        let script = server.folder.appendingPathComponent("team-floor.sql")
        defer { try? FileManager.default.removeItem(at: script) }
        try Data("""
            BEGIN;
            CREATE TEMP TABLE incoming (instance_id text, dataset text, answers jsonb, form_id text, form_version text, device text) ON COMMIT DROP;
            \\copy incoming FROM '\(file.path)' WITH (FORMAT csv)
            INSERT INTO survey.surveys (instance_id, dataset, answers, form_id, form_version, device)
                SELECT instance_id || ':floor', 'floor', answers, form_id, form_version, device FROM incoming;
            ROLLBACK;

            """.utf8).write(to: script)
        let throughTrigger = try seconds { try server.psql("\\i \(script.path)", database: database, user: role) }
        // What the server must do for any pull: every column a pull reads, in change order, as
        // the team role (row-level security), out of the table itself.
        let pulled = "SELECT \(SurveyServer.pulledColumns) FROM survey.surveys ORDER BY change_seq"
            .replacingOccurrences(of: "\n", with: " ")
        let copyPulled = try seconds {
            try server.psql("\\copy (\(pulled)) TO '\(file.path).pulled' WITH (FORMAT csv)", database: database, user: role)
        }
        try? FileManager.default.removeItem(atPath: file.path + ".pulled")
        print("    floor: psql \\copy in \(format(copyIn)) (\(format(throughTrigger)) through the trigger, checks and row-level security), "
            + "out \(format(copyOut)) (\(format(copyPulled)) of the columns a pull reads, as the team role)")
    }

    /// `SURVEY_BENCH_HOLD=FOLDER`: the two laptops' folders copied there and the server's
    /// address in FOLDER/target, and the bench waits (for a line on its input) with the server
    /// up, so one step can be run again and again under a profiler. Never in `make bench`.
    static func holdForProfiling(a: URL, b: URL, target: String) throws {
        guard let hold = ProcessInfo.processInfo.environment["SURVEY_BENCH_HOLD"] else { return }
        let folder = URL(fileURLWithPath: hold)
        try? FileManager.default.removeItem(at: folder)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: a, to: folder.appendingPathComponent("a"))
        try FileManager.default.copyItem(at: b, to: folder.appendingPathComponent("b"))
        try Data(target.utf8).write(to: folder.appendingPathComponent("target"))
        print("    held in \(hold) (server: \(target)); press Enter to go on")
        _ = readLine()
    }

    /// Edits `count` surveys spread over the document (one answer each).
    static func edit(_ folder: URL, count: Int) throws {
        let store = DocumentStore(folder: folder)
        var document = try store.load("Field").get()
        let step = max(document.records.count / max(count, 1), 1)
        for i in stride(from: 0, to: document.records.count, by: step).prefix(count) {
            document.records[i]["phone"] = .string("edited \(i)")
        }
        try store.save(document, as: "Field")
    }

    /// One sync in a fresh process: the `survey` binary itself when there is one (`SURVEY_BIN`,
    /// which `make bench` sets to the release build users install, else the one beside this
    /// bench), as `survey sync` runs for a user; else this bench's own child running
    /// `DocumentSync.run`. Its peak memory is the kernel's count for that process alone.
    static func child(_ folder: URL, _ target: String, _ device: String) throws -> Step {
        if let survey = surveyBinary {
            return try spawn([survey, "--dir", folder.path, "sync", "--doc", "Field", "--db", target],
                             environment: [SyncDevice.environmentKey: device])
        }
        let me = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().path
        let output = try LoadBenchmark.run([me, "--team-child", folder.path, target, device])
        let parts = output.split(separator: "\t", maxSplits: 2).map(String.init)
        guard parts.count == 3, let time = Double(parts[0]), let peak = Double(parts[1]) else {
            throw BenchError("unexpected child output: \(output)")
        }
        return Step(seconds: time, peakMegabytes: peak, message: parts[2].trimmingCharacters(in: .whitespacesAndNewlines))
    }

    static let surveyBinary: String? = {
        if let given = ProcessInfo.processInfo.environment["SURVEY_BIN"], FileManager.default.isExecutableFile(atPath: given) {
            return given
        }
        let beside = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
            .appendingPathComponent("survey").path
        return FileManager.default.isExecutableFile(atPath: beside) ? beside : nil
    }()

    /// Runs `arguments` timed, with its peak resident memory, through a small Python parent:
    /// a process started straight from this bench is charged this bench's own peak (the
    /// kernel keeps the larger of the two across `exec`), and this bench holds a whole
    /// generated document.
    static func spawn(_ arguments: [String], environment: [String: String]) throws -> Step {
        let script = """
            import os, resource, subprocess, sys, time
            start = time.monotonic()
            done = subprocess.run(sys.argv[1:], capture_output=True, text=True)
            seconds = time.monotonic() - start
            peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
            lines = (done.stdout + done.stderr).strip().splitlines()
            last = lines[-1] if lines else ""
            print(f"{seconds}\t{peak}\t{last if done.returncode == 0 else f'failed (exit {done.returncode}): {last}'}")
            """
        var env = ProcessInfo.processInfo.environment
        env.merge(environment) { $1 }
        let output = try LoadBenchmark.run(["env"] + env.map { "\($0.key)=\($0.value)" } + ["python3", "-c", script] + arguments)
        let parts = output.split(separator: "\t", maxSplits: 2).map(String.init)
        guard parts.count == 3, let time = Double(parts[0]), let peak = Double(parts[1]) else {
            throw BenchError("unexpected output from \(arguments[0]): \(output)")
        }
        return Step(seconds: time, peakMegabytes: peak, message: parts[2].trimmingCharacters(in: .whitespacesAndNewlines))
    }

    /// In the child: one sync, then "seconds<TAB>peak MB<TAB>message".
    static func runChild(folder: String, target: String, device: String) -> Never {
        let store = DocumentStore(folder: URL(fileURLWithPath: folder))
        let start = Date()
        do {
            let result = try DocumentSync.run(store: store, document: "Field", target: ConnectionString(target), device: device, at: { Date() })
            let time = Date().timeIntervalSince(start)
            print("\(time)\t\(LoadBenchmark.highWaterMegabytes())\t\(result.message)")
            exit(0)
        } catch {
            // Said in the table's line, not a crash of the whole bench.
            print("\(Date().timeIntervalSince(start))\t\(LoadBenchmark.highWaterMegabytes())\tfailed: \(error)")
            exit(0)
        }
    }
}
