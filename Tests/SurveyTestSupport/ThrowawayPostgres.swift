import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A PostgreSQL server of the tests' own: `initdb` into a temporary folder, `pg_ctl start`
/// listening on a Unix socket in that folder only (`listen_addresses=''`, so nothing on the
/// machine's network sees it), started once per test process and stopped when it exits.
/// Debian's `postgresql` package (`make deps`) puts the programs in
/// /usr/lib/postgresql/VERSION/bin; they are found, not named by version.
///
/// initdb refuses to run as root, and CI runs as root: then every server program runs as
/// `nobody` through `runuser`, in a folder `nobody` owns. Clients connect as the superuser
/// `survey_admin` with trust authentication (the socket's folder is the only door).
public final class ThrowawayPostgres: @unchecked Sendable {
    public let folder: URL
    public let binaries: URL
    public let superuser = "survey_admin"
    /// runuser's path when the server runs as nobody (the tests run as root).
    private let runuser: String?

    /// The socket folder: libpq's `host=` for a Unix socket.
    public var socketFolder: String { folder.path }
    public var dataFolder: String { folder.appendingPathComponent("data").path }

    /// A connection string for `database` as `user` on this server.
    public func connectionString(database: String = "postgres", user: String? = nil) -> String {
        "host=\(socketFolder) port=5432 dbname=\(database) user=\(user ?? superuser)"
    }

    private static let lock = NSLock()
    nonisolated(unsafe) private static var started: Result<ThrowawayPostgres, Error>?

    /// The server of this test process, started the first time it is asked for; XCTSkip
    /// (with the reason) when PostgreSQL's programs are not installed.
    public static func shared() throws -> ThrowawayPostgres {
        lock.lock()
        defer { lock.unlock() }
        if started == nil {
            started = Result { try ThrowawayPostgres.start() }
            if case .success(let server) = started {
                running = server
                atexit { ThrowawayPostgres.running?.stop() }
            }
        }
        return try started!.get()
    }

    nonisolated(unsafe) private static var running: ThrowawayPostgres?

    /// Why the server cannot be started here, thrown by `shared()` as the skip reason.
    public struct Unavailable: Error, CustomStringConvertible {
        public let description: String
    }

    /// The folder holding initdb and pg_ctl: on PATH, else Debian's newest version.
    public static func findBinaries() -> URL? {
        for directory in (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":") {
            let url = URL(fileURLWithPath: String(directory))
            // Where initdb really is (a link on PATH may point into Debian's folder), so psql
            // and pg_ctl of the same version are found beside it.
            let initdb = url.appendingPathComponent("initdb")
            guard FileManager.default.isExecutableFile(atPath: initdb.path) else { continue }
            let folder = initdb.resolvingSymlinksInPath().deletingLastPathComponent()
            if ["pg_ctl", "psql"].allSatisfy({ FileManager.default.isExecutableFile(atPath: folder.appendingPathComponent($0).path) }) {
                return folder
            }
        }
        let root = URL(fileURLWithPath: "/usr/lib/postgresql")
        let versions = ((try? FileManager.default.contentsOfDirectory(atPath: root.path)) ?? [])
            .compactMap { name in Int(name).map { ($0, name) } }.sorted { $0.0 > $1.0 }
        for (_, name) in versions {
            let bin = root.appendingPathComponent(name).appendingPathComponent("bin")
            if ["initdb", "pg_ctl", "psql"].allSatisfy({ FileManager.default.isExecutableFile(atPath: bin.appendingPathComponent($0).path) }) {
                return bin
            }
        }
        return nil
    }

    private init(folder: URL, binaries: URL, runuser: String?) {
        self.folder = folder
        self.binaries = binaries
        self.runuser = runuser
    }

    private static func start() throws -> ThrowawayPostgres {
        guard let binaries = findBinaries() else {
            throw Unavailable(description: "PostgreSQL's initdb and pg_ctl are not installed (make deps installs postgresql)")
        }
        let asNobody = getuid() == 0
        let runuser = ["/usr/sbin/runuser", "/sbin/runuser"].first { FileManager.default.isExecutableFile(atPath: $0) }
        if asNobody, runuser == nil {
            throw Unavailable(description: "running as root, and runuser (util-linux) is missing to run initdb as nobody")
        }
        // Short, under /tmp: a Unix socket's path is limited to 107 bytes.
        let folder = URL(fileURLWithPath: "/tmp/survey-pg-\(UUID().uuidString.prefix(8).lowercased())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        if asNobody {
            let owned = try ChildProcess.run(["chown", "nobody:nogroup", folder.path])
            guard owned.status == 0 else { throw Unavailable(description: "chown nobody \(folder.path): \(owned.errors)") }
        }
        let server = ThrowawayPostgres(folder: folder, binaries: binaries, runuser: asNobody ? runuser : nil)
        let initdb = try server.runServerProgram(["initdb", "-D", server.dataFolder, "-U", server.superuser, "--auth=trust",
                                                  "--encoding=UTF8", "--locale=C.UTF-8", "--no-sync"])
        guard initdb.status == 0 else {
            throw Unavailable(description: "initdb failed: \(initdb.errors)\(initdb.output)")
        }
        try server.startServer()
        return server
    }

