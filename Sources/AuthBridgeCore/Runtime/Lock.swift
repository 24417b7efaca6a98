#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A pthread mutex. Foundation's NSLock would do, but loading Foundation costs the daemon more
/// start-up time than the rest of its start-up together (docs/performance.md).
public final class Lock: @unchecked Sendable {
    fileprivate let mutex: UnsafeMutablePointer<pthread_mutex_t>

    public init() {
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    public func lock() { pthread_mutex_lock(mutex) }

    /// Takes the lock unless that takes longer than `seconds`; false when it timed out.
    public func lock(within seconds: Double) -> Bool {
        #if canImport(Darwin)
        // macOS has no pthread_mutex_timedlock: try every millisecond until the time is up (this
        // runs once, when the daemon stops).
        for _ in 0..<max(1, Int(seconds * 1000)) {
            if pthread_mutex_trylock(mutex) == 0 { return true }
            usleep(1000)
        }
        return pthread_mutex_trylock(mutex) == 0
        #else
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        let nanoseconds = Int(now.tv_nsec) + Int(seconds.truncatingRemainder(dividingBy: 1) * 1_000_000_000)
        var deadline = timespec()
        deadline.tv_sec = now.tv_sec + Int(seconds) + nanoseconds / 1_000_000_000
        deadline.tv_nsec = nanoseconds % 1_000_000_000
        return pthread_mutex_timedlock(mutex, &deadline) == 0
        #endif
    }
    public func unlock() { pthread_mutex_unlock(mutex) }

    public func withLock<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
        lock()
        defer { unlock() }
        return try body()
    }
}

/// A condition variable with its own mutex: `lock`, then `wait` until a state change, `broadcast`.
public final class Condition: @unchecked Sendable {
    private let mutex = Lock()
    private let condition: UnsafeMutablePointer<pthread_cond_t>

    public init() {
        condition = .allocate(capacity: 1)
        condition.initialize(to: pthread_cond_t())
        pthread_cond_init(condition, nil)
    }

    deinit {
        pthread_cond_destroy(condition)
        condition.deallocate()
    }

    public func lock() { mutex.lock() }
    public func unlock() { mutex.unlock() }
    /// Releases the lock while waiting; holds it again on return.
    public func wait() { pthread_cond_wait(condition, mutex.mutex) }
    public func broadcast() { pthread_cond_broadcast(condition) }
}
