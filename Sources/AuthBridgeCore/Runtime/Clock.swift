#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The range of times AuthBridge accepts, in Unix seconds: up to 9999-12-31T23:59:59Z. Every
/// time that comes in (a flag, a param, saved state) is checked against it where it enters, so a
/// time plus a lifetime never leaves Int64, where a conversion would stop the daemon.
public enum TimeBounds {
    public static let latest: Double = 253_402_300_799

    public static func contains(_ seconds: Double) -> Bool { seconds.isFinite && seconds >= 0 && seconds <= latest }

    /// How a refusal names the allowed range.
    public static let description = "Unix seconds from 0 to 253402300799 (9999-12-31T23:59:59Z)"
}

/// Where "now" comes from. A seam because tests and transcripts need time that stands still.
public protocol Clock: AnyObject {
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
/// No lock: it belongs to the Host's world, which only one unit of work holds at a time.
public final class VirtualClock: Clock {
    /// 2026-01-01T00:00:00Z: a fixed, readable default start.
    public static let defaultEpoch: Double = 1_767_225_600

    public private(set) var now: Double

    public init(epoch: Double = VirtualClock.defaultEpoch) { now = epoch }

    public func advance(by seconds: Double) {
        now += seconds
    }

    /// Puts time at `time`, back or forward: undoing a change that could not be saved.
    public func set(to time: Double) {
        now = time
    }

    /// Moves time forward to `time`, never back: a restored daemon resumes where it stopped.
    public func resume(at time: Double) {
        now = max(now, time)
    }
}