    /// Runs one of PostgreSQL's programs, as nobody when the tests run as root, with
    /// posix_spawn rather than Foundation's Process: the server `pg_ctl start` leaves running
    /// inherits every descriptor the child had, and Process's (its pipes, and the one it
    /// learns of the child's exit by) would then stay open as long as the server runs, and
    /// waiting for the child would wait for the server. Here the child gets /dev/null, a
    /// file for its output, and nothing else.
    private func runServerProgram(_ arguments: [String]) throws -> ChildOutcome {
        let program = binaries.appendingPathComponent(arguments[0]).path
        let command = [program] + arguments.dropFirst()
        let full = runuser.map { [$0, "-u", "nobody", "--"] + command } ?? command
        let output = folder.appendingPathComponent("\(arguments[0]).out").path
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        // closefrom(3), by hand (glibc's posix_spawn_file_actions_addclosefrom_np is not imported).
        for descriptor in 3..<Int32(1024) where fcntl(descriptor, F_GETFD) != -1 {
            posix_spawn_file_actions_addclose(&actions, descriptor)
        }
        let environment = ["PATH=/usr/bin:/bin", "LANG=C.UTF-8"]
        let argv = full.map { strdup($0) } + [nil]
        let envp = environment.map { strdup($0) } + [nil]
        defer { for pointer in argv + envp { free(pointer) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, full[0], &actions, nil, argv, envp)
        guard spawned == 0 else { throw Unavailable(description: "cannot run \(full[0]): errno \(spawned)") }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        let text = (try? Data(contentsOf: URL(fileURLWithPath: output))) ?? Data()
        let exited = (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
        return ChildOutcome(status: exited, stdout: text, stderr: text)
    }

    /// `pg_ctl start` and wait until it accepts connections (its `-w`).
    public func startServer() throws {
        // fsync off (a crash of the machine may lose it all; a stopped server loses nothing: its
        // WAL is in the page cache). Not synchronous_commit off: `pg_ctl stop -m immediate`
        // would then lose the last commits, and a test stops it so.
        let options = "-c listen_addresses='' -c unix_socket_directories='\(socketFolder)' -c port=5432 -c fsync=off"
            + " -c full_page_writes=off -c max_connections=40"
        let started = try runServerProgram(["pg_ctl", "start", "-w", "-D", dataFolder, "-l",
                                            folder.appendingPathComponent("server.log").path, "-o", options])
        guard started.status == 0 else {
            let log = (try? String(contentsOf: folder.appendingPathComponent("server.log"), encoding: .utf8)) ?? ""
            throw Unavailable(description: "pg_ctl start failed: \(started.errors)\(started.output)\n\(log)")
        }
    }

    /// `pg_ctl stop` (immediate: a test stopping it mid-pull wants the connection cut now).
    public func stopServer(immediately: Bool = false) throws {
        let stopped = try runServerProgram(["pg_ctl", "stop", "-w", "-D", dataFolder, "-m", immediately ? "immediate" : "fast"])
        guard stopped.status == 0 else { throw Unavailable(description: "pg_ctl stop failed: \(stopped.errors)") }
    }

    /// Stops the server and removes its folder (at the test process's exit).
    public func stop() {
        _ = try? stopServer()
        try? FileManager.default.removeItem(at: folder)
    }

    /// Runs SQL as the superuser through psql (the tests' own administration, beside the code
    /// under test): `-v ON_ERROR_STOP=1`, unaligned, tuples only.
    @discardableResult
    public func psql(_ sql: String, database: String = "postgres", user: String? = nil) throws -> String {
        let outcome = try ChildProcess.run([binaries.appendingPathComponent("psql").path, "-X", "-q", "-A", "-t",
                                            "-v", "ON_ERROR_STOP=1", "-d", connectionString(database: database, user: user), "-c", sql],
                                           environment: ["PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"])
        guard outcome.status == 0 else { throw Unavailable(description: "psql failed: \(outcome.errors)") }
        return outcome.output.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// A fresh, empty database for one test, named `prefix_…`; returns its name.
    public func createDatabase(_ prefix: String = "t") throws -> String {
        let name = "\(prefix)_\(UUID().uuidString.prefix(8).lowercased())"
        try psql("CREATE DATABASE \(name)")
        return name
    }
}
