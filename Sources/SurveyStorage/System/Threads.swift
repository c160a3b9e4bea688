import FoundationEssentials
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import SurveyValues

/// A lock with a condition to wait on, `NSCondition`'s shape: `wait` and `wait(until:)` are
/// called with the lock held, and release it while waiting.
public final class Condition: @unchecked Sendable {
    private let mutex = Lock()
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

    public init() {
        condition.initialize(to: pthread_cond_t())
        pthread_cond_init(condition, nil)
    }

    deinit {
        pthread_cond_destroy(condition)
        condition.deallocate()
    }

    public func lock() { mutex.lock() }

    public func unlock() { mutex.unlock() }

    public func withLock<T>(_ body: () throws -> T) rethrows -> T {
        try mutex.withLock(body)
    }

    public func wait() { pthread_cond_wait(condition, mutex.mutex) }

    /// Waits at most until `deadline` (seconds since 1970, the wall clock the condition
    /// measures against); false when the time ran out.
    @discardableResult
    public func wait(untilSecondsSince1970 deadline: Double) -> Bool {
        let whole = deadline.rounded(.down)
        var time = timespec(tv_sec: Int(whole), tv_nsec: Int((deadline - whole) * 1e9))
        return pthread_cond_timedwait(condition, mutex.mutex, &time) == 0
    }

    public func signal() { pthread_cond_signal(condition) }

    public func broadcast() { pthread_cond_broadcast(condition) }
}

/// Runs `body` on a new detached thread, as Foundation's `Thread { }.start()` did (same
/// default stack). Unnamed: glibc's headers hide `pthread_setname_np` from Swift.
public func startThread(_ body: @escaping @Sendable () -> Void) {
    let started = tryStartingThread(body)
    precondition(started == 0, "could not start a thread (error \(started))")
}

/// `startThread`, saying whether the thread started (0) or why not (`pthread_create`'s error,
/// EAGAIN under a process limit or memory pressure) instead of stopping the program: for work
/// that can be done in line instead.
public func tryStartingThread(_ body: @escaping @Sendable () -> Void) -> Int32 {
    final class Box { let body: @Sendable () -> Void; init(_ body: @escaping @Sendable () -> Void) { self.body = body } }
    let box = Unmanaged.passRetained(Box(body))
    var thread = pthread_t()
    let started = pthread_create(&thread, nil, { raw in
        let box = Unmanaged<Box>.fromOpaque(raw!).takeRetainedValue()
        box.body()
        return nil
    }, box.toOpaque())
    guard started == 0 else {
        box.release()
        return started
    }
    pthread_detach(thread)
    return 0
}
