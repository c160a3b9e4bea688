import Foundation
import XCTest
import SurveyTestSupport

/// The .deb `make deb` built, named by $SURVEY_DEB (`make test` sets it), checked without
/// installing it: what it holds, what it depends on, and the binary and files extracted
/// from it working with no Swift toolchain in sight.
final class DebianPackageTests: XCTestCase {
    private var root: URL!
    private static let repository = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    override func setUpWithError() throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("survey-deb-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        if let root { try? FileManager.default.removeItem(at: root) }
    }

    /// The package; the test is skipped when there is none (plain `swift test` builds none).
    private func package() throws -> URL {
        guard let path = ProcessInfo.processInfo.environment["SURVEY_DEB"], !path.isEmpty else {
            throw XCTSkip("SURVEY_DEB is not set (make test builds the .deb and sets it)")
        }
        return URL(fileURLWithPath: path)
    }

    /// Skips the test when a tool it runs is missing (`make deps` installs them all).
    private func require(_ path: String, from package: String) throws {
        guard FileManager.default.fileExists(atPath: path) else {
            throw XCTSkip("\(path) is missing (make deps installs \(package))")
        }
    }

    private func run(_ arguments: [String], environment: [String: String]? = nil) throws -> ChildOutcome {
        try ChildProcess.run(arguments, environment: environment)
    }

    /// The package unpacked with `dpkg -x` into a fresh folder.
    private func extracted(_ deb: URL) throws -> URL {
        let target = root.appendingPathComponent("root")
        let outcome = try run(["dpkg", "-x", deb.path, target.path])
        XCTAssertEqual(outcome.status, 0, outcome.errors)
        return target
    }

    /// An environment with no toolchain: the system's PATH only, no LD_LIBRARY_PATH.
    private var bareEnvironment: [String: String] {
        ["PATH": "/usr/bin:/bin", "HOME": root.appendingPathComponent("home").path, "LANG": "C.UTF-8"]
    }

    /// The guides the README links (docs/), installed beside it.
    static let guides = ["commands.md", "development.md", "encryption.md", "files.md", "keying.md", "speed.md", "team.md", "xlsform.md"]
        .map { "./usr/share/doc/survey/docs/" + $0 }

    static let files = [
        "./usr/bin/survey",
        "./usr/share/bash-completion/completions/survey",
        "./usr/share/doc/survey/README.md",
    ] + guides + [
        "./usr/share/doc/survey/examples/household.csv",
        "./usr/share/man/man1/survey.1.gz",
        "./usr/share/zsh/vendor-completions/_survey",
    ]

    func testFileNameAndContents() throws {
        let deb = try package()
        let arch = try run(["dpkg", "--print-architecture"]).output.trimmingCharacters(in: .whitespacesAndNewlines)
        XCTAssertEqual(deb.lastPathComponent, "survey_0.2.0_\(arch).deb")
        let listing = try run(["dpkg-deb", "--contents", deb.path])
        XCTAssertEqual(listing.status, 0, listing.errors)
        let rows = listing.output.split(separator: "\n")
        let files = rows.filter { !$0.hasPrefix("d") }.compactMap { $0.split(separator: " ").last.map(String.init) }
        XCTAssertEqual(files.sorted(), Self.files)
        for row in rows {
            XCTAssertTrue(row.contains(" root/root "), "not owned by root: \(row)")
        }
        XCTAssertTrue(rows.contains { $0.hasPrefix("-rwxr-xr-x") && $0.hasSuffix("./usr/bin/survey") })
    }

