import Foundation
import SurveyTestSupport
import XCTest

/// A real terminal for the app: one tmux pane on a tmux server of its own
/// (`tmux -L survey-e2e-<uuid>`), so tests never touch the user's tmux and never share state.
///
/// Keys go in with `send-keys` (tmux key names: Enter, Escape, Tab, BTab, Up, Down, Left,
/// Right, Home, End, PPage, NPage, BSpace, DC, F1, F2, C-n, C-q, C-c), text with
/// `send-keys -l`, and the screen comes back as text with `capture-pane -p`. Everything the
/// app does happens asynchronously, so every check waits for the screen (`waitFor`) and
/// fails with the whole screen printed when it does not come.
final class TmuxSession {
    static let target = "e2e"
    /// How long any one wait lasts before the test fails.
    static let defaultTimeout: TimeInterval = 10
    /// After one wait has timed out the app is not doing what the test expects, so later
    /// waits in the same session give up this fast (still failing with the screen) instead
    /// of adding ten seconds each.
    static let timeoutAfterFailure: TimeInterval = 0.5

    let socket: String
    private let environment: [String: String]
    /// Where the wrapper around the app writes its exit status once it exits.
    private let statusFile: URL
    private var isClosed = false
    private var hasTimedOut = false

    /// Starts `command` in a detached `width`x`height` pane, the status bar off so the pane
    /// is the whole window.
    ///
    /// The app runs under a small bash wrapper that writes the app's exit status and the
    /// terminal modes after it (`stty -a`) to files, then sleeps, keeping the pane and its
    /// screen state open for the test to read. (tmux 3.3 sometimes never reaps a pane's
    /// exited process, so `pane_dead_status` cannot be relied on.)
    init(command: [String], width: Int, height: Int) throws {
        socket = "survey-e2e-\(UUID().uuidString)"
        environment = Self.environment()
        statusFile = FileManager.default.temporaryDirectory.appendingPathComponent("\(socket).status")
        let wrapped = ["/usr/bin/env", "bash", "-c", Self.reportExit, "survey-e2e", statusFile.path] + command
        try run(startingServer: true, ["start-server", ";",
                 "set-option", "-g", "remain-on-exit", "on", ";",
                 "set-option", "-g", "status", "off", ";",
                 "set-option", "-g", "default-terminal", "tmux-256color", ";",
                 "new-session", "-d", "-s", Self.target, "-x", String(width), "-y", String(height),
                 "-e", "LANG=C.UTF-8", "-e", "LC_ALL=C.UTF-8", "--"] + wrapped)
    }

