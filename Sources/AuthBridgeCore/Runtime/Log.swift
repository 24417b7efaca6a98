/// Diagnostics on stderr, one line each with a level. Never pass a password, token or secret:
/// callers log names and shapes, not values. `trace` adds every request, response and event,
/// redacted by the face that writes them (RPCFace's `Tracer`).
public enum LogLevel: Int, Comparable, Sendable, CaseIterable {
    case error = 0, warn, info, debug, trace

    public init?(name: String) {
        switch name.lowercased() {
        case "error": self = .error
        case "warn", "warning": self = .warn
        case "info": self = .info
        case "debug": self = .debug
        case "trace": self = .trace
        default: return nil
        }
    }

    public var name: String { ["error", "warn", "info", "debug", "trace"][rawValue] }

    public static func < (a: LogLevel, b: LogLevel) -> Bool { a.rawValue < b.rawValue }
}

public final class Log: @unchecked Sendable {
    public static let shared = Log()

    private let lock = Lock()
    private var level: LogLevel = .warn
    /// `--trace FILE`: trace lines go there (whatever the level) instead of to stderr.
    private var traceFD: Int32?

    public func setLevel(_ newLevel: LogLevel) { lock.withLock { level = newLevel } }

    public func isEnabled(_ messageLevel: LogLevel) -> Bool { lock.withLock { messageLevel <= level } }

    /// Sends trace lines to an open file instead of stderr.
    public func setTraceFile(_ fd: Int32) { lock.withLock { traceFD = fd } }

    /// Whether `trace` writes anywhere: `--log-level trace` or `--trace FILE`.
    public var isTracing: Bool { lock.withLock { traceFD != nil || level >= .trace } }

    /// One trace line (already redacted by the caller), to the trace file or to stderr.
    public func trace(_ message: @autoclosure () -> String) {
        let target: Int32? = lock.withLock { traceFD ?? (level >= .trace ? FDIO.standardError : nil) }
        guard let target else { return }
        let line = "authbridge trace: \(message())\n"
        lock.withLock { _ = FDIO.writeAll(target, Array(line.utf8)) }
    }

    public func write(_ messageLevel: LogLevel, _ message: @autoclosure () -> String) {
        guard isEnabled(messageLevel) else { return }
        let line = "authbridge \(messageLevel.name): \(message())\n"
        lock.withLock { Self.writeToStderr(line) }
    }

    /// Unconditional stderr text (banners, usage), not a log entry.
    public func plain(_ text: String) {
        lock.withLock { Self.writeToStderr(text) }
    }

    private static func writeToStderr(_ text: String) {
        FDIO.writeAll(FDIO.standardError, Array(text.utf8))
    }
}

public func logError(_ message: @autoclosure () -> String) { Log.shared.write(.error, message()) }
public func logWarn(_ message: @autoclosure () -> String) { Log.shared.write(.warn, message()) }
public func logInfo(_ message: @autoclosure () -> String) { Log.shared.write(.info, message()) }
public func logDebug(_ message: @autoclosure () -> String) { Log.shared.write(.debug, message()) }
