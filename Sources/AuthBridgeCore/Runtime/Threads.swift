#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Detached threads for work that blocks in system calls (an HTTP connection waiting in recv(2)).
/// Dispatch's pool is meant for work that does not block; a pthread per connection, bounded by
/// the caller, is the honest tool here.
public enum Threads {
    private final class Box {
        let body: () -> Void
        init(_ body: @escaping () -> Void) { self.body = body }
    }

    /// Runs `body` on a new detached thread; false when the system refused one.
    @discardableResult
    public static func detach(_ body: @escaping @Sendable () -> Void) -> Bool {
        let box = Unmanaged.passRetained(Box(body)).toOpaque()
        #if canImport(Darwin)
            var thread: pthread_t?  // an opaque pointer on macOS, an integer on Linux
        #else
            var thread = pthread_t()
        #endif
        let created = pthread_create(
            &thread, nil,
            { raw in
                // The argument is optional on Linux and not on macOS; this line reads both.
                let argument: UnsafeMutableRawPointer? = raw
                let box = Unmanaged<Box>.fromOpaque(argument!).takeRetainedValue()
                box.body()
                return nil
            }, box)
        guard created == 0 else {
            Unmanaged<Box>.fromOpaque(box).release()
            return false
        }
        #if canImport(Darwin)
            pthread_detach(thread!)
        #else
            pthread_detach(thread)
        #endif
        return true
    }
}
