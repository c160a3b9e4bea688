import FoundationEssentials

/// What a long sync says of its pace: about how long is left, from what is done of a known
/// total (a push knows what it sends; a long pull asks the server once). Said only once a
/// sync has run a couple of seconds, when the pace means something; a short sync's line
/// stays short. It measures time passing (a monotonic clock that a changed wall clock does
/// not move), not the moment a change is stamped with: that is the caller's clock.
struct ProgressClock {
    let total: Int?
    let started: ContinuousClock.Instant
    private(set) var done = 0

    init(total: Int?, started: ContinuousClock.Instant = .now) {
        self.total = total
        self.started = started
    }

    mutating func count(_ more: Int) { done += more }

    /// ", about 40 s left" once `done` of `total` are through and two seconds have passed.
    mutating func left(done: Int, at now: ContinuousClock.Instant = .now) -> String {
        self.done = done
        let passed = (now - started).components
        let elapsed = Double(passed.seconds) + Double(passed.attoseconds) / 1e18
        guard let total, elapsed >= 2, done > 0, done < total else { return "" }
        let seconds = Int((elapsed * Double(total - done) / Double(done)).rounded(.up))
        return seconds >= 90 ? ", about \(seconds / 60) min left" : ", about \(max(seconds, 1)) s left"
    }
}
