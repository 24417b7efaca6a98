#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where "now" comes from. A seam because tests and transcripts need time that stands still.
public protocol Clock: AnyObject, Sendable {
    /// Seconds since the Unix epoch.
    var now: Double { get }
}

public final class SystemClock: Clock {
    public init() {}
    public var now: Double {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1_000_000_000
    }
}

/// Time that moves only when told to (`emulator.advanceClock`), so expiry can be tested exactly.
public final class VirtualClock: Clock, @unchecked Sendable {
    /// 2026-01-01T00:00:00Z: a fixed, readable default start.
    public static let defaultEpoch: Double = 1_767_225_600

    private let lock = Lock()
    private var current: Double

    public init(epoch: Double = VirtualClock.defaultEpoch) { current = epoch }

    public var now: Double { lock.withLock { current } }

    public func advance(by seconds: Double) {
        lock.withLock { current += seconds }
    }

    /// Moves time forward to `time`, never back: a restored daemon resumes where it stopped.
    public func resume(at time: Double) {
        lock.withLock { current = max(current, time) }
    }
}