    func testControlFileDependsOnNcurseswAndTheCLibraries() throws {
        let deb = try package()
        func field(_ name: String) throws -> String {
            try run(["dpkg-deb", "--field", deb.path, name]).output.trimmingCharacters(in: .whitespacesAndNewlines)
        }
        XCTAssertEqual(try field("Package"), "survey")
        XCTAssertEqual(try field("Version"), "0.2.0")
        // Debian 13 and Ubuntu 24.04 renamed libraries for 64-bit time (`libssl3t64`).
        let depends = try field("Depends").components(separatedBy: ", ").map { $0.components(separatedBy: " ")[0] }
            .map { $0.hasSuffix("t64") ? String($0.dropLast(3)) : $0 }
        // libstdc++ is linked in (the Makefile's static-cxx folder), so it is not among them.
        XCTAssertEqual(Set(depends), ["libc6", "libgcc-s1", "libncursesw6", "libssl3", "libtinfo6", "zlib1g"])
        XCTAssertFalse(try field("Depends").contains("swift"))
    }

    func testPackagedBinaryNeedsNoLibraryFromTheToolchain() throws {
        let deb = try package()
        let binary = try extracted(deb).appendingPathComponent("usr/bin/survey")
        let ldd = try run(["ldd", binary.path], environment: bareEnvironment)
        XCTAssertEqual(ldd.status, 0, ldd.errors)
        XCTAssertTrue(ldd.output.contains("libncursesw.so.6"), ldd.output)
        for line in ldd.output.split(separator: "\n") {
            XCTAssertFalse(line.contains("not found"), String(line))
            XCTAssertFalse(line.lowercased().contains("swift") || line.contains("Foundation") || line.contains("libdispatch")
                           || line.contains("libBlocksRuntime") || line.contains("/opt/"), "toolchain library: \(line)")
        }
        // Stripped: no symbol table (readelf comes with binutils, which `make deps` installs).
        let sections = try run(["readelf", "-S", "-W", binary.path])
        XCTAssertEqual(sections.status, 0, sections.errors)
        XCTAssertFalse(sections.output.contains(" .symtab "), "not stripped")
    }

    /// The shipped binary holds no ICU: FoundationEssentials only (DECISIONS.md). One call
    /// into full Foundation would link CoreFoundation and ICU's 34 MB of data back in, whose
    /// items are all named `icudt…`.
    func testPackagedBinaryCarriesNoICUData() throws {
        let deb = try package()
        let binary = try extracted(deb).appendingPathComponent("usr/bin/survey")
        let bytes = try Data(contentsOf: binary)
        XCTAssertNil(bytes.range(of: Data("icudt".utf8)), "ICU's data is in the binary: make foundation-links names the call")
        XCTAssertLessThan(bytes.count, 30_000_000, "the binary grew back towards its ICU size (60 MB)")
    }

    /// libpq is loaded at first use, not linked (DECISIONS.md): the binary names no libpq, so the
    /// package does not depend on libpq5, and without it `survey db` says what to install.
    func testPackagedBinaryLoadsLibpqOnlyWhenSyncing() throws {
        let deb = try package()
        let binary = try extracted(deb).appendingPathComponent("usr/bin/survey")
        let dynamic = try run(["readelf", "-d", binary.path])
        XCTAssertEqual(dynamic.status, 0, dynamic.errors)
        XCTAssertTrue(dynamic.output.contains("libncursesw.so.6"), dynamic.output)
        XCTAssertFalse(dynamic.output.contains("libpq"), dynamic.output)
        var environment = bareEnvironment
        environment["SURVEY_LIBPQ"] = "/nonexistent/libpq.so.5"
        let refused = try run([binary.path, "db", "init", "--db", "host=/nonexistent"], environment: environment)
        XCTAssertEqual(refused.status, 1)
        XCTAssertTrue(refused.errors.hasPrefix("survey: install libpq5 to sync"), refused.errors)
    }

