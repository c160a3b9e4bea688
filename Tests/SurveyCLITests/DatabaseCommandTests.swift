import Foundation
import XCTest
import SurveyTestSupport
import SurveyValues
import SurveyForms
import SurveyStorage

/// `survey db init` on the real binary, against the tests' throwaway PostgreSQL; and the
/// binary without libpq, which still runs and says what to install.
final class DatabaseCommandTests: CLITestCase {
    private func postgres() throws -> ThrowawayPostgres {
        do {
            return try ThrowawayPostgres.shared()
        } catch let unavailable as ThrowawayPostgres.Unavailable {
            throw XCTSkip(unavailable.description)
        }
    }

    func testDbInitCreatesTheSchemaOnceFromDbOrSURVEY_DB() throws {
        let server = try postgres()
        let database = try server.createDatabase("cli")
        defer { _ = try? server.psql("DROP DATABASE IF EXISTS \(database) WITH (FORCE)") }
        let url = server.connectionString(database: database)
        let first = try survey(["db", "init", "--db", url], dir: false)
        XCTAssertEqual(first.status, 0, first.stderr)
        XCTAssertEqual(first.stdout, "\(url): survey's schema is at version 9 (applied 1, 2, 3, 4, 5, 6, 7, 8, 9)\n"
                       + "Roles: survey_enumerator and survey_supervisor; give each team member a login role in one of them"
                       + " (docs/team.md, \"A team on PostgreSQL\")\n")
        let second = try survey(["db", "init"], dir: false, environment: ["SURVEY_DB": url])
        XCTAssertEqual(second, Outcome(status: 0, stdout: "\(url): survey's schema is already at version 9; nothing to do\n", stderr: ""))
        XCTAssertEqual(try server.psql("SELECT count(*) FROM survey.schema_migrations", database: database), "9")
    }

    /// Issue 28: a row on the server this laptop cannot keep (a `null` answer, put there
    /// before the schema's checks) is named by `survey sync`, one line, with who wrote it and
    /// why; the rest of the sync goes on, and the exit status (2) says to look.
    func testSyncNamesARowItSetsAside() throws {
        let server = try postgres()
        let database = try server.createDatabase("cli")
        defer { _ = try? server.psql("DROP DATABASE IF EXISTS \(database) WITH (FORCE)") }
        XCTAssertEqual(try survey(["db", "init", "--db", server.connectionString(database: database)], dir: false).status, 0)
        let role = "ana_\(UUID().uuidString.prefix(6).lowercased())"
        try server.psql("CREATE ROLE \(role) LOGIN IN ROLE survey_enumerator")
        defer { _ = try? server.psql("DROP ROLE IF EXISTS \(role)") }
        try server.psql("""
            ALTER TABLE survey.surveys DROP CONSTRAINT surveys_answers_keepable;
            INSERT INTO survey.surveys (instance_id, dataset, answers, owner) VALUES ('uuid:bad', 'Field', '{"age": null}', '\(role)')
            """, database: database)
        let environment = ["SURVEY_DB": server.connectionString(database: database, user: role), "SURVEY_DEVICE": "laptop-a"]
        XCTAssertEqual(try survey(["add", "--doc", "Field", "--first", "Ana", "--last", "Silva"]).status, 0)
        let first = try survey(["sync", "--doc", "Field"], environment: environment)
        XCTAssertEqual(first.status, 2, first.stderr)
        XCTAssertEqual(first.stdout, "Synced “Field”: 0 in, 1 out, 1 set aside (survey sync names them)\n")
        XCTAssertEqual(first.stderr, "survey: set aside: uuid:bad by \(role): null cannot be kept in a survey file (inside “age”)"
                       + " (not taken here; the one who wrote it or the data manager can fix it on the server)\n")
        let second = try survey(["sync", "--doc", "Field"], environment: environment)
        XCTAssertEqual(second, Outcome(status: 0, stdout: "Synced “Field”: 0 in, 0 out\n", stderr: ""))
    }