    private static let reportExit = #"""
        status_file=$1; shift
        "$@"; status=$?
        stty -a > "$status_file.stty" 2>&1
        printf '%s\n' "$status" > "$status_file.tmp" && mv "$status_file.tmp" "$status_file"
        printf '\n[survey exited with status %s]\n' "$status"
        exec sleep 86400
        """#

    deinit { close() }

    /// Kills the server and with it the app, if it still runs, and waits until the app has
    /// gone: a hung-up app still saves on its way out, and must not do so into a folder the
    /// test is already removing. Safe to call twice.
    func close() {
        guard !isClosed else { return }
        isClosed = true
        let processes = paneProcesses()
        _ = try? run(["kill-server"])
        Polling.until(timeout: 5, every: 0.02) { !processes.contains(where: Self.isRunning) }
        for suffix in ["", ".tmp", ".stty"] {
            try? FileManager.default.removeItem(atPath: statusFile.path + suffix)
        }
    }

    /// The pane's process (the wrapper) and its children (the app, while it runs).
    private func paneProcesses() -> [Int32] {
        guard let text = try? format("#{pane_pid}"), let wrapper = Int32(text) else { return [] }
        let children = (try? String(contentsOfFile: "/proc/\(wrapper)/task/\(wrapper)/children", encoding: .utf8)) ?? ""
        return [wrapper] + children.split(separator: " ").compactMap { Int32($0) }
    }

    /// Whether a process exists and has not yet exited (a zombie has).
    private static func isRunning(_ pid: Int32) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let endOfName = stat.lastIndex(of: ")") else { return false }
        let state = stat[stat.index(after: endOfName)...].drop(while: { $0 == " " }).first
        return state != "Z" && state != "X"
    }

    // MARK: - Input

    /// Presses keys, by tmux key name, in order.
    func press(_ keys: String...) throws {
        try run(["send-keys", "-t", Self.target] + keys)
    }

    /// Types text literally (no key-name lookup).
    func type(_ text: String) throws {
        try run(["send-keys", "-t", Self.target, "-l", "--", text])
    }

    /// Resizes the terminal; the app gets SIGWINCH as with a real window.
    func resize(width: Int, height: Int) throws {
        try run(["resize-window", "-t", Self.target, "-x", String(width), "-y", String(height)])
    }

    /// Resizes the terminal and types `text` in the same tmux command, so the keys arrive
    /// in the same instant as the resize.
    func resize(width: Int, height: Int, thenType text: String) throws {
        try run(["resize-window", "-t", Self.target, "-x", String(width), "-y", String(height), ";",
                 "send-keys", "-t", Self.target, "-l", "--", text])
    }

    /// Pastes `text` as a terminal does: through a tmux paste buffer, bracketed
    /// (`ESC [200~` … `ESC [201~`) when the app asked for bracketed paste, plain otherwise.
    /// tmux turns each LF into CR on the way, as terminals do.
    func paste(_ text: String) throws {
        try run(["set-buffer", "-b", "e2e-paste", "--", text, ";",
                 "paste-buffer", "-p", "-d", "-b", "e2e-paste", "-t", Self.target])
    }

    // MARK: - Output

    /// The screen as text, one line per row, trailing blanks trimmed by tmux.
    func screen() throws -> String {
        try run(["capture-pane", "-p", "-t", Self.target])
    }

    /// The screen with its colours and attributes as escape sequences (`capture-pane -e`).
    func screenWithAttributes() throws -> String {
        try run(["capture-pane", "-p", "-e", "-t", Self.target])
    }

    /// A tmux format evaluated for the pane, e.g. "#{cursor_x}".
    func format(_ format: String) throws -> String {
        try run(["display-message", "-p", "-t", Self.target, format])
            .trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Where the terminal's cursor is, and whether it is shown.
    func cursor() throws -> (x: Int, y: Int, visible: Bool) {
        let parts = try format("#{cursor_x} #{cursor_y} #{cursor_flag}").split(separator: " ")
        guard parts.count == 3, let x = Int(parts[0]), let y = Int(parts[1]) else {
            throw TmuxError("unexpected cursor format: \(parts)")
        }
        return (x, y, parts[2] == "1")
    }

    /// Waits until the screen contains every one of `texts`; returns that screen. On timeout
    /// the test fails with the whole screen and nil comes back.
    @discardableResult
    func waitFor(_ texts: String..., timeout: TimeInterval = defaultTimeout,
                 file: StaticString = #filePath, line: UInt = #line) -> String? {
        waitUntil("the screen shows \(texts.map { "\"\($0)\"" }.joined(separator: ", "))",
                  timeout: timeout, file: file, line: line) { screen in
            texts.allSatisfy(screen.contains)
        }
    }

    /// Waits until the screen contains none of `texts`.
    @discardableResult
    func waitForAbsence(of texts: String..., timeout: TimeInterval = defaultTimeout,
                        file: StaticString = #filePath, line: UInt = #line) -> String? {
        waitUntil("the screen no longer shows \(texts.map { "\"\($0)\"" }.joined(separator: ", "))",
                  timeout: timeout, file: file, line: line) { screen in
            !texts.contains(where: screen.contains)
        }
    }

    /// Polls the screen every 50 ms until `condition` holds.
    @discardableResult
    func waitUntil(_ description: String, timeout: TimeInterval = defaultTimeout,
                   file: StaticString = #filePath, line: UInt = #line,
                   _ condition: (String) -> Bool) -> String? {
        let timeout = hasTimedOut ? min(timeout, Self.timeoutAfterFailure) : timeout
        var last = ""
        var lastError: Error?
        let held = Polling.until(timeout: timeout, every: 0.05) {
            do {
                last = try screen()
                lastError = nil
                return condition(last)
            } catch {
                lastError = error
                return false
            }
        }
        if held { return last }
        hasTimedOut = true
        let why = lastError.map { " (last tmux error: \($0))" } ?? ""
        XCTFail("Timed out after \(timeout) s waiting until \(description)\(why). Screen:\n\(Self.framed(last))",
                file: file, line: line)
        return nil
    }

    /// Waits for the app to exit; returns its exit status (128 + N after signal N), or nil
    /// after failing the test if it is still running.
    func waitForExit(timeout: TimeInterval = defaultTimeout,
                     file: StaticString = #filePath, line: UInt = #line) -> Int32? {
        let timeout = hasTimedOut ? min(timeout, Self.timeoutAfterFailure) : timeout
        var status: Int32?
        let exited = Polling.until(timeout: timeout, every: 0.05) {
            status = (try? String(contentsOf: statusFile, encoding: .utf8)).flatMap { Int32($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
            return status != nil
        }
        if exited { return status }
        hasTimedOut = true
        XCTFail("The app did not exit within \(timeout) s. Screen:\n\(Self.framed((try? screen()) ?? ""))",
                file: file, line: line)
        return nil
    }

    /// `stty -a` of the terminal right after the app exited (after `waitForExit`).
    func terminalModesAfterExit() throws -> String {
        try String(contentsOfFile: statusFile.path + ".stty", encoding: .utf8)
    }

    /// A screen with a visible left and right edge, so trailing blanks and empty rows show in
    /// failure messages.
    static func framed(_ screen: String) -> String {
        screen.split(separator: "\n", omittingEmptySubsequences: false)
            .map { "|\($0)|" }.joined(separator: "\n")
    }

    // MARK: - Running tmux

    /// Runs one tmux client command; returns its standard output, throws on failure.
    ///
    /// The command that starts the server goes through bash, which first closes every
    /// descriptor above 2: the server forks from that client and would inherit them, and
    /// Foundation's `Process` on Linux learns that a child exited from a socket the child
    /// holds, so a server holding it would make `waitUntilExit` wait for the server.
    @discardableResult
    private func run(startingServer: Bool = false, _ arguments: [String]) throws -> String {
        let tmux = ["tmux", "-u", "-f", "/dev/null", "-L", socket] + arguments
        let command = startingServer ? ["bash", "-c", Self.closeDescriptorsAndExec, "bash"] + tmux : tmux
        let outcome = try ChildProcess.run(command, environment: environment)
        guard outcome.status == 0 else {
            throw TmuxError("tmux \(arguments.joined(separator: " ")) exited with \(outcome.status): \(outcome.errors)")
        }
        return outcome.output
    }

    private static let closeDescriptorsAndExec = #"""
        for fd in /proc/$$/fd/*; do
          fd=${fd##*/}
          if [ "$fd" -gt 2 ]; then eval "exec $fd>&-" 2>/dev/null; fi
        done
        exec "$@"
        """#

    /// The test's environment with a UTF-8 locale (tmux and curses both need one, and CI
    /// often has no LANG), a TERM for the tmux client, and no trace of an enclosing tmux.
    private static func environment() -> [String: String] {
        var env = ProcessInfo.processInfo.environment
        env["LANG"] = "C.UTF-8"
        env["LC_ALL"] = "C.UTF-8"
        env["LC_CTYPE"] = nil
        if (env["TERM"] ?? "").isEmpty || env["TERM"] == "dumb" { env["TERM"] = "xterm-256color" }
        env["TMUX"] = nil
        env["TMUX_PANE"] = nil
        // `swift test` may run with NO_COLOR set; a test that wants it says so itself.
        env["NO_COLOR"] = nil
        return env
    }
}

struct TmuxError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
