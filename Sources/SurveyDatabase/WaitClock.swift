/// How long a statement has waited for the server, leaving out time this laptop itself was
/// not running. A step that took much longer than it asked to (a `poll` given a second that
/// came back after 37) means the process was stopped meanwhile (SIGSTOP, a closed lid): that
/// stretch is not the server's, and a sync woken from it no longer opened with "waiting 37 s
/// for the server" (issue 28).
struct WaitClock {
    /// What a step may overrun by before it counts as stopped: a busy laptop's scheduler.
    static let slack: Duration = .seconds(2)

    private(set) var waited: Duration = .zero

    /// A step that asked to take at most `asked` took `took`.
    mutating func step(asked: Duration, took: Duration) {
        waited += took > asked + Self.slack ? asked : max(took, .zero)
    }

    var seconds: Int { Int(waited.components.seconds) }
}
