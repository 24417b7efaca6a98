import Synchronization

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

/// The process's log: any thread may write, one line at a time (the `Mutex` also keeps lines
/// from interleaving).
public final class Log: Sendable {
    public static let shared = Log()

    private struct Settings {
        var level: LogLevel = .warn
        /// `--trace FILE`: trace lines go there (whatever the level) instead of to stderr.
        var traceFD: Int32?
    }
    private let settings = Mutex(Settings())

    public func setLevel(_ newLevel: LogLevel) { settings.withLock { $0.level = newLevel } }

    public func isEnabled(_ messageLevel: LogLevel) -> Bool { settings.withLock { messageLevel <= $0.level } }

    /// Sends trace lines to an open file instead of stderr.
    public func setTraceFile(_ fd: Int32) { settings.withLock { $0.traceFD = fd } }

    /// Whether `trace` writes anywhere: `--log-level trace` or `--trace FILE`.
    public var isTracing: Bool { settings.withLock { $0.traceFD != nil || $0.level >= .trace } }

    /// One trace line (already redacted by the caller), to the trace file or to stderr.
    public func trace(_ message: @autoclosure () -> String) {
        let target: Int32? = settings.withLock { $0.traceFD ?? ($0.level >= .trace ? FDIO.standardError : nil) }
        guard let target else { return }
        let line = "authbridge trace: \(message())\n"
        settings.withLock { _ in _ = FDIO.writeAll(target, Array(line.utf8)) }
    }

    public func write(_ messageLevel: LogLevel, _ message: @autoclosure () -> String) {
        guard isEnabled(messageLevel) else { return }
        let line = "authbridge \(messageLevel.name): \(message())\n"
        settings.withLock { _ in Self.writeToStderr(line) }
    }

    /// Unconditional stderr text (banners, usage), not a log entry.
    public func plain(_ text: String) {
        settings.withLock { _ in Self.writeToStderr(text) }
    }

    private static func writeToStderr(_ text: String) {
        FDIO.writeAll(FDIO.standardError, Array(text.utf8))
    }
}

public func logError(_ message: @autoclosure () -> String) { Log.shared.write(.error, message()) }
public func logWarn(_ message: @autoclosure () -> String) { Log.shared.write(.warn, message()) }
public func logInfo(_ message: @autoclosure () -> String) { Log.shared.write(.info, message()) }
public func logDebug(_ message: @autoclosure () -> String) { Log.shared.write(.debug, message()) }