    /// Issue 28: Bruno's laptop holds Ana's survey. `survey delete` and `survey resolve
    /// --mine` refuse it, saying whose it is; a change made before (in the file) is not sent
    /// and refused at every sync ("sync again"): `survey sync` names the owner, keeps it as a
    /// conflict, and `--theirs` settles it.
    func testTheShellAndSyncSayWhoseSurveyItIs() throws {
        let server = try postgres()
        let database = try server.createDatabase("cli")
        defer { _ = try? server.psql("DROP DATABASE IF EXISTS \(database) WITH (FORCE)") }
        XCTAssertEqual(try survey(["db", "init", "--db", server.connectionString(database: database)], dir: false).status, 0)
        let suffix = UUID().uuidString.prefix(6).lowercased()
        let (ana, bruno) = ("ana_\(suffix)", "bruno_\(suffix)")
        try server.psql("CREATE ROLE \(ana) LOGIN IN ROLE survey_enumerator; CREATE ROLE \(bruno) LOGIN IN ROLE survey_enumerator")
        defer { _ = try? server.psql("DROP ROLE IF EXISTS \(ana); DROP ROLE IF EXISTS \(bruno)") }
        let brunoFolder = root.appendingPathComponent("bruno", isDirectory: true)
        try FileManager.default.createDirectory(at: brunoFolder, withIntermediateDirectories: true)
        func asAna(_ arguments: String...) throws -> Outcome {
            try survey(arguments, environment: ["SURVEY_DB": server.connectionString(database: database, user: ana), "SURVEY_DEVICE": "a"])
        }
        func asBruno(_ arguments: String...) throws -> Outcome {
            try survey(["--dir", brunoFolder.path] + arguments, dir: false,
                       environment: ["SURVEY_DB": server.connectionString(database: database, user: bruno), "SURVEY_DEVICE": "b"])
        }
        XCTAssertEqual(try asAna("add", "--doc", "Field", "--first", "Ana", "--last", "Silva").status, 0)
        XCTAssertEqual(try asAna("sync", "--doc", "Field").status, 0)
        XCTAssertEqual(try asBruno("docs", "new", "Field").status, 0)
        XCTAssertEqual(try asBruno("sync", "--doc", "Field").stdout, "Synced “Field”: 1 in, 0 out\n")
        let brunos = DocumentStore(folder: brunoFolder)
        let id = try XCTUnwrap(try brunos.load("Field").get().records.first?.instanceID)
        let whose = "it is \(ana)'s survey (only \(ana) changes it; a supervisor reviews it)"

        XCTAssertEqual(try asBruno("delete", id, "--doc", "Field"),
                       Outcome(status: 1, stdout: "", stderr: "survey: \(id) is not deleted: \(whose)\n"))
        // Changed in the file, as survey let anyone before this fix.
        var document = try brunos.load("Field").get()
        let place = try XCTUnwrap(document.records.firstIndex { $0.instanceID == id }, "not deleted")
        document.records[place]["lastName"] = .string("Bruno was here")
        _ = try brunos.save(document, as: "Field")
        let refused = try asBruno("sync", "--doc", "Field")
        XCTAssertEqual(refused.status, 2)
        XCTAssertEqual(refused.stdout, "Synced “Field”: 0 in, 0 out, 1 not taken: it is \(ana)'s survey (kept as a conflict: "
                       + "survey conflicts), 1 survey in conflict (survey conflicts, or F4 then c)\n")
        XCTAssertEqual(refused.stderr, "survey: \(id): not taken: \(whose); this laptop's change is kept as a conflict "
                       + "(survey conflicts shows it; survey resolve \(id) --theirs takes \(ana)'s)\n")
        XCTAssertFalse(refused.stdout.contains("sync again"))
        XCTAssertEqual(try asBruno("sync", "--doc", "Field").status, 2, "still a conflict, never sent")
        XCTAssertEqual(try asBruno("resolve", id, "--mine", "--doc", "Field"),
                       Outcome(status: 1, stdout: "", stderr: "survey: \(id) keeps the server's answers: \(whose); take theirs (--theirs)\n"))
        XCTAssertEqual(try asBruno("resolve", id, "--theirs", "--doc", "Field").status, 0)
        XCTAssertEqual(try asBruno("sync", "--doc", "Field"), Outcome(status: 0, stdout: "Synced “Field”: 0 in, 0 out\n", stderr: ""))
        XCTAssertEqual(try brunos.load("Field").get().records.first?["lastName"], .string("Silva"))
    }

    func testAFailureNeverShowsThePassword() throws {
        let outcome = try survey(["db", "init", "--db", "postgresql://ana:hunter22@/d?host=/nonexistent-survey-socket"], dir: false,
                                 environment: ["PGPASSWORD": "other-secret-7"])
        XCTAssertEqual(outcome.status, 1)
        XCTAssertTrue(outcome.stderr.hasPrefix("survey: could not connect to postgresql://ana:***@/d?host=/nonexistent-survey-socket: "),
                      outcome.stderr)
        XCTAssertFalse(outcome.stderr.contains("hunter22") || outcome.stdout.contains("hunter22"), outcome.stderr)
        XCTAssertEqual(outcome.stderr.split(separator: "\n").count, 1, outcome.stderr)
    }

