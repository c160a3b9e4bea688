#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A mutual-exclusion lock with `NSLock`'s shape (`lock`, `unlock`, `withLock`), over a
/// pthread mutex. Foundation's `NSLock` is an `NSObject`, and naming it links full
/// Foundation, CoreFoundation and ICU's 34 MB of data into the binary (DECISIONS.md).
/// A class, so the mutex has a stable address and one lock is shared by reference.
public final class Lock: @unchecked Sendable {
    package let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)

    public init() {
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    public func lock() { pthread_mutex_lock(mutex) }

    public func unlock() { pthread_mutex_unlock(mutex) }

    public func withLock<T>(_ body: () throws -> T) rethrows -> T {
        lock()
        defer { unlock() }
        return try body()
    }
}

