import FoundationEssentials
import SurveyValues

/// A file made on a second thread and put in place only when the caller says so: a sync's
/// commit writes the ledger's temporary file while it writes the deleted surveys and the
/// document, then installs it after them, so what is on disk changes in the same order as
/// when the three were written one after another (a crash leaves a document with a ledger
/// that has not heard of it, never the reverse). On two processors a first pull of 100,000
/// surveys wrote its 55 MB ledger (0.4 s) and 37 MB document (0.2 s) one after the other.
///
/// `AtomicFile.write(to:contents:commit:)` gives the shape: the content is written and synced
/// first, then the commit step waits here for `install()` or `abandon()`.
final class SideWrite: @unchecked Sendable {
    private enum Decision { case pending, install, abandon }

    private let condition = Condition()
    private var decision = Decision.pending
    private var finished = false
    private var failure: Error?

    /// What the thread writes, given up by it before it says it is done: the closure holds
    /// the ledger, and a second reference alive after the commit returned would make the
    /// caller's next change to the ledger copy its tables.
    private var contents: (@Sendable (FileOutput) throws -> Void)?

    /// Starts writing `url` through `write` (`DocumentStore.write(to:contents:commit:)`)
    /// with `contents`, on a new thread; nil when no thread can be started (the caller writes
    /// in line instead).
    static func start(_ store: DocumentStore, _ url: URL, contents: @escaping @Sendable (FileOutput) throws -> Void) -> SideWrite? {
        let side = SideWrite()
        side.contents = contents
        let started = tryStartingThread {
            func write() throws {
                guard let contents = side.condition.withLock({ () -> (@Sendable (FileOutput) throws -> Void)? in
                    defer { side.contents = nil }
                    return side.contents
                }) else { return }
                try store.write(to: url, contents: contents) { install in
                    if side.awaitDecision() { try install() }
                }
            }
            do {
                try write()
                side.finish(nil)
            } catch {
                side.finish(error)
            }
        }
        return started == 0 ? side : nil
    }

    /// Puts the file in place (once its content is written) and returns; throws what writing
    /// or installing it threw, the old file then untouched.
    func install() throws {
        try decide(.install)
    }

    /// The file is not put in place: its temporary file goes. Returns once the thread is done
    /// with it, so nothing of this commit is still writing when the caller puts files back.
    func abandon() {
        _ = try? decide(.abandon)
    }

    private func decide(_ decision: Decision) throws {
        let failure: Error? = condition.withLock {
            if self.decision == .pending { self.decision = decision }
            condition.broadcast()
            while !finished { condition.wait() }
            return self.failure
        }
        if let failure { throw failure }
    }

    /// On the writing thread: whether to install. Asked again when the file turns out to be
    /// written in place (another user's file), and answered the same.
    private func awaitDecision() -> Bool {
        condition.withLock {
            while decision == .pending { condition.wait() }
            return decision == .install
        }
    }

    private func finish(_ error: Error?) {
        condition.withLock {
            failure = error
            finished = true
            condition.broadcast()
        }
    }
}

/// A value made on a second thread while the caller does something else, then waited for
/// (`result`): a sync's snapshot reads a large ledger beside its document. Made in line when
/// no thread can be started.
final class BesideRead<Value: Sendable>: @unchecked Sendable {
    private let condition = Condition()
    private var outcome: Result<Value, Error>?

    static func start(_ make: @escaping @Sendable () throws -> Value) -> BesideRead {
        let read = BesideRead()
        let started = tryStartingThread {
            let made = Result { try make() }
            read.condition.withLock {
                read.outcome = made
                read.condition.signal()
            }
        }
        if started != 0 { read.outcome = Result { try make() } }
        return read
    }

    /// The value, once made (or its error).
    func result() throws -> Value {
        condition.lock()
        defer { condition.unlock() }
        while outcome == nil { condition.wait() }
        return try outcome!.get()
    }
}