    func testExtractedBinaryRunsWithoutTheToolchain() throws {
        let deb = try package()
        let binary = try extracted(deb).appendingPathComponent("usr/bin/survey")
        let version = try run([binary.path, "--version"], environment: bareEnvironment)
        XCTAssertEqual(version.status, 0, version.errors)
        let commit = ProcessInfo.processInfo.environment["SURVEY_COMMIT"] ?? ""
        if commit.isEmpty {
            XCTAssertTrue(version.output.hasPrefix("survey 0.2.0 (commit "), version.output)
        } else {
            XCTAssertEqual(version.output, "survey 0.2.0 (commit \(commit))\n")
        }
        let folder = root.appendingPathComponent("docs")
        let created = try run([binary.path, "docs", "--dir", folder.path, "new", "Market Street"], environment: bareEnvironment)
        XCTAssertEqual(created.status, 0, created.errors)
        let listed = try run([binary.path, "docs", "--dir", folder.path], environment: bareEnvironment)
        XCTAssertEqual(listed.status, 0, listed.errors)
        XCTAssertTrue(listed.output.contains("Market Street"), listed.output)
        let added = try run([binary.path, "add", "--dir", folder.path, "--doc", "Market Street", "--first", "Ana", "--last", "Díaz",
                             "--age", "41"], environment: bareEnvironment)
        XCTAssertEqual(added.status, 0, added.errors)
        let json = try run([binary.path, "list", "--dir", folder.path, "--format", "json"], environment: bareEnvironment)
        XCTAssertTrue(json.output.contains("\"Díaz\""), json.output)
    }