    /// libpq is loaded at first use, so a laptop without libpq5 runs every other command, and
    /// the database ones say what to install (SURVEY_LIBPQ points at a file that is not there,
    /// as on a machine without libpq5).
    func testWithoutLibpqTheBinaryRunsAndDbSaysToInstallLibpq5() throws {
        let missing = ["SURVEY_LIBPQ": "/nonexistent/libpq.so.5"]
        XCTAssertEqual(try survey(["add", "--doc", "Field", "--first", "Ana", "--last", "Silva"], environment: missing).status, 0)
        let outcome = try survey(["db", "init", "--db", "host=/nonexistent-survey-socket"], dir: false, environment: missing)
        XCTAssertEqual(outcome.status, 1)
        XCTAssertTrue(outcome.stderr.hasPrefix("survey: install libpq5 to sync (sudo apt-get install libpq5)"), outcome.stderr)
    }

    func testDbTakesOnlyInit() throws {
        XCTAssertEqual(try survey(["db"], dir: false).stderr.components(separatedBy: "\n").first,
                       "survey: missing action: survey db init [--db URL]")
        XCTAssertEqual(try survey(["db", "drop"], dir: false).stderr.components(separatedBy: "\n").first,
                       "survey: unknown action “drop”: survey db init [--db URL]")
        XCTAssertEqual(try survey(["list", "--db", "x"]).status, 2)
    }
}

/// A password on the command line (`--db postgresql://ana:secret@…`) is not shown to other
/// users by `ps` while a sync waits for the server: /proc/PID/cmdline, which `ps` reads, has
/// it overwritten with `*`.
final class ProcessTitleTests: CLITestCase {
    func testASyncWaitingForTheServerShowsNoPasswordToPs() throws {
        let cmdline = try commandLineWhileSyncing(to: "postgresql://ana:s3cret-Pa55@127.0.0.1:PORT/fieldwork?connect_timeout=20")
        XCTAssertTrue(cmdline.contains("postgresql://ana:***********@127.0.0.1"), cmdline)
        XCTAssertFalse(cmdline.contains("s3cret-Pa55"), cmdline)
    }

    /// Issue 28: a one-letter password is starred where it is written, not at each of its
    /// letters (`postgresql://*n*:*@…` showed it by the gaps).
    func testAShortPasswordIsStarredWhereItIsWrittenOnly() throws {
        let cmdline = try commandLineWhileSyncing(to: "postgresql://ana:a@127.0.0.1:PORT/fieldwork?application_name=a&connect_timeout=20")
        XCTAssertTrue(cmdline.contains("postgresql://ana:*@127.0.0.1:"), cmdline)
        XCTAssertTrue(cmdline.contains("/fieldwork?application_name=*&connect_timeout=20"), cmdline)
    }

    /// /proc/PID/cmdline of `survey sync --db URL` (PORT: a listener's) while it waits.
    private func commandLineWhileSyncing(to url: String) throws -> String {
        // A server that accepts and never answers: libpq waits, and the process can be read.
        let listener = Process()
        listener.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        listener.arguments = ["python3", "-c", """
            import socket, sys, time
            s = socket.socket(); s.bind(("127.0.0.1", 0)); s.listen(5)
            print(s.getsockname()[1], flush=True)
            conns = []
            while True:
                c, _ = s.accept(); conns.append(c)
            """]
        let out = Pipe()
        listener.standardOutput = out
        try listener.run()
        defer { listener.terminate() }
        let portLine = String(decoding: out.fileHandleForReading.availableData, as: UTF8.self)
        let port = try XCTUnwrap(Int(portLine.trimmingCharacters(in: .whitespacesAndNewlines)), portLine)
        _ = try survey("docs", "new", "Field")

        let sync = Process()
        sync.executableURL = Self.binary
        sync.arguments = ["--dir", documents.path, "sync", "--doc", "Field",
                          "--db", url.replacingOccurrences(of: "PORT", with: String(port))]
        sync.standardOutput = FileHandle.nullDevice
        sync.standardError = FileHandle.nullDevice
        try sync.run()
        defer { sync.terminate() }
        var cmdline = ""
        Polling.until(timeout: 4) {
            cmdline = String(decoding: (try? Data(contentsOf: URL(fileURLWithPath: "/proc/\(sync.processIdentifier)/cmdline"))) ?? Data(),
                             as: UTF8.self)
            return cmdline.contains("fieldwork") && cmdline.contains("*@127.0.0.1")
        }
        XCTAssertTrue(sync.isRunning, "the sync is waiting for the server")
        return cmdline
    }
}
