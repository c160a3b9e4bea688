import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// Background work (rewriting the `.plist` behind the journal, building the `/` index) runs
/// at a lower priority than the keyboard. On two processors a million surveys' rewrite keeps
/// one busy for seconds at every commit; at the same priority the key after a commit waited
/// its turn for a processor with it and with whatever else the machine runs. Linux gives each
/// thread its own nice value: the calling (pool) thread is lowered for good, which suits
/// every later job on it too, since the app runs nothing urgent off the main thread.
enum BackgroundPriority {
    static let niceness: Int32 = 10

    static func lowerCurrentThread() {
        #if os(Linux)
        guard let thread = currentThreadID() else { return }
        let which = __priority_which_t(PRIO_PROCESS.rawValue)
        errno = 0
        let now = getpriority(which, thread)
        if errno == 0, now >= niceness { return }
        _ = setpriority(which, thread, niceness)
        #endif
    }

    /// The kernel's id of the calling thread (`gettid`, which Swift's Glibc does not export),
    /// from /proc/thread-self ("PID/task/TID").
    private static func currentThreadID() -> id_t? {
        var buffer = [CChar](repeating: 0, count: 64)
        let count = readlink("/proc/thread-self", &buffer, 63)
        guard count > 0 else { return nil }
        let text = String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return text.split(separator: "/").last.flatMap { id_t($0) }
    }
}