    /// The packaged app in a real terminal (tmux), as a field laptop runs it: it draws, stays
    /// up while keys are typed, keeps a survey, and quits with 0. The debug build the end-to-end
    /// tests drive once hid a release-only bug that quit the app right after its first frame.
    func testPackagedAppKeysASurveyInATerminal() throws {
        let deb = try package()
        try require("/usr/bin/tmux", from: "tmux")
        let binary = try extracted(deb).appendingPathComponent("usr/bin/survey")
        let folder = root.appendingPathComponent("docs")
        let socket = "survey-deb-\(UUID().uuidString.prefix(8))"
        // As the end-to-end tests start tmux: a UTF-8 locale and a TERM for the client, no
        // enclosing tmux, and the server started with no descriptor but 0-2 (it would hold
        // the pipe the test reads the client's output from).
        var environment = ProcessInfo.processInfo.environment
        environment["LANG"] = "C.UTF-8"; environment["LC_ALL"] = "C.UTF-8"
        environment["TERM"] = "xterm-256color"; environment["TMUX"] = nil; environment["TMUX_PANE"] = nil
        let closeDescriptors = #"for fd in /proc/$$/fd/*; do fd=${fd##*/}; if [ "$fd" -gt 2 ]; then eval "exec $fd>&-" 2>/dev/null; fi; done; exec "$@""#
        func tmux(_ arguments: [String]) throws -> ChildOutcome {
            let command = ["/usr/bin/tmux", "-u", "-f", "/dev/null", "-L", socket] + arguments
            return try run(arguments.first == "new-session" ? ["bash", "-c", closeDescriptors, "bash"] + command : command,
                           environment: environment)
        }
        defer { _ = try? tmux(["kill-server"]) }
        let command = ["env", "-i", "PATH=/usr/bin:/bin", "HOME=" + root.appendingPathComponent("home").path,
                       "LANG=C.UTF-8", "TERM=xterm-256color", binary.path, "--dir", folder.path, "--doc", "Field"]
            .map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }.joined(separator: " ")
        XCTAssertEqual(try tmux(["new-session", "-d", "-x", "100", "-y", "30", "-s", "app", command + "; echo EXIT=$?; sleep 30"]).status, 0)
        func screen() throws -> String { try tmux(["capture-pane", "-p", "-t", "app"]).output }
        func waitFor(_ text: String) throws -> String {
            var last = ""
            if try Polling.until(every: 0.05, { last = try screen(); return last.contains(text) }) { return last }
            XCTFail("“\(text)” never showed:\n\(last)")
            return last
        }
        _ = try waitFor("No surveys yet")
        // Heads-down: First name, Last name, three empty answers, then Enter on [ Add ]. The
        // app takes keys in the order they come, however fast: no pause between them.
        for keys in [["C-n"], ["-l", "Ana"], ["Enter"], ["-l", "Díaz"], ["Enter"], ["Enter"], ["Enter"], ["Enter"], ["Enter"]] {
            XCTAssertEqual(try tmux(["send-keys", "-t", "app"] + keys).status, 0)
        }
        let typed = try waitFor("Added survey 1: Díaz, Ana")
        XCTAssertFalse(typed.contains("EXIT="), "the app quit by itself:\n\(typed)")
        _ = try tmux(["send-keys", "-t", "app", "C-q"])
        _ = try waitFor("EXIT=0")
        let listed = try run([binary.path, "list", "--dir", folder.path, "--doc", "Field", "--format", "json"],
                             environment: bareEnvironment)
        XCTAssertTrue(listed.output.contains("\"Ana\"") && listed.output.contains("\"Díaz\""), listed.output)
    }

    func testPackagedManPageRendersWithoutWarnings() throws {
        let deb = try package()
        try require("/usr/bin/man", from: "man-db")
        let page = try extracted(deb).appendingPathComponent("usr/share/man/man1/survey.1.gz")
        var environment = bareEnvironment
        environment["MANPAGER"] = "cat"
        environment["MANWIDTH"] = "80"
        let outcome = try run(["man", "--warnings", "-l", page.path], environment: environment)
        XCTAssertEqual(outcome.status, 0)
        XCTAssertEqual(outcome.errors, "")
        XCTAssertTrue(outcome.output.contains("SURVEY(1)"))
        XCTAssertTrue(outcome.output.contains("EXIT STATUS"))
    }

    func testPackagedCompletionsLoad() throws {
        let deb = try package()
        let loader = "/usr/share/bash-completion/bash_completion"
        try require(loader, from: "bash-completion")
        try require("/usr/bin/zsh", from: "zsh")
        let tree = try extracted(deb)
        let bash = tree.appendingPathComponent("usr/share/bash-completion/completions/survey")
        XCTAssertEqual(try run(["/bin/bash", "-n", bash.path]).status, 0)
        let loaded = try run(["/bin/bash", "-c", "source \"$1\" && complete -p survey", "bash", bash.path])
        XCTAssertEqual(loaded.output, "complete -F _survey survey\n", loaded.errors)
        // bash-completion's own loader finds it where the package puts it.
        let found = try run(["/bin/bash", "-c",
                             "source \(loader); __load_completion survey && complete -p survey"],
                            environment: bareEnvironment.merging(["XDG_DATA_DIRS": tree.appendingPathComponent("usr/share").path]) { $1 })
        XCTAssertEqual(found.output, "complete -F _survey survey\n", found.errors)
        let zsh = tree.appendingPathComponent("usr/share/zsh/vendor-completions/_survey")
        XCTAssertEqual(try run(["/usr/bin/zsh", "-n", zsh.path]).status, 0)
    }

    /// `make install DESTDIR=… PREFIX=/usr` puts the package's files (the man page not
    /// gzipped), and `make uninstall` with the same variables takes every one away.
    func testMakeInstallThenUninstallLeavesNoFile() throws {
        _ = try package()
        let destination = root.appendingPathComponent("stage")
        let variables = ["DESTDIR=\(destination.path)", "PREFIX=/usr"]
        let make = ["make", "--no-print-directory", "-C", Self.repository.path]
        let installed = try run(make + ["install"] + variables)
        XCTAssertEqual(installed.status, 0, installed.errors)
        let files = try run(["find", destination.path, "-type", "f"]).output.split(separator: "\n")
            .map { "./" + $0.dropFirst(destination.path.count + 1) }.sorted()
        XCTAssertEqual(files, ["./usr/bin/survey", "./usr/share/bash-completion/completions/survey",
                               "./usr/share/doc/survey/README.md"] + Self.guides + ["./usr/share/doc/survey/examples/household.csv",
                               "./usr/share/man/man1/survey.1",
                               "./usr/share/zsh/site-functions/_survey"])
        let removed = try run(make + ["uninstall"] + variables)
        XCTAssertEqual(removed.status, 0, removed.errors)
        XCTAssertEqual(try run(["find", destination.path, "-type", "f"]).output, "")
        XCTAssertFalse(FileManager.default.fileExists(atPath: destination.appendingPathComponent("usr/share/doc/survey").path))
    }
}
